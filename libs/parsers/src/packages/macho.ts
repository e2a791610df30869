// Architectures from a Mach-O header; only the first few hundred bytes are needed, so callers
// pass the head of the executable and never inflate the whole binary.

const CPU_ARCH_ABI64 = 0x01000000;
const CPU_ARCH_ABI64_32 = 0x02000000;
const CPU_TYPE_X86 = 7;
const CPU_TYPE_ARM = 12;
const CPU_TYPE_POWERPC = 18;

export const MACHO_HEAD_BYTES = 8 + 20 * 16;

export function machoArchitectures(head: Buffer): string[] {
  if (head.length < 8) return [];
  const magicBe = head.readUInt32BE(0);
  if (magicBe === 0xcafebabe || magicBe === 0xcafebabf) {
    const count = head.readUInt32BE(4);
    // Java class files share the 0xcafebabe magic; their "count" is a version number in the 40s+.
    if (count === 0 || count > 16) return [];
    const stride = magicBe === 0xcafebabf ? 32 : 20;
    const archs: string[] = [];
    for (let i = 0; i < count; i++) {
      const offset = 8 + i * stride;
      if (offset + 8 > head.length) break;
      archs.push(archName(head.readInt32BE(offset), head.readInt32BE(offset + 4)));
    }
    return archs;
  }
  if (magicBe === 0xfeedface || magicBe === 0xfeedfacf) return [archName(head.readInt32BE(4), head.readInt32BE(8))];
  const magicLe = head.readUInt32LE(0);
  if (magicLe === 0xfeedface || magicLe === 0xfeedfacf) return [archName(head.readInt32LE(4), head.readInt32LE(8))];
  return [];
}

function archName(cpuType: number, cpuSubtype: number): string {
  const subtype = cpuSubtype & 0x00ffffff;
  switch (cpuType) {
    case CPU_TYPE_ARM:
      return ({ 6: 'armv6', 9: 'armv7', 11: 'armv7s', 12: 'armv7k' } as Record<number, string>)[subtype] ?? 'arm';
    case CPU_TYPE_ARM | CPU_ARCH_ABI64:
      return subtype === 2 ? 'arm64e' : 'arm64';
    case CPU_TYPE_ARM | CPU_ARCH_ABI64_32:
      return 'arm64_32';
    case CPU_TYPE_X86:
      return 'i386';
    case CPU_TYPE_X86 | CPU_ARCH_ABI64:
      return subtype === 8 ? 'x86_64h' : 'x86_64';
    case CPU_TYPE_POWERPC:
      return 'ppc';
    default:
      return `cpu-${cpuType}`;
  }
}
