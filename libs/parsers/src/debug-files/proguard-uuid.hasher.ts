import { Uuid5Hasher, uuid5 } from './uuid5.hasher';

const NAMESPACE_DNS = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';

/**
 * Sentry identifies a ProGuard mapping by uuid5(uuid5(NAMESPACE_DNS, "guardsquare.com"), content),
 * so ids computed here match the ones sentry-cli and the Sentry Gradle plugin report.
 */
export const PROGUARD_NAMESPACE = uuid5(NAMESPACE_DNS, 'guardsquare.com');

export interface ProguardMappingDigest {
  uuid: string;
  /** Bytes actually hashed, to compare with what the archive declared. */
  size: number;
}

export async function digestProguardMapping(chunks: AsyncIterable<Buffer>): Promise<ProguardMappingDigest> {
  const hasher = new Uuid5Hasher(PROGUARD_NAMESPACE);
  let size = 0;
  for await (const chunk of chunks) {
    hasher.update(chunk);
    size += chunk.length;
  }
  return { uuid: hasher.digest(), size };
}
