import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { isSourceFailure } from '../packages/source-failure';
import { DebugFileParseError, isSystemError } from './debug-file-parse.error';
import type { DebugMemberStore, DebugSymbolEntry, ParsedDebugFile } from './debug-file.types';
import { MachOFormatError, readMachOSlices } from '../formats/macho.reader';
import { ForwardReader, TruncatedInputError } from './forward.reader';
import { readDsymBundleInfo, type DsymBundleInfo } from './info-plist.reader';
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
export async function parseDsymArchive(zip: ZipEntries, bundles: readonly DsymBundle[], store?: DebugMemberStore): Promise<ParsedDebugFile> {
  const parsed: ParsedDebugFile = { kind: 'dsym', deviceType: 'ios', entries: [] };
  let identitySet = false;
  for (const bundle of bundles) {
    const info = bundle.infoPlist ? readDsymBundleInfo(await zip.readSmall(bundle.infoPlist, INFO_PLIST_MAX_BYTES)) : {};
    if (!identitySet && bundle.infoPlist) {
      Object.assign(parsed, info);
      identitySet = true;
    }
    for (const dwarf of bundle.dwarfFiles) {
      const entries = await readDwarfFile(zip, bundle, dwarf, info);
      if (store) await storeSlices(zip, dwarf, entries, parsed.entries.length, store);
      parsed.entries.push(...entries);
    }
  }
  return parsed;
}

/**
 * Streams each slice of a DWARF file into the store as the entry it is (`firstIndex` onwards), in
 * one pass over the inflated member: Sentry's `unified` layout and lldb ask for the thin Mach-O of
 * one UUID, not the bundle. Each slice flows at the pace its store takes it.
 */
async function storeSlices(zip: ZipEntries, dwarf: ZipEntry, entries: DebugSymbolEntry[], firstIndex: number, store: DebugMemberStore): Promise<void> {
  const targets = entries.map((entry, i) => {
    const bytes = new PassThrough();
    const stored = store.put(firstIndex + i, bytes);
    // Seen by `write` below or by the final wait; never an unhandled rejection in between.
    stored.catch(() => undefined);
    return { entry, bytes, stored, start: Number(entry.data.offset), end: Number(entry.data.offset) + entry.size };
  });
  const write = async (target: (typeof targets)[number], chunk: Buffer) => {
    if (!target.bytes.write(chunk)) await Promise.race([once(target.bytes, 'drain'), target.stored]);
  };
  try {
    let position = 0;
    for await (const chunk of zip.chunks(dwarf)) {
      const chunkEnd = position + chunk.length;
      for (const t of targets) {
        const from = Math.max(t.start, position);
        const to = Math.min(t.end, chunkEnd);
        if (from < to) await write(t, chunk.subarray(from - position, to - position));
        if (t.end <= chunkEnd && !t.bytes.writableEnded) t.bytes.end();
      }
      position = chunkEnd;
      if (targets.every((t) => t.end <= position)) break;
    }
    if (targets.some((t) => t.end > position)) throw new DebugFileParseError(`${dwarf.name} ends inside one of its slices`);
    await Promise.all(targets.map((t) => t.stored));
  } catch (error) {
    for (const t of targets) t.bytes.destroy();
    await Promise.allSettled(targets.map((t) => t.stored));
    if (error instanceof DebugFileParseError || isSystemError(error) || isSourceFailure(error)) throw error;
    throw new DebugFileParseError(`cannot read ${dwarf.name}`, { cause: error });
  }
  for (const t of targets) t.entry.stored = true;
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
    // The reader keeps within the declared size, so a stream ending sooner is a lying zip header.
    if (error instanceof MachOFormatError || error instanceof TruncatedInputError) {
      const reason = error instanceof TruncatedInputError ? `truncated: ${error.message}` : error.message;
      throw new DebugFileParseError(`${dwarf.name} is not a usable Mach-O DWARF file (${reason})`, { cause: error });
    }
    throw error;
  } finally {
    // Only the headers were needed; stop inflating the rest of a possibly huge file.
    await reader.close();
  }
}
