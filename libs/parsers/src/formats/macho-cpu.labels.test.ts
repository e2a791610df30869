import { cpuLabel } from './macho-cpu.labels';

describe('cpuLabel', () => {
  it.each([
    [0x0100000c, 0, 'arm64'],
    [0x0100000c, 2, 'arm64e'],
    // arm64e slices carry the pointer-auth ABI flag in the subtype's high byte.
    [0x0100000c, 0x80000002 | 0, 'arm64e'],
    [12, 9, 'armv7'],
    [12, 11, 'armv7s'],
    [12, 12, 'armv7k'],
    [0x0200000c, 1, 'arm64_32'],
    [0x01000007, 3, 'x86_64'],
    [0x01000007, 8, 'x86_64h'],
    [7, 3, 'i386'],
    [0x42, 0, 'unknown'],
  ])('when cputype %i has subtype %i, then the label is %s', (cpuType, cpuSubtype, label) => {
    expect(cpuLabel(cpuType, cpuSubtype)).toBe(label);
  });
});
