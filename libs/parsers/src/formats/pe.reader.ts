import type { ByteReader } from '../packages/byte-source';
import { FormatError } from './format.error';

// One reader of PE headers and section tables (Microsoft's "PE Format") for both callers: an
// installer's resources (packages) and an image's code id on a symbol server (debug files).

const DOS_HEADER_SIZE = 64;
const PE_OFFSET_AT = 0x3c;
// 'PE\0\0' and the COFF file header.
const PE_HEADERS_SIZE = 24;
const PE32 = 0x10b;
const PE32_PLUS = 0x20b;
// At the same place in PE32 and PE32+; an optional header shorter than this describes no image.
const SIZE_OF_IMAGE_AT = 56;
const SECTION_HEADER_SIZE = 40;
// The Windows loader refuses more; the cap bounds the table a hostile header could make us read.
const MAX_SECTIONS = 96;

export class PeFormatError extends FormatError {}

export interface PeHeaders {
  /** IMAGE_FILE_MACHINE_*; each caller names it its own way (package details, symbol servers). */
  machine: number;
  timeDateStamp: number;
  sizeOfImage: number;
  sectionCount: number;
  /** Right after the optional header, whatever size it declares. */
  sectionTableOffset: number;
  /** RVA of data directory `index` (2 is the resources), 0 when the image has none. */
  directoryRva(index: number): number;
}

export interface PeSection {
  virtualAddress: number;
  virtualSize: number;
  rawSize: number;
  rawOffset: number;
}

export function isPe(head: Buffer): boolean {
  return head.length >= 2 && head[0] === 0x4d && head[1] === 0x5a;
}

/** The COFF and optional headers: a few hundred bytes by position, whatever the file's size. */
export async function readPeHeaders(file: ByteReader, fileSize: number): Promise<PeHeaders> {
  const dos = await readWithin(file, fileSize, 0, DOS_HEADER_SIZE, 'the DOS header');
  if (!isPe(dos)) throw new PeFormatError('not a PE file');
  const peOffset = dos.readUInt32LE(PE_OFFSET_AT);
  const coff = await readWithin(file, fileSize, peOffset, PE_HEADERS_SIZE, 'the PE headers');
  if (coff.toString('latin1', 0, 4) !== 'PE\0\0') throw new PeFormatError('an MZ file without a PE signature');
  const optionalSize = coff.readUInt16LE(20);
  const optional = await readWithin(file, fileSize, peOffset + PE_HEADERS_SIZE, optionalSize, 'the optional header');
  const magic = optionalSize >= 2 ? optional.readUInt16LE(0) : 0;
  if (optionalSize < SIZE_OF_IMAGE_AT + 4 || (magic !== PE32 && magic !== PE32_PLUS)) {
    throw new PeFormatError('a PE file without an image optional header');
  }
  const directoriesAt = magic === PE32_PLUS ? 112 : 96;
  const directoryCount = optional.length >= directoriesAt ? optional.readUInt32LE(directoriesAt - 4) : 0;
  return {
    machine: coff.readUInt16LE(4),
    timeDateStamp: coff.readUInt32LE(8),
    sizeOfImage: optional.readUInt32LE(SIZE_OF_IMAGE_AT),
    sectionCount: coff.readUInt16LE(6),
    sectionTableOffset: peOffset + PE_HEADERS_SIZE + optionalSize,
    directoryRva: (index) => {
      const at = directoriesAt + 8 * index;
      return index < directoryCount && at + 8 <= optional.length ? optional.readUInt32LE(at) : 0;
    },
  };
}

export async function readPeSections(file: ByteReader, fileSize: number, headers: PeHeaders): Promise<PeSection[]> {
  const count = headers.sectionCount;
  if (count > MAX_SECTIONS) throw new PeFormatError(`${count} sections is not a real executable`);
  const table = await readWithin(file, fileSize, headers.sectionTableOffset, count * SECTION_HEADER_SIZE, 'the section table');
  const sections: PeSection[] = [];
  for (let at = 0; at < table.length; at += SECTION_HEADER_SIZE) {
    sections.push({
      virtualSize: table.readUInt32LE(at + 8),
      virtualAddress: table.readUInt32LE(at + 12),
      rawSize: table.readUInt32LE(at + 16),
      rawOffset: table.readUInt32LE(at + 20),
    });
  }
  return sections;
}

// Checked here rather than left to the source, so a cut file reads the same from either caller.
async function readWithin(file: ByteReader, fileSize: number, offset: number, length: number, what: string): Promise<Buffer> {
  if (offset + length > fileSize) {
    throw new PeFormatError(`truncated PE file: no room for ${what} (${length} bytes at ${offset}) in its ${fileSize} bytes`);
  }
  return file.read(offset, length);
}
