import type { ByteSource } from '../packages/byte-source';
import { DebugFileParseError } from './debug-file-parse.error';
import type { DebugMemberStore, DebugSymbolEntry, ParsedDebugFile } from './debug-file.types';
import { isElf, readElfIdentity } from './elf.reader';
import { baseName, type ZipEntries, type ZipEntry } from './zip-entries';

/** A Linux build's symbols are a handful of binaries and libraries; more is not a build's symbols. */
export const MAX_ELF_MEMBERS = 256;
/** The smallest ELF header (32-bit); shorter members are not looked into at all. */
export const ELF_HEADER_BYTES = 52;

/**
 * The ELF files of a zip (a Linux build's `.debug` files and binaries, packed together), each
 * streamed into the member store as it inflates and its identity then read from there by
 * position: debuginfod clients ask for one file by its build-id, not for the archive. Returns
 * undefined when the zip holds no ELF file (the store is never asked for). Members too small to
 * be ELF are never opened, so a zip of thousands of tiny files costs one look at its directory.
 */
export async function parseElfArchive(zip: ZipEntries, store: () => DebugMemberStore): Promise<ParsedDebugFile | undefined> {
  // Which members are ELF, from their first bytes only; too many is refused before anything is stored.
  const members: ZipEntry[] = [];
  for (const member of zip.files) {
    if (member.uncompressedSize < ELF_HEADER_BYTES || !isElf(await zip.head(member, 4))) continue;
    if (members.length >= MAX_ELF_MEMBERS) throw new DebugFileParseError(`the archive holds more than ${MAX_ELF_MEMBERS} ELF files; upload a build's symbols per archive`);
    members.push(member);
  }
  const entries: DebugSymbolEntry[] = [];
  for (const member of members) {
    const index = entries.length;
    // The zip reader says what is wrong with a member (DebugFileParseError); the store's failures are the server's.
    await store().put(index, zip.chunks(member));
    entries.push(await storedElfEntry(store(), index, member.name, member.uncompressedSize));
  }
  return entries.length > 0 ? { kind: 'elf', deviceType: 'linux', entries } : undefined;
}

/**
 * The entry of one ELF member of an archive (zip or tar), read by position from where it was
 * stored. Its own name in the archive is the object: what a client fetching it by build-id is handed.
 */
export async function storedElfEntry(store: DebugMemberStore, index: number, name: string, size: number): Promise<DebugSymbolEntry> {
  const stored: ByteSource = await store.open(index);
  try {
    const elf = await readElfIdentity(stored);
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
      stored: true,
    };
  } finally {
    await stored.close();
  }
}
