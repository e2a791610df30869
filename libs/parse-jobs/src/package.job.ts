import { randomUUID } from 'node:crypto';
import { PackageParseError, UnknownPackageError, parsePackage } from '@hangar/parsers';
import type { ObjectStorage } from '@hangar/storage';
import type { ParseReply } from './contract';

/**
 * Reads an uploaded package's metadata straight from storage through ranged GETs — only the parts
 * the format needs (a zip's central directory, manifest, plist, icon), never the whole object, so
 * a 1 GiB package costs about what a 3 MB one does — and stores its icon as a PNG.
 */
export async function parseObject(storage: ObjectStorage, objectKey: string): Promise<ParseReply> {
  // A missing object or a storage outage throws here (or from a read below) and is answered as
  // 'unavailable' by the caller; only what the parser says about the content is corrupt/unknown.
  const source = await storage.openRangeSource(objectKey);
  try {
    const { icon, ...parsed } = await parsePackage(source);
    let iconKey: string | undefined;
    if (icon) {
      iconKey = `icons/${randomUUID()}.png`;
      await storage.putBuffer(iconKey, icon, 'image/png');
    }
    return { ok: true, parsed, ...(iconKey ? { iconKey } : {}) };
  } catch (err) {
    if (err instanceof PackageParseError) return { ok: false, kind: 'corrupt', message: err.message };
    if (err instanceof UnknownPackageError) return { ok: false, kind: 'unknown', message: err.message };
    throw err;
  } finally {
    // parsePackage closes the source it was given; closing again is harmless and covers a throw before it.
    await source.close();
  }
}
