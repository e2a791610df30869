import { open } from 'node:fs/promises';
import { DebugFileParseError } from './debug-file-parse.error';

/** A PE image's identity on a Microsoft symbol server: `<file>/<TimeDateStamp><SizeOfImage>/<file>`. */
export interface PeCodeId {
  timeDateStamp: number;
  sizeOfImage: number;
  /** `%08X%x`: the stamp as 8 uppercase hex digits, then SizeOfImage in hex (symstore's form). */
  codeId: string;
  machine: string;
}

const MACHINES: Record<number, string> = { 0x14c: 'x86', 0x8664: 'x86_64', 0x1c4: 'arm', 0xaa64: 'arm64' };

export function isPe(head: Buffer): boolean {
  return head.length >= 2 && head[0] === 0x4d && head[1] === 0x5a;
}

/** Reads the COFF and optional headers only (a few hundred bytes by position). */
export async function readPeCodeId(filePath: string): Promise<PeCodeId> {
  const fd = await open(filePath, 'r');
  try {
    const { size } = await fd.stat();
    const read = async (offset: number, length: number, what: string) => {
      if (offset < 0 || offset + length > size) throw new DebugFileParseError(`truncated PE file: ${what} lies past its end (${size} bytes)`);
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await fd.read(buffer, 0, length, offset);
      if (bytesRead !== length) throw new DebugFileParseError(`truncated PE file: ${what}`);
      return buffer;
    };
    const dos = await read(0, 64, 'the DOS header');
    if (!isPe(dos)) throw new DebugFileParseError('not a PE file');
    const peOffset = dos.readUInt32LE(0x3c);
    const headers = await read(peOffset, 24 + 60, 'the PE headers');
    if (headers.readUInt32LE(0) !== 0x00004550) throw new DebugFileParseError('an MZ file without a PE signature');
    const machine = headers.readUInt16LE(4);
    const timeDateStamp = headers.readUInt32LE(8);
    const optionalSize = headers.readUInt16LE(20);
    const magic = headers.readUInt16LE(24);
    if (optionalSize < 60 || (magic !== 0x10b && magic !== 0x20b)) throw new DebugFileParseError('a PE file without an image optional header');
    // SizeOfImage sits at offset 56 of the optional header in PE32 and PE32+ alike.
    const sizeOfImage = headers.readUInt32LE(24 + 56);
    if (sizeOfImage === 0) throw new DebugFileParseError('a PE image of SizeOfImage 0');
    return {
      timeDateStamp,
      sizeOfImage,
      codeId: `${timeDateStamp.toString(16).toUpperCase().padStart(8, '0')}${sizeOfImage.toString(16).toUpperCase()}`,
      machine: MACHINES[machine] ?? `machine-${machine.toString(16)}`,
    };
  } finally {
    await fd.close();
  }
}
