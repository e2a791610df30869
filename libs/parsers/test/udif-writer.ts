import { crc32, deflateSync } from 'node:zlib';

// A small UDIF (.dmg) writer for tests: no Linux tool writes UDIF, so the parser tests wrap disk
// images made by real tools (xorriso, mkapfs) with this, and check it against Debian's dmg2img,
// an independent reader, which must give back the very bytes that went in.

const SECTOR = 512;
export const CHUNK_TYPE = { zero: 0x00000000, raw: 0x00000001, zlib: 0x80000005, lzfse: 0x80000007, comment: 0x7ffffffe, end: 0xffffffff } as const;

export interface UdifPartitionSpec {
  /** hdiutil-style name, e.g. "disk image (Apple_HFS : 3)"; the reader looks for the type in it. */
  name: string;
  firstSector: number;
  sectors: number;
}

export interface WrittenChunk {
  type: number;
  /** First sector, relative to its partition. */
  sector: number;
  sectors: number;
  /** Bytes stored in the data fork for this chunk (empty for zero chunks). */
  data: Buffer;
  /** Set to store a different offset than where `data` lands (to point a chunk elsewhere). */
  offsetOverride?: number;
}

export interface UdifOptions {
  /** Sectors per chunk; small values give many chunks. */
  chunkSectors?: number;
  /** Every n-th chunk holding data is stored raw instead of zlib, so both kinds occur. */
  rawEvery?: number;
  /** Edits a partition's chunk list before it is written (corrupted variants). */
  transformChunks?: (partition: UdifPartitionSpec, chunks: WrittenChunk[]) => void;
  /** Overrides the sector count in the koly trailer. */
  kolySectorCount?: bigint;
}

/** Wraps a raw disk image as a UDIF image: zero, raw and zlib chunks, mish tables, blkx plist, koly. */
export function writeUdif(disk: Buffer, partitions: UdifPartitionSpec[], options: UdifOptions = {}): Buffer {
  if (disk.length % SECTOR !== 0) throw new Error('disk image must be a whole number of sectors');
  const chunkSectors = options.chunkSectors ?? 32;
  const rawEvery = options.rawEvery ?? 3;
  const fork: Buffer[] = [];
  let forkLength = 0;
  const blkx: { partition: UdifPartitionSpec; mish: Buffer; checksum: number }[] = [];
  let dataChunks = 0;

  for (const partition of partitions) {
    const bytes = disk.subarray(partition.firstSector * SECTOR, (partition.firstSector + partition.sectors) * SECTOR);
    const chunks: WrittenChunk[] = [];
    for (let sector = 0; sector < partition.sectors; sector += chunkSectors) {
      const sectors = Math.min(chunkSectors, partition.sectors - sector);
      const plain = bytes.subarray(sector * SECTOR, (sector + sectors) * SECTOR);
      if (plain.every((byte) => byte === 0)) {
        chunks.push({ type: CHUNK_TYPE.zero, sector, sectors, data: Buffer.alloc(0) });
      } else if (++dataChunks % rawEvery === 0) {
        chunks.push({ type: CHUNK_TYPE.raw, sector, sectors, data: Buffer.from(plain) });
      } else {
        chunks.push({ type: CHUNK_TYPE.zlib, sector, sectors, data: deflateSync(plain) });
      }
    }
    options.transformChunks?.(partition, chunks);

    // hdiutil brackets each table with "+beg" / "+end" comments and ends it with a terminator.
    const entries: Buffer[] = [chunkEntry(CHUNK_TYPE.comment, Buffer.from('+beg').readUInt32BE(0), 0, 0, forkLength, 0)];
    for (const chunk of chunks) {
      entries.push(chunkEntry(chunk.type, 0, chunk.sector, chunk.sectors, chunk.offsetOverride ?? forkLength, chunk.data.length));
      fork.push(chunk.data);
      forkLength += chunk.data.length;
    }
    entries.push(chunkEntry(CHUNK_TYPE.comment, Buffer.from('+end').readUInt32BE(0), partition.sectors, 0, forkLength, 0));
    entries.push(chunkEntry(CHUNK_TYPE.end, 0, partition.sectors, 0, forkLength, 0));

    const checksum = crc32(bytes);
    const header = Buffer.alloc(204);
    header.write('mish', 0, 'latin1');
    header.writeUInt32BE(1, 4);
    header.writeBigUInt64BE(BigInt(partition.firstSector), 8);
    header.writeBigUInt64BE(BigInt(partition.sectors), 16);
    header.writeBigUInt64BE(0n, 24); // data offset: chunk offsets are from the start of the file
    header.writeUInt32BE(chunkSectors, 32); // buffers needed
    header.writeUInt32BE(blkx.length, 36); // block descriptors
    header.writeUInt32BE(2, 64); // checksum type CRC-32
    header.writeUInt32BE(32, 68);
    header.writeUInt32BE(checksum, 72);
    header.writeUInt32BE(entries.length, 200);
    blkx.push({ partition, mish: Buffer.concat([header, ...entries]), checksum });
  }

  const dataFork = Buffer.concat(fork, forkLength);
  const xml = Buffer.from(blkxPlist(blkx), 'utf8');
  const koly = Buffer.alloc(512);
  koly.write('koly', 0, 'latin1');
  koly.writeUInt32BE(4, 4);
  koly.writeUInt32BE(512, 8);
  koly.writeUInt32BE(1, 12); // flags: flattened
  koly.writeBigUInt64BE(0n, 24); // data fork offset
  koly.writeBigUInt64BE(BigInt(forkLength), 32);
  koly.writeUInt32BE(1, 56); // segment number
  koly.writeUInt32BE(1, 60); // segment count
  Buffer.from('6861756761722d746573742d696d6167', 'hex').copy(koly, 64); // segment id
  koly.writeUInt32BE(2, 80); // data fork checksum: CRC-32
  koly.writeUInt32BE(32, 84);
  koly.writeUInt32BE(crc32(dataFork), 88);
  koly.writeBigUInt64BE(BigInt(forkLength), 216); // XML offset
  koly.writeBigUInt64BE(BigInt(xml.length), 224);
  // Master checksum: CRC-32 over the partitions' checksums, as hdiutil computes it.
  const master = Buffer.alloc(4 * blkx.length);
  blkx.forEach((entry, i) => master.writeUInt32BE(entry.checksum, i * 4));
  koly.writeUInt32BE(2, 352);
  koly.writeUInt32BE(32, 356);
  koly.writeUInt32BE(crc32(master), 360);
  koly.writeUInt32BE(1, 488); // image variant
  koly.writeBigUInt64BE(options.kolySectorCount ?? BigInt(disk.length / SECTOR), 492);
  return Buffer.concat([dataFork, xml, koly]);
}

function chunkEntry(type: number, comment: number, sector: number, sectors: number, offset: number, length: number): Buffer {
  const entry = Buffer.alloc(40);
  entry.writeUInt32BE(type >>> 0, 0);
  entry.writeUInt32BE(comment >>> 0, 4);
  entry.writeBigUInt64BE(BigInt(sector), 8);
  entry.writeBigUInt64BE(BigInt(sectors), 16);
  entry.writeBigUInt64BE(BigInt(offset), 24);
  entry.writeBigUInt64BE(BigInt(length), 32);
  return entry;
}

/** The property list laid out as hdiutil writes it (dmg2img finds its parts by text search). */
function blkxPlist(blkx: { partition: UdifPartitionSpec; mish: Buffer }[]): string {
  const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const dicts = blkx.map(({ partition, mish }, index) => {
    const base64 = mish.toString('base64').match(/.{1,52}/g) ?? [];
    return [
      '\t\t\t<dict>',
      '\t\t\t\t<key>Attributes</key>',
      '\t\t\t\t<string>0x0050</string>',
      '\t\t\t\t<key>CFName</key>',
      `\t\t\t\t<string>${escape(partition.name)}</string>`,
      '\t\t\t\t<key>Data</key>',
      '\t\t\t\t<data>',
      ...base64.map((line) => `\t\t\t\t${line}`),
      '\t\t\t\t</data>',
      '\t\t\t\t<key>ID</key>',
      `\t\t\t\t<string>${index - 1}</string>`,
      '\t\t\t\t<key>Name</key>',
      `\t\t\t\t<string>${escape(partition.name)}</string>`,
      '\t\t\t</dict>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    '\t<key>resource-fork</key>',
    '\t<dict>',
    '\t\t<key>blkx</key>',
    '\t\t<array>',
    ...dicts,
    '\t\t</array>',
    '\t</dict>',
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}

/**
 * hdiutil-style partitions of a disk with an Apple Partition Map (what xorriso -hfsplus writes):
 * the driver descriptor block, each map entry in disk order, and Apple_Free for the gaps, so the
 * blkx list covers every sector exactly once.
 */
export function applePartitionMapLayout(disk: Buffer): UdifPartitionSpec[] {
  if (disk.toString('latin1', 0, 2) !== 'ER') throw new Error('no Apple Partition Map');
  const entries: { name: string; type: string; start: number; sectors: number }[] = [];
  for (let index = 1; ; index++) {
    const entry = disk.subarray(index * SECTOR, index * SECTOR + 80);
    if (entry.toString('latin1', 0, 2) !== 'PM') break;
    const text = (from: number, to: number): string => entry.toString('latin1', from, to).replace(/\0.*$/s, '');
    entries.push({ start: entry.readUInt32BE(8), sectors: entry.readUInt32BE(12), name: text(16, 48), type: text(48, 80) });
    if (index >= entry.readUInt32BE(4)) break;
  }
  entries.sort((a, b) => a.start - b.start);
  const total = disk.length / SECTOR;
  const layout: UdifPartitionSpec[] = [{ name: 'Driver Descriptor Map (DDM : 0)', firstSector: 0, sectors: 1 }];
  let next = 1;
  for (const entry of entries) {
    if (entry.start > next) layout.push({ name: ` (Apple_Free : ${layout.length})`, firstSector: next, sectors: entry.start - next });
    if (entry.start < next || entry.start + entry.sectors > total) throw new Error(`map entry ${entry.name} overlaps or runs past the disk`);
    layout.push({ name: `${entry.name} (${entry.type} : ${layout.length})`, firstSector: entry.start, sectors: entry.sectors });
    next = entry.start + entry.sectors;
  }
  if (next < total) layout.push({ name: ` (Apple_Free : ${layout.length})`, firstSector: next, sectors: total - next });
  return layout;
}
