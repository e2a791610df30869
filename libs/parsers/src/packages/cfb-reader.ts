import { PackageParseError } from './package.errors';
import { utf16le } from './utf16';
import type { PositionalReader } from './byte-source';

const END_OF_CHAIN = 0xfffffffe;
const FREE_SECTOR = 0xffffffff;
const HEADER_DIFAT_ENTRIES = 109;
const DIR_ENTRY_SIZE = 128;

export interface CfbEntry {
  name: string;
  type: number;
  clsid: string;
  start: number;
  size: number;
}

/**
 * A reader for OLE compound files (the container of .msi) that follows sector chains with
 * positional reads, so an installer's embedded cabinets are never loaded.
 */
export class CfbFile {
  private constructor(
    private readonly file: PositionalReader,
    private readonly sectorSize: number,
    private readonly miniSectorSize: number,
    private readonly miniCutoff: number,
    private readonly fat: Uint32Array,
    private readonly miniFat: Uint32Array,
    readonly entries: CfbEntry[],
    private readonly maxStreamSize: number,
  ) {}

  static async open(file: PositionalReader, maxStreamSize: number): Promise<CfbFile> {
    const header = await file.read(0, 512);
    const sectorSize = 1 << header.readUInt16LE(0x1e);
    const miniSectorSize = 1 << header.readUInt16LE(0x20);
    if (sectorSize !== 512 && sectorSize !== 4096) throw new PackageParseError('msi: unsupported compound-file sector size');
    const fatSectorCount = header.readUInt32LE(0x2c);
    const totalSectors = Math.ceil(file.size / sectorSize);
    if (fatSectorCount * sectorSize > maxStreamSize || fatSectorCount > totalSectors) throw new PackageParseError('msi: allocation table larger than the file');

    const fatSectorIds: number[] = [];
    for (let i = 0; i < HEADER_DIFAT_ENTRIES && fatSectorIds.length < fatSectorCount; i++) fatSectorIds.push(header.readUInt32LE(0x4c + i * 4));
    let difatSector = header.readUInt32LE(0x44);
    let guard = 0;
    while (fatSectorIds.length < fatSectorCount && difatSector !== END_OF_CHAIN && difatSector !== FREE_SECTOR) {
      if (++guard > totalSectors) throw new PackageParseError('msi: DIFAT chain loops');
      const sector = await file.read(sectorOffset(difatSector, sectorSize), sectorSize);
      for (let i = 0; i < sectorSize / 4 - 1 && fatSectorIds.length < fatSectorCount; i++) fatSectorIds.push(sector.readUInt32LE(i * 4));
      difatSector = sector.readUInt32LE(sectorSize - 4);
    }
    const fat = new Uint32Array(fatSectorIds.length * (sectorSize / 4));
    for (const [index, id] of fatSectorIds.entries()) {
      const sector = await file.read(sectorOffset(id, sectorSize), sectorSize);
      for (let i = 0; i < sectorSize / 4; i++) fat[index * (sectorSize / 4) + i] = sector.readUInt32LE(i * 4);
    }

    const reader = new CfbFile(file, sectorSize, miniSectorSize, header.readUInt32LE(0x38), fat, new Uint32Array(0), [], maxStreamSize);
    const directory = await reader.readChain(header.readUInt32LE(0x30), Number.MAX_SAFE_INTEGER);
    const entries: CfbEntry[] = [];
    for (let offset = 0; offset + DIR_ENTRY_SIZE <= directory.length; offset += DIR_ENTRY_SIZE) {
      const nameLength = directory.readUInt16LE(offset + 64);
      const type = directory.readUInt8(offset + 66);
      if (type === 0) continue;
      entries.push({
        name: utf16le(directory, offset, offset + Math.max(0, Math.min(64, nameLength) - 2)),
        type,
        clsid: guid(directory.subarray(offset + 80, offset + 96)),
        start: directory.readUInt32LE(offset + 116),
        size: directory.readUInt32LE(offset + 120),
      });
    }
    const miniFatBytes = await reader.readChain(header.readUInt32LE(0x3c), header.readUInt32LE(0x40) * sectorSize);
    const miniFat = new Uint32Array(miniFatBytes.length / 4);
    for (let i = 0; i < miniFat.length; i++) miniFat[i] = miniFatBytes.readUInt32LE(i * 4);
    return new CfbFile(file, sectorSize, miniSectorSize, reader.miniCutoff, fat, miniFat, entries, maxStreamSize);
  }

  get root(): CfbEntry | undefined {
    return this.entries.find((entry) => entry.type === 5);
  }

  async readStream(entry: CfbEntry): Promise<Buffer> {
    if (entry.size > this.maxStreamSize) throw new PackageParseError(`msi: stream of ${entry.size} bytes is above the ${this.maxStreamSize}-byte limit`);
    if (entry.size >= this.miniCutoff) return (await this.readChain(entry.start, entry.size)).subarray(0, entry.size);
    const root = this.root;
    if (!root) throw new PackageParseError('msi: no root storage');
    // Small streams live in the mini stream, itself a regular stream owned by the root entry.
    const miniStream = await this.readChain(root.start, root.size);
    const out = Buffer.alloc(entry.size);
    let sector = entry.start;
    for (let written = 0, steps = 0; written < entry.size; written += this.miniSectorSize, steps++) {
      if (sector >= this.miniFat.length || steps > this.miniFat.length) throw new PackageParseError('msi: broken mini sector chain');
      const from = sector * this.miniSectorSize;
      miniStream.copy(out, written, from, from + Math.min(this.miniSectorSize, entry.size - written));
      sector = this.miniFat[sector] as number;
    }
    return out;
  }

  private async readChain(start: number, maxBytes: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    let sector = start;
    let total = 0;
    while (sector !== END_OF_CHAIN && sector !== FREE_SECTOR && total < maxBytes) {
      if (sector >= this.fat.length) throw new PackageParseError('msi: sector chain points past the allocation table');
      if (parts.length > this.fat.length) throw new PackageParseError('msi: sector chain loops');
      parts.push(await this.file.read(sectorOffset(sector, this.sectorSize), this.sectorSize));
      total += this.sectorSize;
      if (total > this.maxStreamSize + this.sectorSize) throw new PackageParseError('msi: stream larger than the limit');
      sector = this.fat[sector] as number;
    }
    return Buffer.concat(parts);
  }
}

/** The root storage's class id, read from the first directory sector only (for cheap sniffing). */
export async function readRootClsid(file: PositionalReader): Promise<string | undefined> {
  const header = await file.read(0, 512);
  const sectorSize = 1 << header.readUInt16LE(0x1e);
  if (sectorSize !== 512 && sectorSize !== 4096) return undefined;
  const offset = sectorOffset(header.readUInt32LE(0x30), sectorSize);
  if (offset + DIR_ENTRY_SIZE > file.size) return undefined;
  const root = await file.read(offset, DIR_ENTRY_SIZE);
  return root.readUInt8(66) === 5 ? guid(root.subarray(80, 96)) : undefined;
}

function sectorOffset(sector: number, sectorSize: number): number {
  return (sector + 1) * sectorSize;
}

function guid(bytes: Buffer): string {
  const hex = (b: Buffer): string => b.toString('hex');
  const le = (start: number, length: number): string => hex(Buffer.from(bytes.subarray(start, start + length)).reverse());
  return `${le(0, 4)}-${le(4, 2)}-${le(6, 2)}-${hex(bytes.subarray(8, 10))}-${hex(bytes.subarray(10, 16))}`.toUpperCase();
}
