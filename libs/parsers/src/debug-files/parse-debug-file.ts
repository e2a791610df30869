import { type ByteSource, openSource } from '../packages/byte-source';
import { DebugFileParseError } from './debug-file-parse.error';
import { DEFAULT_DEBUG_FILE_LIMITS, type DebugFileParseOptions, type DebugMemberStore, type ParsedDebugFile } from './debug-file.types';
import { markedStore, unclosable } from './debug-source';
import { findDsymBundles, parseDsymArchive } from './dsym.parser';
import { findProguardFiles, parseProguardArchive } from './proguard.parser';
import { ZipEntries } from './zip-entries';
import { isElf, readElfIdentity } from './elf.reader';
import { isBreakpad, readBreakpadModule } from './breakpad.reader';
import { MSF_MAGIC, readPdbIdentity } from './pdb.reader';
import { isPe, readPeCodeId } from './pe-code-id.reader';
import { parseElfArchive } from './elf-archive.parser';
import { parseElfTar, tarCompressionOf } from './tar-archive.parser';

/**
 * Reads the symbol metadata of an uploaded debug file: the slices of the dSYM bundles of a zip
 * (iOS), its ProGuard mapping files (Android) or the ELF files it holds (Linux; also from a `.tar`
 * or `.tar.gz`); or one ELF, Breakpad, PDB or PE file sent as it is. Read by position from
 * `upload` — a local file, or a stored object read by range — never copied anywhere first; the
 * members clients fetch on their own (ELF files, dSYM slices) stream into `options.members`.
 * Anything that is not such a file — including damaged, hostile or truncated ones — is a
 * DebugFileParseError; the source's and the store's failures pass through unchanged.
 *
 * A path is opened and closed here; a ByteSource handed in stays open for its caller to close.
 */
export async function parseDebugFile(upload: string | ByteSource, options: DebugFileParseOptions = {}): Promise<ParsedDebugFile> {
  const source = await openSource(upload, 'debug file');
  try {
    return await parseSource(source, options);
  } finally {
    if (typeof upload === 'string') await source.close();
  }
}

async function parseSource(source: ByteSource, options: DebugFileParseOptions): Promise<ParsedDebugFile> {
  const limits = { ...DEFAULT_DEBUG_FILE_LIMITS, ...options.limits };
  const members = options.members && markedStore(options.members);
  const start = source.size === 0 ? Buffer.alloc(0) : await source.read(0, Math.min(8, source.size));
  if (isElf(start)) return parseElfFile(source);
  if (isBreakpad(start)) return parseBreakpadFile(source);
  if (start.length === 8 && start.equals(MSF_MAGIC.subarray(0, 8))) return parsePdbFile(source);
  if (isPe(start)) return parsePeFile(source);
  const tar = isZipMagic(start) ? undefined : await tarCompressionOf(source, start);
  if (tar) return parseElfTar(source, tar, limits, () => needed(members));
  // The zip reader closes what it is given; the source is this parse's caller's.
  const zip = await ZipEntries.open(unclosable(source), limits);
  try {
    const bundles = findDsymBundles(zip.files);
    const proguardFiles = findProguardFiles(zip.files);
    // Guessing which half the uploader meant would attach symbols to the wrong platform.
    if (bundles.length > 0 && proguardFiles.length > 0) {
      throw new DebugFileParseError('the archive holds both dSYM bundles and a mapping.txt; upload them separately');
    }
    if (bundles.length > 0) return await parseDsymArchive(zip, bundles, members);
    if (proguardFiles.length > 0) return await parseProguardArchive(zip, proguardFiles);
    const elf = await parseElfArchive(zip, () => needed(members));
    if (elf) return elf;
    throw new DebugFileParseError('found neither .dSYM/Contents/Resources/DWARF/* nor mapping.txt nor an ELF file');
  } finally {
    await zip.close();
  }
}

/** ELF members are read by position once stored, so an archive of them cannot be read without a store. */
function needed(members: DebugMemberStore | undefined): DebugMemberStore {
  if (!members) throw new TypeError('parseDebugFile: an archive of ELF files is read from where its members are stored; pass options.members');
  return members;
}

/** A zip's local-header or end-record magic: never read as a tar. */
const isZipMagic = (start: Buffer) => start[0] === 0x50 && start[1] === 0x4b;

/**
 * One ELF file: a separate `.debug` file, or an unstripped (or stripped) binary. Its one entry
 * carries the GNU build-id as its uuid, which is what debuginfod clients ask by.
 */
async function parseElfFile(source: ByteSource): Promise<ParsedDebugFile> {
  const elf = await readElfIdentity(source);
  const { size } = source;
  return {
    kind: 'elf',
    deviceType: 'linux',
    entries: [
      {
        uuid: elf.buildId,
        type: elf.arch,
        object: elf.debugLink ?? '',
        size,
        data: { build_id: elf.buildId, elf_type: elf.elfType, has_debug_info: elf.hasDebugInfo, has_code: elf.hasCode, ...(elf.debugLink ? { debug_link: elf.debugLink } : {}) },
      },
    ],
  };
}

/** dump_syms' names of the systems, and the channel device type each belongs to. */
const BREAKPAD_SYSTEMS: Record<string, ParsedDebugFile['deviceType']> = { Linux: 'linux', windows: 'windows', mac: 'macos', iOS: 'ios', Android: 'android' };

/** One Breakpad `.sym` file: its entry's uuid is the module id symbol servers are asked by. */
async function parseBreakpadFile(source: ByteSource): Promise<ParsedDebugFile> {
  const module = await readBreakpadModule(source);
  const deviceType = BREAKPAD_SYSTEMS[module.os];
  if (!deviceType) throw new DebugFileParseError(`a Breakpad symbol file for ${module.os}, which Hangar has no channels for`);
  const { size } = source;
  return {
    kind: 'breakpad',
    deviceType,
    entries: [
      {
        uuid: module.moduleId,
        type: module.arch,
        object: module.name,
        size,
        data: { module_id: module.moduleId, module_name: module.name, os: module.os, ...(module.codeId ? { code_id: module.codeId } : {}) },
      },
    ],
  };
}

/**
 * One PDB: its entry's uuid is the symbol-server id (GUID and age). A PDB does not carry its own
 * file name; the service takes the uploaded file's name for the `<file>` of the path.
 */
async function parsePdbFile(source: ByteSource): Promise<ParsedDebugFile> {
  const pdb = await readPdbIdentity(source);
  const { size } = source;
  return {
    kind: 'pdb',
    deviceType: 'windows',
    entries: [{ uuid: pdb.symbolServerId, type: 'pdb', object: '', size, data: { guid: pdb.guid, age: pdb.age, symbol_server_id: pdb.symbolServerId } }],
  };
}

/** One PE image (exe, dll): its entry's uuid is the code id Microsoft symbol servers file it under. */
async function parsePeFile(source: ByteSource): Promise<ParsedDebugFile> {
  const pe = await readPeCodeId(source);
  const { size } = source;
  return {
    kind: 'pe',
    deviceType: 'windows',
    entries: [{ uuid: pe.codeId, type: pe.machine, object: '', size, data: { code_id: pe.codeId, time_date_stamp: pe.timeDateStamp, size_of_image: pe.sizeOfImage } }],
  };
}
