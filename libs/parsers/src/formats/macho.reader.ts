import { cpuLabel } from './macho-cpu.labels';
import type { ByteReader } from '../packages/byte-source';
import { FormatError } from './format.error';

// One reader of Mach-O headers (thin or universal, either byte order, 32- or 64-bit) for both
// callers: the architectures of an app's executable, and the LC_UUID of every slice of a dSYM.

/** One architecture of a Mach-O file, named as Xcode and symbolicators name it. */
export interface MachOArch {
  arch: string;
  cpuType: number;
  cpuSubtype: number;
}

export interface MachOSlice extends MachOArch {
  /** Lowercase 8-4-4-4-12 form of LC_UUID. */
  uuid: string;
  /** Offset of the slice inside the file (0 for a thin file). */
  offset: number;
  size: number;
}

export class MachOFormatError extends FormatError {}

// Values from <mach-o/fat.h> and <mach-o/loader.h>; magics as read big-endian.
const FAT_MAGIC = 0xcafebabe;
const FAT_MAGIC_64 = 0xcafebabf;
const FAT_HEADER_SIZE = 8;
const FAT_ARCH_SIZE = 20;
const FAT_ARCH_64_SIZE = 32;
const MH_MAGIC = 0xfeedface;
const MH_MAGIC_64 = 0xfeedfacf;
const MH_CIGAM = 0xcefaedfe;
const MH_CIGAM_64 = 0xcffaedfe;
const MACH_HEADER_SIZE = 28;
const MACH_HEADER_64_SIZE = 32;
const LC_SEGMENT = 0x1;
const LC_SEGMENT_64 = 0x19;
const LC_UUID = 0x1b;
const SEGMENT_COMMAND_SIZE = 56;
const SEGMENT_64_COMMAND_SIZE = 72;

// Real universal files carry a handful of slices. Java class files share 0xcafebabe and hold their
// version where the slice count would be, 45 (JDK 1.1) and up: a cap below that refuses every
// class file, and bounds the table a hostile header could make us read.
const MAX_FAT_ARCHS = 32;
// Load commands of real binaries are a few KB; the cap bounds the one buffer a hostile header could ask for.
const MAX_LOAD_COMMANDS_BYTES = 16 * 1024 * 1024;

/** Enough of a file for `machoArchitectures`: the largest universal table the reader accepts. */
export const MACHO_HEAD_BYTES = FAT_HEADER_SIZE + FAT_ARCH_64_SIZE * MAX_FAT_ARCHS;

interface ByteOrder {
  u32(buffer: Buffer, at: number): number;
  i32(buffer: Buffer, at: number): number;
  u64(buffer: Buffer, at: number): number;
}

const BIG_ENDIAN: ByteOrder = {
  u32: (buffer, at) => buffer.readUInt32BE(at),
  i32: (buffer, at) => buffer.readInt32BE(at),
  u64: (buffer, at) => safeNumber(buffer.readBigUInt64BE(at)),
};

const LITTLE_ENDIAN: ByteOrder = {
  u32: (buffer, at) => buffer.readUInt32LE(at),
  i32: (buffer, at) => buffer.readInt32LE(at),
  u64: (buffer, at) => safeNumber(buffer.readBigUInt64LE(at)),
};

interface FatArch extends MachOArch {
  offset: number;
  size: number;
}

interface MachHeader extends MachOArch {
  order: ByteOrder;
  /** Where the load commands start, relative to the slice. */
  headerSize: number;
  commandCount: number;
  commandsSize: number;
}

/**
 * The architectures an app's executable is built for, from its first MACHO_HEAD_BYTES bytes. A
 * head that is no Mach-O header (a script, a Java class, a damaged file) has none: the package is
 * still worth describing without them.
 */
export async function machoArchitectures(head: Buffer): Promise<string[]> {
  const source: ByteReader = { read: async (offset, length) => head.subarray(offset, offset + length) };
  try {
    const archs = (await readFatArchs(source, head.length)) ?? [await readMachHeader(source, 0, head.length)];
    return archs.map((arch) => arch.arch);
  } catch (error) {
    if (error instanceof MachOFormatError) return [];
    throw error;
  }
}

/**
 * Reads the UUID and architecture of every slice of a Mach-O file (thin or universal) from its
 * headers and load commands only. Offsets are visited in increasing order so a forward-only
 * stream suffices. Anything inconsistent with `fileSize` is reported as truncation.
 */
export async function readMachOSlices(source: ByteReader, fileSize: number): Promise<MachOSlice[]> {
  const archs = await readFatArchs(source, fileSize);
  if (!archs) return [await readSlice(source, 0, fileSize)];
  for (const arch of archs) {
    if (arch.offset + arch.size > fileSize) {
      throw new MachOFormatError(`truncated: the ${arch.arch} slice spans bytes ${arch.offset}..${arch.offset + arch.size} of a ${fileSize}-byte file`);
    }
  }
  const inFileOrder = [...archs].sort((a, b) => a.offset - b.offset);
  const slices = new Map<FatArch, MachOSlice>();
  let previousEnd = 0;
  for (const arch of inFileOrder) {
    if (arch.offset < previousEnd) throw new MachOFormatError('universal slices overlap');
    previousEnd = arch.offset + arch.size;
    slices.set(arch, await readSlice(source, arch.offset, arch.size));
  }
  // Report slices in the order the universal header lists them, as lipo and dwarfdump do.
  return archs.map((arch) => slices.get(arch)!);
}

/** The universal header's slices in the order it lists them; undefined for a thin file. */
async function readFatArchs(source: ByteReader, fileSize: number): Promise<FatArch[] | undefined> {
  const magic = (await readWithin(source, fileSize, 0, 4)).readUInt32BE(0);
  if (magic !== FAT_MAGIC && magic !== FAT_MAGIC_64) return undefined;
  const count = (await readWithin(source, fileSize, 4, 4)).readUInt32BE(0);
  if (count === 0 || count > MAX_FAT_ARCHS) {
    throw new MachOFormatError(`universal header lists ${count} architectures`);
  }
  const is64 = magic === FAT_MAGIC_64;
  const archSize = is64 ? FAT_ARCH_64_SIZE : FAT_ARCH_SIZE;
  const table = await readWithin(source, fileSize, FAT_HEADER_SIZE, count * archSize);
  const archs: FatArch[] = [];
  for (let at = 0; at < table.length; at += archSize) {
    const cpuType = BIG_ENDIAN.i32(table, at);
    const cpuSubtype = BIG_ENDIAN.i32(table, at + 4);
    const offset = is64 ? BIG_ENDIAN.u64(table, at + 8) : BIG_ENDIAN.u32(table, at + 8);
    const size = is64 ? BIG_ENDIAN.u64(table, at + 16) : BIG_ENDIAN.u32(table, at + 12);
    if (offset < FAT_HEADER_SIZE + table.length) {
      throw new MachOFormatError(`a slice starts at ${offset}, inside the universal header`);
    }
    archs.push({ arch: cpuLabel(cpuType, cpuSubtype), cpuType, cpuSubtype, offset, size });
  }
  return archs;
}

async function readMachHeader(source: ByteReader, offset: number, size: number): Promise<MachHeader> {
  if (size < MACH_HEADER_SIZE) throw new MachOFormatError(`truncated: a ${size}-byte slice cannot hold a Mach-O header`);
  const header = await source.read(offset, MACH_HEADER_SIZE);
  const magic = header.readUInt32BE(0);
  const is64 = magic === MH_MAGIC_64 || magic === MH_CIGAM_64;
  if (!is64 && magic !== MH_MAGIC && magic !== MH_CIGAM) {
    throw new MachOFormatError(`not a Mach-O file (magic 0x${magic.toString(16).padStart(8, '0')})`);
  }
  const order = magic === MH_CIGAM || magic === MH_CIGAM_64 ? LITTLE_ENDIAN : BIG_ENDIAN;
  const cpuType = order.i32(header, 4);
  const cpuSubtype = order.i32(header, 8);
  return {
    arch: cpuLabel(cpuType, cpuSubtype),
    cpuType,
    cpuSubtype,
    order,
    headerSize: is64 ? MACH_HEADER_64_SIZE : MACH_HEADER_SIZE,
    commandCount: order.u32(header, 16),
    commandsSize: order.u32(header, 20),
  };
}

async function readSlice(source: ByteReader, offset: number, size: number): Promise<MachOSlice> {
  const { arch, cpuType, cpuSubtype, order, headerSize, commandCount, commandsSize } = await readMachHeader(source, offset, size);
  if (commandsSize > MAX_LOAD_COMMANDS_BYTES) {
    throw new MachOFormatError(`load commands claim ${commandsSize} bytes`);
  }
  if (headerSize + commandsSize > size) {
    throw new MachOFormatError(`truncated: the ${arch} load commands end at ${headerSize + commandsSize} in a ${size}-byte slice`);
  }
  const commands = await source.read(offset + headerSize, commandsSize);

  let uuid: string | undefined;
  let at = 0;
  for (let i = 0; i < commandCount; i++) {
    if (at + 8 > commandsSize) throw new MachOFormatError(`load command ${i} lies outside the load command area`);
    const cmd = order.u32(commands, at);
    const cmdSize = order.u32(commands, at + 4);
    if (cmdSize < 8 || at + cmdSize > commandsSize) {
      throw new MachOFormatError(`load command ${i} has an impossible size ${cmdSize}`);
    }
    const command = commands.subarray(at, at + cmdSize);
    if (cmd === LC_UUID && cmdSize >= 24) {
      uuid = formatUuid(command.subarray(8, 24));
    } else if (cmd === LC_SEGMENT || cmd === LC_SEGMENT_64) {
      checkSegmentFits(command, cmd === LC_SEGMENT_64, order, size);
    }
    at += cmdSize;
  }
  if (!uuid) throw new MachOFormatError(`the ${arch} slice has no LC_UUID`);
  return { arch, cpuType, cpuSubtype, uuid, offset, size };
}

// A thin file cut after its load commands still has a valid header; its segments, which say where
// their bytes live, are what reveal the missing tail (the DWARF data).
function checkSegmentFits(command: Buffer, is64: boolean, order: ByteOrder, sliceSize: number): void {
  if (command.length < (is64 ? SEGMENT_64_COMMAND_SIZE : SEGMENT_COMMAND_SIZE)) {
    throw new MachOFormatError('segment load command is too short');
  }
  const name = command.subarray(8, 24).toString('latin1').replace(/\0.*$/s, '');
  const fileOffset = is64 ? order.u64(command, 40) : order.u32(command, 32);
  const fileSize = is64 ? order.u64(command, 48) : order.u32(command, 36);
  if (fileSize > 0 && fileOffset + fileSize > sliceSize) {
    throw new MachOFormatError(`truncated: segment ${name} needs bytes up to ${fileOffset + fileSize} of a ${sliceSize}-byte slice`);
  }
}

// The source is never asked past the size the caller vouches for: a zip member's stream, or an
// executable's head, would otherwise report the cut in its own terms, or not at all.
async function readWithin(source: ByteReader, fileSize: number, offset: number, length: number): Promise<Buffer> {
  if (offset + length > fileSize) throw new MachOFormatError(`truncated: needed bytes ${offset}..${offset + length} of a ${fileSize}-byte file`);
  return source.read(offset, length);
}

function formatUuid(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function safeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new MachOFormatError(`offset ${value} is out of range`);
  return Number(value);
}
