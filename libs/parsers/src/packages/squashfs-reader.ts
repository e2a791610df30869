import { inflateSync } from 'node:zlib';
import { decompressBounded, zstdBounded } from './decompress';
import { PackageParseError } from './package.errors';
import type { PositionalReader } from './byte-source';

const MAGIC = 0x73717368; // "hsqs"
const METADATA_BLOCK = 8192;
const NO_FRAGMENT = 0xffffffff;
const COMPRESSOR = { gzip: 1, xz: 4, zstd: 6 } as const;

const INODE = { dir: 1, file: 2, symlink: 3, extDir: 8, extFile: 9, extSymlink: 10 } as const;

export interface SquashEntry {
  name: string;
  type: number;
  inodeRef: bigint;
}

interface Inode {
  type: number;
  // directory
  dirStart?: number;
  dirOffset?: number;
  dirSize?: number;
  // file
  blocksStart?: number;
  fileSize?: number;
  fragment?: number;
  fragmentOffset?: number;
  blockSizes?: number[];
  // symlink
  target?: string;
}

/**
 * A read-only squashfs 4.0 reader over positional reads (the file system appended to a type-2
 * AppImage). It reads the root directory and small files only: enough for the .desktop file and
 * icon. Supports gzip, xz and zstd, which are what mksquashfs and appimagetool use.
 */
export class SquashFs {
  private constructor(
    private readonly file: PositionalReader,
    private readonly base: number,
    private readonly compressor: number,
    private readonly blockSize: number,
    private readonly rootInode: bigint,
    private readonly inodeTable: number,
    private readonly directoryTable: number,
    private readonly fragmentTable: number,
    private readonly fragmentCount: number,
    private readonly maxFileSize: number,
  ) {}

  static async open(file: PositionalReader, base: number, maxFileSize: number): Promise<SquashFs> {
    const sb = await file.read(base, 96);
    if (sb.readUInt32LE(0) !== MAGIC) throw new PackageParseError(`squashfs: no superblock at offset ${base}`);
    if (sb.readUInt16LE(28) !== 4) throw new PackageParseError('squashfs: only version 4 is supported');
    const compressor = sb.readUInt16LE(20);
    if (!Object.values(COMPRESSOR).includes(compressor as never)) throw new PackageParseError(`squashfs: unsupported compressor ${compressor}`);
    return new SquashFs(
      file,
      base,
      compressor,
      sb.readUInt32LE(12),
      sb.readBigUInt64LE(32),
      Number(sb.readBigUInt64LE(64)),
      Number(sb.readBigUInt64LE(72)),
      Number(sb.readBigUInt64LE(80)),
      sb.readUInt32LE(16),
      maxFileSize,
    );
  }

  async listRoot(): Promise<SquashEntry[]> {
    const root = await this.readInode(this.rootInode);
    if (root.dirStart === undefined || root.dirOffset === undefined || root.dirSize === undefined) throw new PackageParseError('squashfs: root is not a directory');
    // The stored size counts 3 bytes for the implicit "." and ".." entries.
    const listing = await this.readMetadata(this.directoryTable + root.dirStart, root.dirOffset, Math.max(0, root.dirSize - 3));
    const entries: SquashEntry[] = [];
    let offset = 0;
    while (offset + 12 <= listing.length) {
      const count = listing.readUInt32LE(offset) + 1;
      const startBlock = listing.readUInt32LE(offset + 4);
      offset += 12;
      for (let i = 0; i < count && offset + 8 <= listing.length; i++) {
        const inodeOffset = listing.readUInt16LE(offset);
        const type = listing.readUInt16LE(offset + 4);
        const nameSize = listing.readUInt16LE(offset + 6) + 1;
        const name = listing.toString('utf8', offset + 8, offset + 8 + nameSize);
        offset += 8 + nameSize;
        entries.push({ name, type, inodeRef: (BigInt(startBlock) << 16n) | BigInt(inodeOffset) });
      }
    }
    return entries;
  }

  /** A file's content, following symlinks inside the root directory (AppImages link .DirIcon). */
  async readFile(entry: SquashEntry, root: SquashEntry[], hops = 0): Promise<Buffer> {
    const inode = await this.readInode(entry.inodeRef);
    if (inode.target !== undefined) {
      const target = root.find((candidate) => candidate.name === inode.target?.replace(/^\.\//, ''));
      if (!target || hops > 4) throw new PackageParseError(`squashfs: cannot follow link ${entry.name} -> ${inode.target}`);
      return this.readFile(target, root, hops + 1);
    }
    if (inode.fileSize === undefined || inode.blocksStart === undefined || !inode.blockSizes) throw new PackageParseError(`squashfs: ${entry.name} is not a file`);
    if (inode.fileSize > this.maxFileSize) throw new PackageParseError(`squashfs: ${entry.name} is larger than the ${this.maxFileSize}-byte limit`);
    const parts: Buffer[] = [];
    let position = this.base + inode.blocksStart;
    for (const sizeWord of inode.blockSizes) {
      const size = sizeWord & 0xffffff;
      if (size === 0) {
        parts.push(Buffer.alloc(this.blockSize));
        continue;
      }
      const raw = await this.file.read(position, size);
      position += size;
      parts.push(sizeWord & 0x1000000 ? raw : await this.decompress(raw, this.blockSize));
    }
    if (inode.fragment !== undefined && inode.fragment !== NO_FRAGMENT) {
      const fragment = await this.readFragment(inode.fragment);
      parts.push(fragment.subarray(inode.fragmentOffset ?? 0));
    }
    return Buffer.concat(parts).subarray(0, inode.fileSize);
  }

  private async readFragment(index: number): Promise<Buffer> {
    if (index >= this.fragmentCount) throw new PackageParseError('squashfs: fragment index out of range');
    const pointerAt = this.base + this.fragmentTable + Math.floor(index / 512) * 8;
    const blockPointer = Number((await this.file.read(pointerAt, 8)).readBigUInt64LE(0));
    const entry = await this.readMetadata(blockPointer, (index % 512) * 16, 16);
    const start = Number(entry.readBigUInt64LE(0));
    const sizeWord = entry.readUInt32LE(8);
    const raw = await this.file.read(this.base + start, sizeWord & 0xffffff);
    return sizeWord & 0x1000000 ? raw : this.decompress(raw, this.blockSize);
  }

  private async readInode(ref: bigint): Promise<Inode> {
    const block = Number(ref >> 16n);
    const offset = Number(ref & 0xffffn);
    // Read generously: a file inode's block list grows with the file (4 bytes per block).
    const head = await this.readMetadata(this.inodeTable + block, offset, 64);
    const type = head.readUInt16LE(0);
    switch (type) {
      case INODE.dir:
        return { type, dirStart: head.readUInt32LE(16), dirSize: head.readUInt16LE(24), dirOffset: head.readUInt16LE(26) };
      case INODE.extDir:
        return { type, dirSize: head.readUInt32LE(20), dirStart: head.readUInt32LE(24), dirOffset: head.readUInt16LE(34) };
      case INODE.file:
      case INODE.extFile: {
        const extended = type === INODE.extFile;
        const blocksStart = extended ? Number(head.readBigUInt64LE(16)) : head.readUInt32LE(16);
        const fileSize = extended ? Number(head.readBigUInt64LE(24)) : head.readUInt32LE(28);
        const fragment = extended ? head.readUInt32LE(44) : head.readUInt32LE(20);
        const fragmentOffset = extended ? head.readUInt32LE(48) : head.readUInt32LE(24);
        const listAt = extended ? 56 : 32;
        const full = fragment === NO_FRAGMENT ? Math.ceil(fileSize / this.blockSize) : Math.floor(fileSize / this.blockSize);
        if (fileSize > this.maxFileSize) return { type, fileSize, blocksStart, blockSizes: [] };
        const body = await this.readMetadata(this.inodeTable + block, offset, listAt + full * 4);
        const blockSizes = Array.from({ length: full }, (_, i) => body.readUInt32LE(listAt + i * 4));
        return { type, blocksStart, fileSize, fragment, fragmentOffset, blockSizes };
      }
      case INODE.symlink:
      case INODE.extSymlink: {
        const size = head.readUInt32LE(20);
        const body = await this.readMetadata(this.inodeTable + block, offset, 24 + Math.min(size, 4096));
        return { type, target: body.toString('utf8', 24, 24 + size) };
      }
      default:
        return { type };
    }
  }

  /** Reads `length` bytes of the metadata stream starting at a block (relative to the image) and offset. */
  private async readMetadata(blockStart: number, offset: number, length: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    let collected = -offset;
    let position = this.base + blockStart;
    for (let guard = 0; collected < length; guard++) {
      if (guard > 1024) throw new PackageParseError('squashfs: metadata larger than expected');
      const header = (await this.file.read(position, 2)).readUInt16LE(0);
      const size = header & 0x7fff;
      const raw = await this.file.read(position + 2, size);
      const data = header & 0x8000 ? raw : await this.decompress(raw, METADATA_BLOCK);
      parts.push(data);
      collected += data.length;
      position += 2 + size;
    }
    return Buffer.concat(parts).subarray(offset, offset + length);
  }

  private async decompress(data: Buffer, limit: number): Promise<Buffer> {
    try {
      if (this.compressor === COMPRESSOR.gzip) return inflateSync(data, { maxOutputLength: limit });
      if (this.compressor === COMPRESSOR.zstd) return zstdBounded(data, limit);
      return await decompressBounded(data, limit, 'squashfs');
    } catch (error) {
      if (error instanceof PackageParseError) throw error;
      throw new PackageParseError(`squashfs: corrupt compressed block (${error instanceof Error ? error.message : String(error)})`, { cause: error });
    }
  }
}
