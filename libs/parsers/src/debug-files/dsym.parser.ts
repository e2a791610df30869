import { DebugFileParseError } from './debug-file-parse.error';
import type { DebugSymbolEntry, ParsedDebugFile } from './debug-file.types';
import { ForwardReader } from './forward.reader';
import { readDsymBundleInfo, type DsymBundleInfo } from './info-plist.reader';
import { MachOFormatError, readMachOSlices } from './macho.reader';
import { baseName, type ZipEntries, type ZipEntry } from './zip-entries';

// `Foo.app.dSYM/Contents/Resources/DWARF/Foo`, possibly below other folders (an .xcarchive's
// dSYMs/). Case-insensitive because real archives carry names such as `ios.DSYM`.
const DWARF_FILE = /^((?:.*\/)?[^/]+\.dsym)\/contents\/resources\/dwarf\/[^/]+$/i;
const INFO_PLIST_MAX_BYTES = 1024 * 1024;

interface DsymBundle {
  /** Path of the `.dSYM` folder inside the archive. */
  path: string;
  dwarfFiles: ZipEntry[];
  infoPlist?: ZipEntry;
}

/** The dSYM bundles of the archive, in the order their DWARF files appear; empty when there are none. */
export function findDsymBundles(files: readonly ZipEntry[]): DsymBundle[] {
  const bundles = new Map<string, DsymBundle>();
  for (const file of files) {
    const match = DWARF_FILE.exec(file.name);
    if (!match) continue;
    const path = match[1]!;
    const bundle = bundles.get(path.toLowerCase()) ?? { path, dwarfFiles: [] };
    bundle.dwarfFiles.push(file);
    bundles.set(path.toLowerCase(), bundle);
  }
  for (const file of files) {
    const lower = file.name.toLowerCase();
    if (!lower.endsWith('/contents/info.plist')) continue;
    const bundle = bundles.get(lower.slice(0, -'/contents/info.plist'.length));
    if (bundle && !bundle.infoPlist) bundle.infoPlist = file;
  }
  return [...bundles.values()];
}

/**
 * One entry per Mach-O slice of every DWARF file. The app's identity comes from the first bundle
 * with an Info.plist; each entry also records its own bundle's values, since one archive may hold
 * the dSYMs of an app and of its extensions.
 */
export async function parseDsymArchive(zip: ZipEntries, bundles: readonly DsymBundle[]): Promise<ParsedDebugFile> {
  const parsed: ParsedDebugFile = { kind: 'dsym', deviceType: 'ios', entries: [] };
  let identitySet = false;
  for (const bundle of bundles) {
    const info = bundle.infoPlist ? readDsymBundleInfo(await zip.readSmall(bundle.infoPlist, INFO_PLIST_MAX_BYTES)) : {};
    if (!identitySet && bundle.infoPlist) {
      Object.assign(parsed, info);
      identitySet = true;
    }
    for (const dwarf of bundle.dwarfFiles) {
      parsed.entries.push(...(await readDwarfFile(zip, bundle, dwarf, info)));
    }
  }
  return parsed;
}

async function readDwarfFile(
  zip: ZipEntries,
  bundle: DsymBundle,
  dwarf: ZipEntry,
  info: DsymBundleInfo,
): Promise<DebugSymbolEntry[]> {
  const reader = new ForwardReader(zip.chunks(dwarf));
  try {
    const slices = await readMachOSlices(reader, dwarf.uncompressedSize);
    return slices.map((slice) => ({
      uuid: slice.uuid,
      type: slice.arch,
      object: baseName(dwarf.name),
      size: slice.size,
      data: {
        dsym: baseName(bundle.path),
        path: dwarf.name,
        cpu_type: slice.cpuType,
        cpu_subtype: slice.cpuSubtype,
        offset: slice.offset,
        ...(info.bundleId === undefined ? {} : { bundle_id: info.bundleId }),
        ...(info.releaseVersion === undefined ? {} : { release_version: info.releaseVersion }),
        ...(info.buildVersion === undefined ? {} : { build_version: info.buildVersion }),
      },
    }));
  } catch (error) {
    if (error instanceof MachOFormatError) {
      throw new DebugFileParseError(`${dwarf.name} is not a usable Mach-O DWARF file (${error.message})`, { cause: error });
    }
    throw error;
  } finally {
    // Only the headers were needed; stop inflating the rest of a possibly huge file.
    await reader.close();
  }
}
