import { DebugFileParseError } from './debug-file-parse.error';
import { DEFAULT_DEBUG_FILE_LIMITS, type DebugFileLimits, type ParsedDebugFile } from './debug-file.types';
import { findDsymBundles, parseDsymArchive } from './dsym.parser';
import { findProguardFiles, parseProguardArchive } from './proguard.parser';
import { ZipEntries } from './zip-entries';
import { isElf, readElfIdentity } from './elf.reader';
import { isBreakpad, readBreakpadModule } from './breakpad.reader';
import { MSF_MAGIC, readPdbIdentity } from './pdb.reader';
import { isPe, readPeCodeId } from './pe-code-id.reader';
import { mkdtemp, open, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseElfArchive } from './elf-archive.parser';
import { parseElfTar, tarCompressionOf } from './tar-archive.parser';

/**
 * Reads the symbol metadata of an uploaded debug-file zip: the slices of its dSYM bundles (iOS)
 * or its ProGuard mapping files (Android) or the ELF files it holds (Linux, each extracted next to
 * the archive: see `extractedPath`; also from a `.tar` or `.tar.gz`); or an ELF debug file or binary sent as it is (Linux). Anything that is not such an archive — including
 * damaged, hostile or truncated ones — is a DebugFileParseError; I/O errors of the server pass
 * through unchanged.
 */
export async function parseDebugFile(zipPath: string, limits: Partial<DebugFileLimits> = {}): Promise<ParsedDebugFile> {
  const start = await head(zipPath);
  if (isElf(start)) return parseElfFile(zipPath);
  if (isBreakpad(start)) return parseBreakpadFile(zipPath);
  if (start.length === 8 && start.equals(MSF_MAGIC.subarray(0, 8))) return parsePdbFile(zipPath);
  if (isPe(start)) return parsePeFile(zipPath);
  // One folder for the members extracted from this archive, made only when the first one is.
  let extracted: Promise<string> | undefined;
  const extractDir = () => (extracted ??= mkdtemp(join(dirname(zipPath), 'members-')));
  const tar = isZipMagic(start) ? undefined : await tarCompressionOf(zipPath, start);
  if (tar) return parseElfTar(zipPath, tar, { ...DEFAULT_DEBUG_FILE_LIMITS, ...limits }, extractDir);
  const zip = await ZipEntries.open(zipPath, { ...DEFAULT_DEBUG_FILE_LIMITS, ...limits });
  try {
    const bundles = findDsymBundles(zip.files);
    const proguardFiles = findProguardFiles(zip.files);
    // Guessing which half the uploader meant would attach symbols to the wrong platform.
    if (bundles.length > 0 && proguardFiles.length > 0) {
      throw new DebugFileParseError('the archive holds both dSYM bundles and a mapping.txt; upload them separately');
    }
    if (bundles.length > 0) return await parseDsymArchive(zip, bundles, extractDir);
    if (proguardFiles.length > 0) return await parseProguardArchive(zip, proguardFiles);
    const elf = await parseElfArchive(zip, extractDir);
    if (elf) return elf;
    throw new DebugFileParseError('found neither .dSYM/Contents/Resources/DWARF/* nor mapping.txt nor an ELF file');
  } finally {
    await zip.close();
  }
}

/** A zip's local-header or end-record magic: never read as a tar. */
const isZipMagic = (start: Buffer) => start[0] === 0x50 && start[1] === 0x4b;

async function head(filePath: string): Promise<Buffer> {
  const fd = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(8);
    const { bytesRead } = await fd.read(buffer, 0, 8, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await fd.close();
  }
}

/**
 * One ELF file: a separate `.debug` file, or an unstripped (or stripped) binary. Its one entry
 * carries the GNU build-id as its uuid, which is what debuginfod clients ask by.
 */
async function parseElfFile(filePath: string): Promise<ParsedDebugFile> {
  const elf = await readElfIdentity(filePath);
  const { size } = await stat(filePath);
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
async function parseBreakpadFile(filePath: string): Promise<ParsedDebugFile> {
  const module = await readBreakpadModule(filePath);
  const deviceType = BREAKPAD_SYSTEMS[module.os];
  if (!deviceType) throw new DebugFileParseError(`a Breakpad symbol file for ${module.os}, which Hangar has no channels for`);
  const { size } = await stat(filePath);
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
async function parsePdbFile(filePath: string): Promise<ParsedDebugFile> {
  const pdb = await readPdbIdentity(filePath);
  const { size } = await stat(filePath);
  return {
    kind: 'pdb',
    deviceType: 'windows',
    entries: [{ uuid: pdb.symbolServerId, type: 'pdb', object: '', size, data: { guid: pdb.guid, age: pdb.age, symbol_server_id: pdb.symbolServerId } }],
  };
}

/** One PE image (exe, dll): its entry's uuid is the code id Microsoft symbol servers file it under. */
async function parsePeFile(filePath: string): Promise<ParsedDebugFile> {
  const pe = await readPeCodeId(filePath);
  const { size } = await stat(filePath);
  return {
    kind: 'pe',
    deviceType: 'windows',
    entries: [{ uuid: pe.codeId, type: pe.machine, object: '', size, data: { code_id: pe.codeId, time_date_stamp: pe.timeDateStamp, size_of_image: pe.sizeOfImage } }],
  };
}
