import type { ByteSource } from '../packages/byte-source';
import { DebugFileParseError } from './debug-file-parse.error';
import { type DebugFileReader, withDebugFile } from './debug-source';

/** What a Microsoft symbol server is asked by: `<file>/<GUID><age>/<file>`. */
export interface PdbIdentity {
  /** {XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}, uppercase, as llvm-pdbutil and debuggers print it. */
  guid: string;
  age: number;
  /** GUID as 32 uppercase hex digits (Data1–3 in their little-endian order undone) then the age in hex. */
  symbolServerId: string;
}

export const MSF_MAGIC = Buffer.from('Microsoft C/C++ MSF 7.00\r\n\x1aDS\0\0\0', 'latin1');
const BLOCK_SIZES = new Set([512, 1024, 2048, 4096]);
const MAX_DIRECTORY_BYTES = 64 * 1024 * 1024;
const MAX_STREAMS = 1 << 20;

export function isPdb(head: Buffer): boolean {
  return head.length >= MSF_MAGIC.length && head.subarray(0, MSF_MAGIC.length).equals(MSF_MAGIC);
}

/**
 * Reads a PDB's GUID and age from its MSF container: the superblock, the block map, the stream
 * directory (up to stream 1) and the first bytes of the PDB info stream — by position, whatever
 * the file's size. Layout: LLVM's "The MSF File Format" and "The PDB Info Stream".
 */
export function readPdbIdentity(file: string | ByteSource): Promise<PdbIdentity> {
  return withDebugFile(file, 'PDB file', readIdentity);
}

async function readIdentity(file: DebugFileReader): Promise<PdbIdentity> {
  const read = (offset: number, length: number, what: string) => file.read(offset, length, what);
  const superblock = await read(0, 56, 'the MSF superblock');
  if (!isPdb(superblock)) throw new DebugFileParseError('not a PDB (MSF 7.00) file');
  const blockSize = superblock.readUInt32LE(32);
  const numBlocks = superblock.readUInt32LE(40);
  const directoryBytes = superblock.readUInt32LE(44);
  const blockMapAddr = superblock.readUInt32LE(52);
  if (!BLOCK_SIZES.has(blockSize)) throw new DebugFileParseError(`a PDB block size of ${blockSize}`);
  if (directoryBytes < 8 || directoryBytes > MAX_DIRECTORY_BYTES) throw new DebugFileParseError(`a PDB stream directory of ${directoryBytes} bytes`);
  const block = (index: number, what: string) => {
    if (index >= numBlocks) throw new DebugFileParseError(`${what} points at block ${index} of ${numBlocks}`);
    return index * blockSize;
  };

  // The directory's blocks are listed in the block map; read only as much directory as needed.
  const directoryBlockCount = Math.ceil(directoryBytes / blockSize);
  if (directoryBlockCount * 4 > blockSize) throw new DebugFileParseError('a PDB stream directory larger than its block map can list');
  const blockMap = await read(block(blockMapAddr, 'the block map address'), directoryBlockCount * 4, 'the block map');
  const directoryBlocks = Array.from({ length: directoryBlockCount }, (_, i) => blockMap.readUInt32LE(i * 4));
  const directoryCache = new Map<number, Buffer>();
  const directoryU32 = async (index: number): Promise<number> => {
    const offset = index * 4;
    if (offset + 4 > directoryBytes) throw new DebugFileParseError('truncated PDB stream directory');
    const blockIndex = Math.floor(offset / blockSize);
    let data = directoryCache.get(blockIndex);
    if (!data) {
      data = await read(block(directoryBlocks[blockIndex]!, 'the stream directory'), blockSize, 'a stream directory block');
      directoryCache.set(blockIndex, data);
    }
    return data.readUInt32LE(offset % blockSize);
  };

  const numStreams = await directoryU32(0);
  if (numStreams < 2 || numStreams > MAX_STREAMS) throw new DebugFileParseError(`a PDB with ${numStreams} streams has no info stream`);
  const streamSize = async (i: number) => {
    const s = await directoryU32(1 + i);
    return s === 0xffffffff ? 0 : s;
  };
  const size0 = await streamSize(0);
  const size1 = await streamSize(1);
  if (size1 < 28) throw new DebugFileParseError('the PDB has no GUID: its info stream is too short (a pre-VC7 PDB?)');
  // Stream 1's first block comes after all of stream 0's block indices.
  const firstBlockOfInfo = await directoryU32(1 + numStreams + Math.ceil(size0 / blockSize));
  const info = await read(block(firstBlockOfInfo, 'the info stream'), 28, 'the PDB info stream');
  const version = info.readUInt32LE(0);
  if (version < 20000404) throw new DebugFileParseError(`a PDB info stream of version ${version} carries no GUID`);
  const age = info.readUInt32LE(8);
  const g = info.subarray(12, 28);
  const hex = (b: Buffer) => b.toString('hex').toUpperCase();
  const data1 = g.readUInt32LE(0).toString(16).padStart(8, '0').toUpperCase();
  const data2 = g.readUInt16LE(4).toString(16).padStart(4, '0').toUpperCase();
  const data3 = g.readUInt16LE(6).toString(16).padStart(4, '0').toUpperCase();
  const data4 = hex(g.subarray(8, 16));
  if (/^0+$/.test(data1 + data2 + data3 + data4)) throw new DebugFileParseError('the PDB has no GUID (all zero)');
  return {
    guid: `{${data1}-${data2}-${data3}-${data4.slice(0, 4)}-${data4.slice(4)}}`,
    age,
    symbolServerId: `${data1}${data2}${data3}${data4}${age.toString(16).toUpperCase()}`,
  };
}
