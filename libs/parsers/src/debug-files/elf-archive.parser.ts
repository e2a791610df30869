import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { DebugFileParseError, isSystemError } from './debug-file-parse.error';
import type { DebugSymbolEntry, ParsedDebugFile } from './debug-file.types';
import { isElf, readElfIdentity } from './elf.reader';
import { baseName, type ZipEntries, type ZipEntry } from './zip-entries';

/** A Linux build's symbols are a handful of binaries and libraries; more is not a build's symbols. */
export const MAX_ELF_MEMBERS = 256;
/** The smallest ELF header (32-bit); shorter members are not looked into at all. */
export const ELF_HEADER_BYTES = 52;

/**
 * The ELF files of a zip (a Linux build's `.debug` files and binaries, packed together), each
 * extracted into the folder `extractDir` makes (once, at the first one), so it can be read by
 * position and stored on its own: debuginfod clients ask for one file by its build-id, not for
 * the archive. Returns undefined when the zip
 * holds no ELF file. Members too small to be ELF are never opened, so a zip of thousands of tiny
 * files costs one look at its central directory.
 */
export async function parseElfArchive(zip: ZipEntries, extractDir: () => Promise<string>): Promise<ParsedDebugFile | undefined> {
  // Which members are ELF, from their first bytes only; too many is refused before anything is extracted.
  const members: ZipEntry[] = [];
  for (const member of zip.files) {
    if (member.uncompressedSize < ELF_HEADER_BYTES || !isElf(await zip.head(member, 4))) continue;
    if (members.length >= MAX_ELF_MEMBERS) throw new DebugFileParseError(`the archive holds more than ${MAX_ELF_MEMBERS} ELF files; upload a build's symbols per archive`);
    members.push(member);
  }
  const entries: DebugSymbolEntry[] = [];
  let dir: string | undefined;
  for (const member of members) {
    dir ??= await extractDir();
    const path = join(dir, `member-${entries.length}`);
    try {
      await pipeline(zip.chunks(member), createWriteStream(path));
    } catch (error) {
      // The server's own disk failing is not a bad upload.
      if (error instanceof DebugFileParseError || isSystemError(error)) throw error;
      throw new DebugFileParseError(`cannot read ${member.name}`, { cause: error });
    }
    entries.push(await elfMemberEntry(member.name, path, member.uncompressedSize));
  }
  return entries.length > 0 ? { kind: 'elf', deviceType: 'linux', entries } : undefined;
}

/**
 * The entry of one ELF member of an archive (zip or tar), read from where it was extracted. Its own
 * name in the archive is the object: what a client fetching it by build-id is handed.
 */
export async function elfMemberEntry(name: string, extractedPath: string, size: number): Promise<DebugSymbolEntry> {
  const elf = await readElfIdentity(extractedPath);
  return {
    uuid: elf.buildId,
    type: elf.arch,
    object: baseName(name),
    size,
    data: {
      build_id: elf.buildId,
      elf_type: elf.elfType,
      has_debug_info: elf.hasDebugInfo,
      has_code: elf.hasCode,
      path: name,
      ...(elf.debugLink ? { debug_link: elf.debugLink } : {}),
    },
    extractedPath,
  };
}
