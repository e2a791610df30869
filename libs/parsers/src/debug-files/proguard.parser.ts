import { readAndroidManifest, type AndroidManifestInfo } from './android-manifest.reader';
import { DebugFileParseError } from './debug-file-parse.error';
import type { ParsedDebugFile } from './debug-file.types';
import { digestProguardMapping, type ProguardMappingDigest } from './proguard-uuid.hasher';
import { baseName, type ZipEntries, type ZipEntry } from './zip-entries';

const MANIFEST_MAX_BYTES = 4 * 1024 * 1024;

type ProguardFileType = 'mapping' | 'r_txt' | 'manifest';

const FILE_TYPES: ReadonlyMap<string, ProguardFileType> = new Map([
  ['mapping.txt', 'mapping'],
  ['r.txt', 'r_txt'],
  ['androidmanifest.xml', 'manifest'],
]);

interface ProguardFile {
  entry: ZipEntry;
  type: ProguardFileType;
}

/** The mapping-archive files, in archive order; empty when there is no mapping.txt (the one required file). */
export function findProguardFiles(files: readonly ZipEntry[]): ProguardFile[] {
  const found: ProguardFile[] = [];
  for (const entry of files) {
    const type = FILE_TYPES.get(baseName(entry.name).toLowerCase());
    if (type) found.push({ entry, type });
  }
  return found.some((file) => file.type === 'mapping') ? found : [];
}

/**
 * One entry per file. Every entry carries the id of the archive's mapping (R.txt and the manifest
 * have no identity of their own), so a lookup by the id a crash reporter knows finds the archive.
 * With several mapping.txt files each keeps its own id and the companions take the first one's.
 */
export async function parseProguardArchive(zip: ZipEntries, files: readonly ProguardFile[]): Promise<ParsedDebugFile> {
  const mappings = new Map<ZipEntry, ProguardMappingDigest>();
  for (const { entry, type } of files) {
    if (type !== 'mapping') continue;
    const digest = await digestProguardMapping(zip.chunks(entry));
    checkedSize(entry, digest.size);
    mappings.set(entry, digest);
  }
  const [firstMapping] = mappings.values();
  if (!firstMapping) throw new DebugFileParseError('the archive has no mapping.txt');

  const parsed: ParsedDebugFile = { kind: 'proguard', deviceType: 'android', entries: [] };
  let identitySet = false;
  for (const { entry, type } of files) {
    const data: Record<string, unknown> = { path: entry.name };
    let size: number;
    if (type === 'mapping') {
      size = mappings.get(entry)!.size;
    } else if (type === 'r_txt') {
      size = checkedSize(entry, await countBytes(zip.chunks(entry)));
    } else {
      const bytes = await zip.readSmall(entry, MANIFEST_MAX_BYTES);
      size = checkedSize(entry, bytes.length);
      const manifest = readAndroidManifest(bytes);
      if (manifest) {
        Object.assign(data, manifestData(manifest));
        if (!identitySet) {
          identitySet = true;
          if (manifest.packageName) parsed.bundleId = manifest.packageName;
          if (manifest.versionName) parsed.releaseVersion = manifest.versionName;
          if (manifest.versionCode) parsed.buildVersion = manifest.versionCode;
        }
      }
    }
    parsed.entries.push({
      uuid: mappings.get(entry)?.uuid ?? firstMapping.uuid,
      type,
      object: baseName(entry.name),
      size,
      data,
    });
  }
  return parsed;
}

function manifestData(manifest: AndroidManifestInfo): Record<string, string> {
  const data: Record<string, string> = {};
  if (manifest.packageName) data['package'] = manifest.packageName;
  if (manifest.versionName) data['version_name'] = manifest.versionName;
  if (manifest.versionCode) data['version_code'] = manifest.versionCode;
  return data;
}

// Sizes are reported from the bytes actually read, and must agree with the archive's header.
function checkedSize(entry: ZipEntry, actual: number): number {
  if (actual !== entry.uncompressedSize) {
    throw new DebugFileParseError(`${entry.name} declares ${entry.uncompressedSize} bytes but holds ${actual}`);
  }
  return actual;
}

async function countBytes(chunks: AsyncIterable<Buffer>): Promise<number> {
  let total = 0;
  for await (const chunk of chunks) total += chunk.length;
  return total;
}
