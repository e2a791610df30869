// Values from <mach/machine.h>.
const CPU_ARCH_ABI64 = 0x01000000;
const CPU_ARCH_ABI64_32 = 0x02000000;
const CPU_TYPE_X86 = 7;
const CPU_TYPE_ARM = 12;
const CPU_TYPE_POWERPC = 18;
/** The high byte of a subtype holds capability flags (e.g. arm64e's pointer-auth ABI version), not the model. */
const CPU_SUBTYPE_MODEL_MASK = 0x00ffffff;

const ARM_SUBTYPES: Readonly<Record<number, string>> = {
  5: 'armv4t',
  6: 'armv6',
  7: 'armv5',
  8: 'xscale',
  9: 'armv7',
  10: 'armv7f',
  11: 'armv7s',
  12: 'armv7k',
  13: 'armv8',
  14: 'armv6m',
  15: 'armv7m',
  16: 'armv7em',
};
const CPU_SUBTYPE_ARM64E = 2;
const CPU_SUBTYPE_X86_64_H = 8;

/** The architecture name Xcode and symbolicators use for a Mach-O cputype/cpusubtype pair. */
export function cpuLabel(cpuType: number, cpuSubtype: number): string {
  const subtype = cpuSubtype & CPU_SUBTYPE_MODEL_MASK;
  switch (cpuType) {
    case CPU_TYPE_X86:
      return 'i386';
    case CPU_TYPE_X86 | CPU_ARCH_ABI64:
      return subtype === CPU_SUBTYPE_X86_64_H ? 'x86_64h' : 'x86_64';
    case CPU_TYPE_ARM:
      return ARM_SUBTYPES[subtype] ?? 'arm';
    case CPU_TYPE_ARM | CPU_ARCH_ABI64:
      return subtype === CPU_SUBTYPE_ARM64E ? 'arm64e' : 'arm64';
    case CPU_TYPE_ARM | CPU_ARCH_ABI64_32:
      return 'arm64_32';
    case CPU_TYPE_POWERPC:
      return 'ppc';
    case CPU_TYPE_POWERPC | CPU_ARCH_ABI64:
      return 'ppc64';
    default:
      return 'unknown';
  }
}
