import { inflateSync } from 'node:zlib';
import type { PositionalReader } from './byte-source';
import { PackageParseError, UnknownPackageError } from './package.errors';
import { isDict, plistArray, plistDict, plistString, readPlist } from './plist-reader';

export const SECTOR = 512;
const KOLY_BYTES = 512;
// hdiutil writes a few KiB of XML per partition; 16 MiB describes hundreds of thousands of chunks.
const MAX_XML_BYTES = 16 * 1024 * 1024;
const MAX_PARTITIONS = 256;
const MAX_CHUNKS = 1_000_000;
// hdiutil's chunks decompress to 1 MiB at most; anything far above that is not a real image.
const MAX_CHUNK_BYTES = 16 * 1024 * 1024;
// 2^32 sectors = 2 TiB of disk; the size of the sparse view, never of what is held in memory.
const MAX_DISK_SECTORS = 2 ** 32;
// Decompressed chunks kept for the next read (B-tree nodes are read many times over).
const CACHE_BYTES = 32 * 1024 * 1024;
// Everything inflated during one parse, cached or not: catalog, Info.plist, icon, a Mach-O head.
const MAX_TOTAL_INFLATED = 256 * 1024 * 1024;
const MAX_READ_BYTES = 128 * 1024 * 1024;

const CHUNK = {
  zero: 0x00000000,
  raw: 0x00000001,
  ignore: 0x00000002,
  adc: 0x80000004,
  zlib: 0x80000005,
  bzip2: 0x80000006,
  lzfse: 0x80000007,
  lzma: 0x80000008,
  comment: 0x7ffffffe,
  end: 0xffffffff,
} as const;

// Codecs real images use that we have no maintained decoder for: refused as an unreadable (not
// broken) package, so an upload can still go through with explicit versions.
const UNSUPPORTED_CODECS: Record<number, string> = {
  [CHUNK.adc]: 'ADC (UDCO)',
  [CHUNK.bzip2]: 'bzip2 (UDBZ)',
  [CHUNK.lzfse]: 'LZFSE (ULFO)',
  [CHUNK.lzma]: 'LZMA (ULMO)',
};

interface Chunk {
  type: number;
  /** First sector in the whole disk. */
  start: number;
  sectors: number;
  /** Where the chunk's data sits in the .dmg file. */
  offset: number;
  length: number;
}

/** One `blkx` entry: a partition of the disk, named by hdiutil like "disk image (Apple_HFS : 4)". */
export interface UdifPartition {
  name: string;
  firstSector: number;
  sectors: number;
}

/**
 * A UDIF disk image (.dmg) as a random-access view of the disk it holds: the koly trailer points
 * at an XML property list whose `blkx` resources are `mish` tables of chunks (zero-fill, raw or
 * compressed runs of sectors). A read decompresses only the chunks it touches, each bounded by
 * its declared size, and keeps the last few in a small LRU, so reading a B-tree node by node does
 * not inflate the same chunk over and over. Nothing reads the whole file.
 */
export class UdifImage implements PositionalReader {
  private readonly cache = new Map<number, Buffer>();
  private cachedBytes = 0;
  private inflatedBytes = 0;

  private constructor(
    private readonly file: PositionalReader,
    readonly size: number,
    readonly partitions: UdifPartition[],
    private readonly chunks: Chunk[],
  ) {}

  static async open(file: PositionalReader): Promise<UdifImage> {
    if (file.size < KOLY_BYTES) throw new PackageParseError('dmg: file too small for a koly trailer');
    const koly = await file.read(file.size - KOLY_BYTES, KOLY_BYTES);
    const version = koly.readUInt32BE(4);
    const headerSize = koly.readUInt32BE(8);
    if (koly.toString('latin1', 0, 4) !== 'koly' || headerSize !== KOLY_BYTES || version !== 4) {
      throw new PackageParseError(`dmg: malformed koly trailer (version ${version}, header size ${headerSize})`);
    }
    const segmentCount = koly.readUInt32BE(60);
    if (segmentCount > 1) throw new UnknownPackageError(`dmg: segmented images (${segmentCount} segments) are not read; give release_version and build_version`);
    const xmlOffset = u64(koly, 216, 'XML offset');
    const xmlLength = u64(koly, 224, 'XML length');
    const declaredSectors = u64(koly, 492, 'sector count');
    if (xmlLength === 0) {
      if (u64(koly, 48, 'resource fork length') > 0) {
        throw new UnknownPackageError('dmg: images without an XML property list (pre-10.2 resource fork) are not read; give release_version and build_version');
      }
      throw new PackageParseError('dmg: the koly trailer points at no property list');
    }
    if (xmlLength > MAX_XML_BYTES) throw new PackageParseError(`dmg: property list of ${xmlLength} bytes is above the ${MAX_XML_BYTES}-byte limit`);
    if (xmlOffset + xmlLength > file.size - KOLY_BYTES) {
      throw new PackageParseError(`dmg: property list (${xmlLength} bytes at ${xmlOffset}) runs past the data fork of a ${file.size}-byte file`);
    }
    if (declaredSectors > MAX_DISK_SECTORS) throw new PackageParseError(`dmg: the trailer declares ${declaredSectors} sectors, above the ${MAX_DISK_SECTORS}-sector limit`);

    const plist = readPlist(await file.read(xmlOffset, xmlLength), 'dmg property list');
    const entries = plistArray(plistDict(plist, 'resource-fork') ?? {}, 'blkx');
    if (entries.length === 0) throw new PackageParseError('dmg: property list has no blkx resources');
    if (entries.length > MAX_PARTITIONS) throw new PackageParseError(`dmg: ${entries.length} partitions, above the ${MAX_PARTITIONS} limit`);

    const partitions: UdifPartition[] = [];
    const chunks: Chunk[] = [];
    for (const entry of entries) {
      if (!isDict(entry) || !Buffer.isBuffer(entry.Data)) throw new PackageParseError('dmg: a blkx resource has no Data');
      const name = plistString(entry, 'Name') ?? plistString(entry, 'CFName') ?? '';
      partitions.push(readMish(entry.Data, name, file.size - KOLY_BYTES, chunks));
      if (chunks.length > MAX_CHUNKS) throw new PackageParseError(`dmg: more than ${MAX_CHUNKS} chunks`);
    }
    chunks.sort((a, b) => a.start - b.start);
    for (let i = 1; i < chunks.length; i++) {
      const previous = chunks[i - 1] as Chunk;
      if ((chunks[i] as Chunk).start < previous.start + previous.sectors) throw new PackageParseError(`dmg: chunks overlap at sector ${(chunks[i] as Chunk).start}`);
    }
    const last = chunks[chunks.length - 1];
    const usedSectors = last ? last.start + last.sectors : 0;
    if (usedSectors > MAX_DISK_SECTORS) throw new PackageParseError(`dmg: chunks reach sector ${usedSectors}, above the ${MAX_DISK_SECTORS}-sector limit`);
    const sectors = Math.max(declaredSectors, usedSectors);
    return new UdifImage(file, sectors * SECTOR, partitions, chunks);
  }

  /** Reads exactly `length` bytes of the disk; sectors no chunk describes read as zeros. */
  async read(offset: number, length: number): Promise<Buffer> {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > this.size) {
      throw new PackageParseError(`dmg: read of ${length} bytes at offset ${offset} is outside the ${this.size}-byte disk`);
    }
    if (length > MAX_READ_BYTES) throw new PackageParseError(`dmg: a read of ${length} bytes is above the ${MAX_READ_BYTES}-byte limit`);
    const out = Buffer.alloc(length);
    let index = this.chunkAtOrAfter(Math.floor(offset / SECTOR));
    for (; index < this.chunks.length; index++) {
      const chunk = this.chunks[index] as Chunk;
      const chunkStart = chunk.start * SECTOR;
      const chunkEnd = chunkStart + chunk.sectors * SECTOR;
      if (chunkStart >= offset + length) break;
      const from = Math.max(offset, chunkStart);
      const to = Math.min(offset + length, chunkEnd);
      if (from >= to) continue;
      await this.copyChunk(index, chunk, from - chunkStart, to - from, out, from - offset);
    }
    return out;
  }

  async readUpTo(offset: number, length: number): Promise<Buffer> {
    return this.read(offset, Math.max(0, Math.min(length, this.size - offset)));
  }

  /** Index of the first chunk that ends after `sector`. */
  private chunkAtOrAfter(sector: number): number {
    let low = 0;
    let high = this.chunks.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const chunk = this.chunks[mid] as Chunk;
      if (chunk.start + chunk.sectors <= sector) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private async copyChunk(index: number, chunk: Chunk, within: number, length: number, out: Buffer, at: number): Promise<void> {
    switch (chunk.type) {
      case CHUNK.zero:
      case CHUNK.ignore:
        return; // `out` starts zeroed
      case CHUNK.raw:
        (await this.file.read(chunk.offset + within, length)).copy(out, at);
        return;
      case CHUNK.zlib:
        (await this.inflated(index, chunk)).copy(out, at, within, within + length);
        return;
      default: {
        const codec = UNSUPPORTED_CODECS[chunk.type];
        if (codec) throw new UnknownPackageError(`dmg: the image is compressed with ${codec}, which Hangar does not read; give release_version and build_version`);
        throw new PackageParseError(`dmg: unknown chunk type 0x${chunk.type.toString(16)} at sector ${chunk.start}`);
      }
    }
  }

  private async inflated(index: number, chunk: Chunk): Promise<Buffer> {
    const hit = this.cache.get(index);
    if (hit) {
      this.cache.delete(index);
      this.cache.set(index, hit);
      return hit;
    }
    const expected = chunk.sectors * SECTOR;
    if (this.inflatedBytes + expected > MAX_TOTAL_INFLATED) {
      throw new PackageParseError(`dmg: reading the app needs more than ${MAX_TOTAL_INFLATED} decompressed bytes`);
    }
    this.inflatedBytes += expected;
    const compressed = await this.file.read(chunk.offset, chunk.length);
    let data: Buffer;
    try {
      data = inflateSync(compressed, { maxOutputLength: expected });
    } catch (error) {
      const reason = (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? `inflates past its declared ${expected} bytes` : `is not valid zlib data (${error instanceof Error ? error.message : String(error)})`;
      throw new PackageParseError(`dmg: the chunk at sector ${chunk.start} ${reason}`, { cause: error });
    }
    if (data.length !== expected) throw new PackageParseError(`dmg: the chunk at sector ${chunk.start} inflates to ${data.length} bytes, not the declared ${expected}`);
    this.cache.set(index, data);
    this.cachedBytes += data.length;
    for (const [key, value] of this.cache) {
      if (this.cachedBytes <= CACHE_BYTES) break;
      this.cache.delete(key);
      this.cachedBytes -= value.length;
    }
    return data;
  }
}

/** Reads one `mish` block table, appending its data chunks (in whole-disk sectors) to `chunks`. */
function readMish(data: Buffer, name: string, dataEnd: number, chunks: Chunk[]): UdifPartition {
  if (data.length < 204 || data.toString('latin1', 0, 4) !== 'mish') throw new PackageParseError(`dmg: blkx resource "${name}" is not a mish block table`);
  const firstSector = u64(data, 8, 'first sector');
  const sectors = u64(data, 16, 'sector count');
  const dataOffset = u64(data, 24, 'data offset');
  const count = data.readUInt32BE(200);
  if (204 + count * 40 > data.length) throw new PackageParseError(`dmg: blkx resource "${name}" declares ${count} chunks but holds ${Math.floor((data.length - 204) / 40)}`);
  if (firstSector + sectors > MAX_DISK_SECTORS) throw new PackageParseError(`dmg: partition "${name}" ends at sector ${firstSector + sectors}, above the ${MAX_DISK_SECTORS}-sector limit`);
  for (let i = 0; i < count; i++) {
    const at = 204 + i * 40;
    const type = data.readUInt32BE(at);
    if (type === CHUNK.end) break;
    if (type === CHUNK.comment) continue;
    const relative = u64(data, at + 8, 'chunk sector');
    const chunkSectors = u64(data, at + 16, 'chunk sector count');
    const offset = dataOffset + u64(data, at + 24, 'chunk offset');
    const length = u64(data, at + 32, 'chunk length');
    if (chunkSectors === 0) continue;
    const where = `chunk ${i} of "${name}"`;
    if (relative + chunkSectors > sectors) throw new PackageParseError(`dmg: ${where} (sectors ${relative}+${chunkSectors}) lies outside its ${sectors}-sector partition`);
    const filled = type === CHUNK.zero || type === CHUNK.ignore;
    if (!filled) {
      if (chunkSectors * SECTOR > MAX_CHUNK_BYTES) throw new PackageParseError(`dmg: ${where} declares ${chunkSectors * SECTOR} bytes, above the ${MAX_CHUNK_BYTES}-byte chunk limit`);
      if (length > MAX_CHUNK_BYTES * 2 || offset + length > dataEnd) throw new PackageParseError(`dmg: ${where} (${length} bytes at offset ${offset}) points past the data fork, which ends at ${dataEnd}`);
      if (type === CHUNK.raw && length !== chunkSectors * SECTOR) throw new PackageParseError(`dmg: raw ${where} holds ${length} bytes for ${chunkSectors} sectors`);
    }
    chunks.push({ type, start: firstSector + relative, sectors: chunkSectors, offset, length });
  }
  return { name, firstSector, sectors };
}

function u64(buffer: Buffer, at: number, what: string): number {
  const value = buffer.readBigUInt64BE(at);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new PackageParseError(`dmg: ${what} ${value} is out of range`);
  return Number(value);
}
