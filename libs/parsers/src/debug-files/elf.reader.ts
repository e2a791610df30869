import type { ByteSource } from '../packages/byte-source';
import { DebugFileParseError } from './debug-file-parse.error';
import { type DebugFileReader, withDebugFile } from './debug-source';

/** What a debuginfod client asks for by GNU build-id, and what Hangar lists for the file. */
export interface ElfIdentity {
  /** NT_GNU_BUILD_ID, lowercase hex (20 bytes with ld's default sha1; 8..64 accepted). */
  buildId: string;
  /** e_machine as the toolchains name it (x86_64, aarch64, …). */
  arch: string;
  /** e_type: exec, dyn (PIE or shared object), rel, core. */
  elfType: string;
  /** A .debug_info section with bytes: gdb can read symbols and lines from this file. */
  hasDebugInfo: boolean;
  /** A .text section with bytes (a `--only-keep-debug` file has it as NOBITS). */
  hasCode: boolean;
  /** From .gnu_debuglink, when the binary names a separate debug file. */
  debugLink?: string;
}

export const ELF_MAGIC = Buffer.from([0x7f, 0x45, 0x4c, 0x46]);

const MACHINES: Record<number, string> = { 3: 'x86', 8: 'mips', 20: 'ppc', 21: 'ppc64', 22: 's390x', 40: 'arm', 62: 'x86_64', 183: 'aarch64', 243: 'riscv64' };
const TYPES: Record<number, string> = { 1: 'rel', 2: 'exec', 3: 'dyn', 4: 'core' };
const SHT_NOBITS = 8;
const SHT_NOTE = 7;
const NT_GNU_BUILD_ID = 3;
// Far above any real binary; a header claiming more is hostile and would make us read forever.
const MAX_SECTIONS = 65_280;
const MAX_NOTE_SECTION_BYTES = 1 << 20;
const MAX_SHSTRTAB_BYTES = 4 << 20;
// Real files have a handful of note sections; a crafted one could list thousands to keep us reading.
const MAX_NOTE_SECTIONS = 64;

/** Whether the first bytes of a file are the ELF magic. */
export function isElf(head: Buffer): boolean {
  return head.length >= 4 && head.subarray(0, 4).equals(ELF_MAGIC);
}

/**
 * Reads an ELF file's identity from its header, section table, note sections and section names
 * only — a few kilobytes by position, whatever the file's size (debug files reach gigabytes): from
 * a local file or a stored object read by range alike.
 * Without a GNU build-id the file cannot be found by a debugger: a parse error that says so.
 */
export function readElfIdentity(file: string | ByteSource): Promise<ElfIdentity> {
  return withDebugFile(file, 'ELF file', readIdentity);
}

async function readIdentity(file: DebugFileReader): Promise<ElfIdentity> {
  const ident = await file.read(0, 16, 'e_ident');
  if (!isElf(ident)) throw new DebugFileParseError('not an ELF file');
  const is64 = ident[4] === 2;
  if (ident[4] !== 1 && !is64) throw new DebugFileParseError(`unknown ELF class ${ident[4]}`);
  if (ident[5] !== 1 && ident[5] !== 2) throw new DebugFileParseError(`unknown ELF data encoding ${ident[5]}`);
  const le = ident[5] === 1;
  const header = await file.read(0, is64 ? 64 : 52, 'the ELF header');
  const u16 = (b: Buffer, o: number) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
  const u32 = (b: Buffer, o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
  const addr = (b: Buffer, o: number) => (is64 ? Number(le ? b.readBigUInt64LE(o) : b.readBigUInt64BE(o)) : u32(b, o));

  const eType = u16(header, 16);
  const machine = u16(header, 18);
  const shoff = addr(header, is64 ? 40 : 32);
  const shentsize = u16(header, is64 ? 58 : 46);
  let shnum = u16(header, is64 ? 60 : 48);
  let shstrndx = u16(header, is64 ? 62 : 50);
  if (shoff === 0) throw new DebugFileParseError('the ELF file has no section headers, so no build-id note can be found');
  if (shentsize < (is64 ? 64 : 40)) throw new DebugFileParseError(`ELF section header entries of ${shentsize} bytes are too small`);
  // Extended numbering: the real counts live in section 0 (gABI).
  if (shnum === 0 || shstrndx === 0xffff) {
    const first = await file.read(shoff, shentsize, 'section header 0');
    if (shnum === 0) shnum = is64 ? Number(le ? first.readBigUInt64LE(32) : first.readBigUInt64BE(32)) : u32(first, 20);
    if (shstrndx === 0xffff) shstrndx = u32(first, is64 ? 40 : 24);
  }
  if (shnum > MAX_SECTIONS) throw new DebugFileParseError(`the ELF file claims ${shnum} sections`);
  const table = await file.read(shoff, shnum * shentsize, 'the section header table');

  interface Section {
    name: number;
    type: number;
    offset: number;
    size: number;
  }
  const sections: Section[] = [];
  for (let i = 0; i < shnum; i++) {
    const o = i * shentsize;
    sections.push(
      is64
        ? { name: u32(table, o), type: u32(table, o + 4), offset: addr(table, o + 24), size: addr(table, o + 32) }
        : { name: u32(table, o), type: u32(table, o + 4), offset: u32(table, o + 16), size: u32(table, o + 20) },
    );
  }

  const strtab = sections[shstrndx];
  let names: Buffer | undefined;
  if (strtab && strtab.type !== SHT_NOBITS && strtab.size <= MAX_SHSTRTAB_BYTES) names = await file.read(strtab.offset, strtab.size, 'the section names');
  const nameOf = (s: Section) => {
    if (!names || s.name >= names.length) return '';
    const end = names.indexOf(0, s.name);
    return names.toString('latin1', s.name, end < 0 ? names.length : end);
  };

  let buildId: string | undefined;
  let debugLink: string | undefined;
  let hasDebugInfo = false;
  let hasCode = false;
  let notesRead = 0;
  for (const section of sections) {
    const name = nameOf(section);
    const withBytes = section.type !== SHT_NOBITS && section.size > 0;
    if (name === '.debug_info' && withBytes) hasDebugInfo = true;
    if (name === '.text' && withBytes) hasCode = true;
    if (name === '.gnu_debuglink' && withBytes && section.size <= 4096) {
      const link = await file.read(section.offset, section.size, '.gnu_debuglink');
      const end = link.indexOf(0);
      debugLink = link.toString('utf8', 0, end < 0 ? link.length : end) || undefined;
    }
    if (section.type === SHT_NOTE && !buildId) {
      if (section.size > MAX_NOTE_SECTION_BYTES || ++notesRead > MAX_NOTE_SECTIONS) continue;
      buildId = findBuildId(await file.read(section.offset, section.size, `note section ${name || '?'}`), u32);
    }
  }
  if (!buildId) throw new DebugFileParseError('the ELF file has no GNU build-id note (link it with -Wl,--build-id)');
  return { buildId, arch: MACHINES[machine] ?? `machine-${machine}`, elfType: TYPES[eType] ?? `type-${eType}`, hasDebugInfo, hasCode, debugLink };
}

function findBuildId(notes: Buffer, u32: (b: Buffer, o: number) => number): string | undefined {
  let o = 0;
  const align4 = (n: number) => (n + 3) & ~3;
  while (o + 12 <= notes.length) {
    const namesz = u32(notes, o);
    const descsz = u32(notes, o + 4);
    const type = u32(notes, o + 8);
    const nameStart = o + 12;
    const descStart = nameStart + align4(namesz);
    const next = descStart + align4(descsz);
    if (namesz > notes.length || descsz > notes.length || descStart + descsz > notes.length) {
      throw new DebugFileParseError('truncated ELF note');
    }
    const name = notes.toString('latin1', nameStart, nameStart + Math.max(0, namesz - 1));
    if (name === 'GNU' && type === NT_GNU_BUILD_ID) {
      if (descsz < 8 || descsz > 64) throw new DebugFileParseError(`a GNU build-id of ${descsz} bytes (expected 8 to 64)`);
      return notes.toString('hex', descStart, descStart + descsz);
    }
    o = next;
  }
  return undefined;
}
