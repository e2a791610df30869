import { MACHO_HEAD_BYTES, MachOFormatError, machoArchitectures, readMachOSlices } from './macho.reader';

// The dSYM side is covered by the real fixtures in debug-files; these pin the head-only reading an
// app package's executable gets, where the file's tail is never at hand.

function universal(archs: Array<[cpuType: number, cpuSubtype: number]>): Buffer {
  const head = Buffer.alloc(8 + 20 * archs.length);
  head.writeUInt32BE(0xcafebabe, 0);
  head.writeUInt32BE(archs.length, 4);
  archs.forEach(([cpuType, cpuSubtype], i) => {
    head.writeInt32BE(cpuType, 8 + i * 20);
    head.writeInt32BE(cpuSubtype, 12 + i * 20);
    head.writeUInt32BE(0x4000 * (i + 1), 16 + i * 20);
    head.writeUInt32BE(0x4000, 20 + i * 20);
  });
  return head;
}

describe('Mach-O architectures from the head of an executable', () => {
  it('when the head is a thin little-endian 64-bit header, then its one architecture is named', async () => {
    const head = Buffer.alloc(64);
    head.writeUInt32LE(0xfeedfacf, 0);
    head.writeUInt32LE(0x01000007, 4);
    head.writeUInt32LE(3, 8);
    expect(await machoArchitectures(head)).toEqual(['x86_64']);
  });

  it('when the head is a universal header, then its architectures come in header order, though the slices lie past the head', async () => {
    const head = universal([[12, 9], [0x0100000c, 0]]);
    expect(head.length).toBeLessThanOrEqual(MACHO_HEAD_BYTES);
    expect(await machoArchitectures(head)).toEqual(['armv7', 'arm64']);
  });

  it('when the file is a Java class (same 0xcafebabe magic, version 52 where the count would be), then it has no architectures', async () => {
    const head = Buffer.concat([Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52]), Buffer.alloc(MACHO_HEAD_BYTES - 8, 0x41)]);
    expect(await machoArchitectures(head)).toEqual([]);
    await expect(readMachOSlices({ read: async (offset, length) => head.subarray(offset, offset + length) }, head.length)).rejects.toThrow(MachOFormatError);
  });

  it('when the head is a script or too short for a header, then there are no architectures rather than an error', async () => {
    expect(await machoArchitectures(Buffer.from('#!/bin/sh\nexec "$0.real"\n'))).toEqual([]);
    expect(await machoArchitectures(Buffer.from([0xcf, 0xfa, 0xed, 0xfe]))).toEqual([]);
  });
});
