import type { PositionalReader } from './byte-source';
import { PackageParseError, UnknownPackageError } from './package.errors';

const SIGNATURE = { hfsPlus: 0x482b, hfsx: 0x4858, hfs: 0x4244 } as const;
export const ROOT_FOLDER_ID = 2;
const NODE_KIND = { leaf: -1, index: 0, header: 1 } as const;
const RECORD = { folder: 1, file: 2 } as const;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
// BSD owner flag of a file whose data sits, compressed, in the com.apple.decmpfs attribute.
const UF_COMPRESSED = 0x20;
const MAX_TREE_DEPTH = 16;
// Every catalog node read during one parse; a folder listing walks leaves, the lookups are few.
const MAX_NODE_READS = 20_000;
const MAX_CHILDREN = 100_000;

interface Extent {
  startBlock: number;
  blockCount: number;
}

interface Fork {
  logicalSize: number;
  totalBlocks: number;
  extents: Extent[];
}

export interface CatalogEntry {
  name: string;
  kind: 'folder' | 'file';
  /** Folder id (CNID) or file id. */
  id: number;
  fork?: Fork;
  symlink?: boolean;
  compressed?: boolean;
  hardLink?: boolean;
}

interface Node {
  kind: number;
  height: number;
  next: number;
  records: Buffer[];
}

/**
 * A read-only HFS+ / HFSX reader over positional reads (the volume inside a .dmg): the volume
 * header, the catalog B-tree and the data forks of small files. Folder listings walk the leaves
 * from the folder's thread record, so lookups never depend on HFS+'s Unicode collation order.
 * Forks are read from the eight extents in their catalog record; a file continued in the extents
 * overflow file is refused, not guessed at. Every node, record and read is bounded.
 */
export class HfsPlusVolume {
  private nodeReads = 0;
  // Lookups walk the same few folders (the .app, Contents, Resources) more than once.
  private readonly listings = new Map<number, CatalogEntry[]>();

  private constructor(
    private readonly disk: PositionalReader,
    private readonly base: number,
    private readonly blockSize: number,
    private readonly totalBlocks: number,
    private readonly caseSensitive: boolean,
    private readonly catalog: Fork,
    private readonly nodeSize: number,
    private readonly rootNode: number,
    private readonly treeDepth: number,
    private readonly totalNodes: number,
  ) {}

  /** The signature at offset 1024 of a would-be volume: 'hfs+' for HFS+ or HFSX. */
  static async probe(disk: PositionalReader, base: number): Promise<'hfs+' | 'hfs' | 'apfs' | undefined> {
    if (base + 1024 + 512 > disk.size) return undefined;
    const head = await disk.read(base, 1024 + 512);
    if (head.toString('latin1', 32, 36) === 'NXSB') return 'apfs';
    const signature = head.readUInt16BE(1024);
    if (signature === SIGNATURE.hfsPlus || signature === SIGNATURE.hfsx) return 'hfs+';
    if (signature === SIGNATURE.hfs) return 'hfs';
    return undefined;
  }

  static async open(disk: PositionalReader, base: number): Promise<HfsPlusVolume> {
    const header = await disk.read(base + 1024, 512);
    const signature = header.readUInt16BE(0);
    const version = header.readUInt16BE(2);
    if (!((signature === SIGNATURE.hfsPlus && version === 4) || (signature === SIGNATURE.hfsx && version === 5))) {
      throw new PackageParseError(`hfs+: no HFS+ volume header at offset ${base + 1024} (signature 0x${signature.toString(16)}, version ${version})`);
    }
    const blockSize = header.readUInt32BE(40);
    const totalBlocks = header.readUInt32BE(44);
    if (blockSize < 512 || blockSize > 1024 * 1024 || (blockSize & (blockSize - 1)) !== 0) throw new PackageParseError(`hfs+: invalid allocation block size ${blockSize}`);
    const catalog = readFork(header, 272);
    if (!coversFork(catalog, blockSize)) {
      throw new UnknownPackageError('hfs+: the catalog file continues in the extents overflow file, which is not read; give release_version and build_version');
    }
    const volume = new HfsPlusVolume(disk, base, blockSize, totalBlocks, signature === SIGNATURE.hfsx, catalog, 512, 0, 0, 1);
    const head = await volume.readFork(catalog, 0, 512);
    if (head.readInt8(8) !== NODE_KIND.header) throw new PackageParseError('hfs+: the catalog does not start with a B-tree header node');
    const treeDepth = head.readUInt16BE(14);
    const rootNode = head.readUInt32BE(16);
    const nodeSize = head.readUInt16BE(32);
    const totalNodes = head.readUInt32BE(36);
    if (nodeSize < 512 || nodeSize > 32768 || (nodeSize & (nodeSize - 1)) !== 0) throw new PackageParseError(`hfs+: invalid catalog node size ${nodeSize}`);
    if (treeDepth < 1 || treeDepth > MAX_TREE_DEPTH) throw new PackageParseError(`hfs+: catalog depth ${treeDepth} is outside 1..${MAX_TREE_DEPTH}`);
    if (totalNodes * nodeSize > catalog.logicalSize || rootNode === 0 || rootNode >= totalNodes) {
      throw new PackageParseError(`hfs+: catalog header is inconsistent (${totalNodes} nodes of ${nodeSize} bytes, root ${rootNode}, file of ${catalog.logicalSize} bytes)`);
    }
    // HFS+ compares names case-insensitively; HFSX may be either (keyCompareType 0xBC = binary).
    const caseSensitive = signature === SIGNATURE.hfsx && head.readUInt8(51) === 0xbc;
    return new HfsPlusVolume(disk, base, blockSize, totalBlocks, caseSensitive, catalog, nodeSize, rootNode, treeDepth, totalNodes);
  }

  /** The files and folders directly inside a folder, in catalog order. */
  async list(folderId: number): Promise<CatalogEntry[]> {
    const cached = this.listings.get(folderId);
    if (cached) return cached;
    const entries = await this.readListing(folderId);
    this.listings.set(folderId, entries);
    return entries;
  }

  private async readListing(folderId: number): Promise<CatalogEntry[]> {
    const entries: CatalogEntry[] = [];
    let nodeNumber = await this.firstLeafFor(folderId);
    const seen = new Set<number>();
    while (nodeNumber !== 0) {
      if (seen.has(nodeNumber)) throw new PackageParseError('hfs+: catalog leaf chain loops');
      seen.add(nodeNumber);
      const node = await this.readNode(nodeNumber);
      if (node.kind !== NODE_KIND.leaf) throw new PackageParseError(`hfs+: catalog node ${nodeNumber} in the leaf chain is not a leaf`);
      for (const record of node.records) {
        const key = readKey(record);
        if (key.parentId < folderId) continue;
        if (key.parentId > folderId) return entries;
        const entry = readLeafRecord(record, key);
        if (entry) entries.push(entry);
        if (entries.length > MAX_CHILDREN) throw new PackageParseError(`hfs+: folder ${folderId} has more than ${MAX_CHILDREN} entries`);
      }
      nodeNumber = node.next;
    }
    return entries;
  }

  /** A child of a folder by name, compared as the volume does (case-insensitively on HFS+). */
  async child(folderId: number, name: string): Promise<CatalogEntry | undefined> {
    const wanted = this.comparable(name);
    return (await this.list(folderId)).find((entry) => this.comparable(entry.name) === wanted);
  }

  /** A file's data fork, refused above `maxBytes`. */
  async readFile(entry: CatalogEntry, maxBytes: number): Promise<Buffer> {
    const fork = this.readableFork(entry);
    if (fork.logicalSize > maxBytes) throw new PackageParseError(`hfs+: ${entry.name} is ${fork.logicalSize} bytes, above the ${maxBytes}-byte limit`);
    return this.readFork(fork, 0, fork.logicalSize);
  }

  /** The first bytes of a file (a Mach-O header), without reading the rest. */
  async readHead(entry: CatalogEntry, length: number): Promise<Buffer> {
    const fork = this.readableFork(entry);
    return this.readFork(fork, 0, Math.min(length, fork.logicalSize));
  }

  private readableFork(entry: CatalogEntry): Fork {
    if (entry.kind !== 'file' || !entry.fork || entry.symlink) throw new PackageParseError(`hfs+: ${entry.name} is not a regular file`);
    if (entry.hardLink) throw new UnknownPackageError(`hfs+: ${entry.name} is a hard link, which is not followed; give release_version and build_version`);
    if (entry.compressed && entry.fork.logicalSize === 0) {
      throw new UnknownPackageError(`hfs+: ${entry.name} uses HFS+ compression (decmpfs), which is not read; give release_version and build_version`);
    }
    if (!coversFork(entry.fork, this.blockSize)) {
      throw new UnknownPackageError(`hfs+: ${entry.name} continues in the extents overflow file, which is not read; give release_version and build_version`);
    }
    return entry.fork;
  }

  private comparable(name: string): string {
    const normalized = name.normalize('NFC');
    return this.caseSensitive ? normalized : normalized.toLowerCase();
  }

  /**
   * The leaf holding a folder's thread record, whose key (parent = the folder, empty name) sorts
   * before every child of that folder whatever the collation: only parent ids are compared.
   */
  private async firstLeafFor(folderId: number): Promise<number> {
    let nodeNumber = this.rootNode;
    for (let level = this.treeDepth; level > 1; level--) {
      const node = await this.readNode(nodeNumber);
      if (node.kind !== NODE_KIND.index || node.height !== level) throw new PackageParseError(`hfs+: catalog node ${nodeNumber} should be an index node at height ${level}`);
      let chosen: number | undefined;
      for (const record of node.records) {
        const key = readKey(record);
        const atOrBefore = key.parentId < folderId || (key.parentId === folderId && key.name === '');
        if (!atOrBefore && chosen !== undefined) break;
        if (atOrBefore || chosen === undefined) chosen = readChildPointer(record, key.size);
      }
      if (chosen === undefined) throw new PackageParseError(`hfs+: catalog index node ${nodeNumber} is empty`);
      nodeNumber = chosen;
    }
    return nodeNumber;
  }

  private async readNode(nodeNumber: number): Promise<Node> {
    if (nodeNumber <= 0 || nodeNumber >= this.totalNodes) throw new PackageParseError(`hfs+: catalog node ${nodeNumber} is outside the ${this.totalNodes}-node tree`);
    if (++this.nodeReads > MAX_NODE_READS) throw new PackageParseError(`hfs+: more than ${MAX_NODE_READS} catalog nodes read`);
    const data = await this.readFork(this.catalog, nodeNumber * this.nodeSize, this.nodeSize);
    const count = data.readUInt16BE(10);
    if (14 + 2 * (count + 1) > this.nodeSize) throw new PackageParseError(`hfs+: catalog node ${nodeNumber} claims ${count} records`);
    const offsets = Array.from({ length: count + 1 }, (_, i) => data.readUInt16BE(this.nodeSize - 2 * (i + 1)));
    const tableStart = this.nodeSize - 2 * (count + 1);
    const records: Buffer[] = [];
    for (let i = 0; i < count; i++) {
      const start = offsets[i] as number;
      const end = offsets[i + 1] as number;
      if (start < 14 || end <= start || end > tableStart) throw new PackageParseError(`hfs+: catalog node ${nodeNumber} has a bad record offset table`);
      records.push(data.subarray(start, end));
    }
    return { kind: data.readInt8(8), height: data.readUInt8(9), next: data.readUInt32BE(0), records };
  }

  /** Bytes of a fork from the extents its record lists, each checked against the volume. */
  private async readFork(fork: Fork, offset: number, length: number): Promise<Buffer> {
    if (offset + length > fork.logicalSize) throw new PackageParseError(`hfs+: read past the end of a ${fork.logicalSize}-byte fork`);
    const parts: Buffer[] = [];
    let extentStart = 0;
    let position = offset;
    const end = offset + length;
    for (const extent of fork.extents) {
      if (position >= end) break;
      if (extent.startBlock + extent.blockCount > this.totalBlocks) throw new PackageParseError(`hfs+: an extent (blocks ${extent.startBlock}+${extent.blockCount}) lies outside the ${this.totalBlocks}-block volume`);
      const extentBytes = extent.blockCount * this.blockSize;
      const extentEnd = extentStart + extentBytes;
      if (position < extentEnd) {
        const take = Math.min(end, extentEnd) - position;
        parts.push(await this.disk.read(this.base + extent.startBlock * this.blockSize + (position - extentStart), take));
        position += take;
      }
      extentStart = extentEnd;
    }
    if (position < end) throw new PackageParseError('hfs+: a fork is shorter than its logical size');
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
  }
}

function readFork(buffer: Buffer, at: number): Fork {
  const logicalSize = buffer.readBigUInt64BE(at);
  if (logicalSize > BigInt(Number.MAX_SAFE_INTEGER)) throw new PackageParseError('hfs+: fork size out of range');
  const extents: Extent[] = [];
  for (let i = 0; i < 8; i++) {
    const blockCount = buffer.readUInt32BE(at + 16 + i * 8 + 4);
    if (blockCount === 0) break;
    extents.push({ startBlock: buffer.readUInt32BE(at + 16 + i * 8), blockCount });
  }
  return { logicalSize: Number(logicalSize), totalBlocks: buffer.readUInt32BE(at + 12), extents };
}

/** Whether the eight inline extents hold the whole fork (else the rest is in the overflow file). */
function coversFork(fork: Fork, blockSize: number): boolean {
  const blocks = fork.extents.reduce((sum, extent) => sum + extent.blockCount, 0);
  return blocks >= fork.totalBlocks && blocks * blockSize >= fork.logicalSize;
}

function readKey(record: Buffer): { parentId: number; name: string; size: number } {
  if (record.length < 8) throw new PackageParseError('hfs+: catalog record too short for its key');
  const keyLength = record.readUInt16BE(0);
  const nameLength = record.readUInt16BE(6);
  if (keyLength < 6 || nameLength > 255 || 8 + nameLength * 2 > 2 + keyLength || 2 + keyLength > record.length) {
    throw new PackageParseError(`hfs+: malformed catalog key (length ${keyLength}, name of ${nameLength} characters)`);
  }
  const units: number[] = [];
  for (let i = 0; i < nameLength; i++) units.push(record.readUInt16BE(8 + i * 2));
  const name = String.fromCharCode(...units);
  return { parentId: record.readUInt32BE(2), name, size: 2 + keyLength };
}

function readChildPointer(record: Buffer, keySize: number): number {
  if (keySize + 4 > record.length) throw new PackageParseError('hfs+: catalog index record has no child pointer');
  return record.readUInt32BE(keySize);
}

function readLeafRecord(record: Buffer, key: { name: string; size: number }): CatalogEntry | undefined {
  const body = record.subarray(key.size);
  if (body.length < 2) throw new PackageParseError('hfs+: empty catalog leaf record');
  const type = body.readInt16BE(0);
  if (type === RECORD.folder) {
    if (body.length < 88) throw new PackageParseError(`hfs+: folder record of "${key.name}" is too short`);
    return { name: key.name, kind: 'folder', id: body.readUInt32BE(8) };
  }
  if (type === RECORD.file) {
    if (body.length < 248) throw new PackageParseError(`hfs+: file record of "${key.name}" is too short`);
    const mode = body.readUInt16BE(42);
    return {
      name: key.name,
      kind: 'file',
      id: body.readUInt32BE(8),
      fork: readFork(body, 88),
      symlink: (mode & S_IFMT) === S_IFLNK,
      compressed: (body.readUInt8(41) & UF_COMPRESSED) !== 0,
      hardLink: body.toString('latin1', 48, 56) === 'hlnkhfs+',
    };
  }
  return undefined; // thread records
}
