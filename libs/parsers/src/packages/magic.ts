import { readRootClsid } from './cfb-reader';
import type { PositionalReader } from './byte-source';

// Class id of a Windows Installer database's root storage (.doc/.xls share the container, not this id).
const MSI_CLSID = '000C1084-0000-0000-C000-000000000046';

export type ContainerKind = 'zip' | 'deb' | 'rpm' | 'appimage' | 'exe' | 'msi' | 'dmg';

const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const RPM_MAGIC = Buffer.from([0xed, 0xab, 0xee, 0xdb]);

/**
 * Identifies the container from its leading bytes (and, for UDIF images, the trailer). Zips need
 * their central directory to tell an ipa from an apk, which the caller does next.
 */
export async function sniffContainer(file: PositionalReader): Promise<ContainerKind | undefined> {
  const head = await file.readUpTo(0, 72);
  const ascii = head.toString('latin1');

  if (ascii.startsWith('PK\x03\x04') || ascii.startsWith('PK\x05\x06')) return 'zip';
  // The first ar member of every Debian binary package is named debian-binary.
  if (ascii.startsWith('!<arch>\n') && ascii.slice(8, 24).startsWith('debian-binary')) return 'deb';
  if (head.subarray(0, 4).equals(RPM_MAGIC)) return 'rpm';
  // Only type 2 (squashfs appended to an ELF runtime) is supported; type 1 is an ISO and falls through.
  if (ascii.startsWith('\x7fELF') && ascii.slice(8, 11) === 'AI\x02') return 'appimage';
  if (ascii.startsWith('MZ') && (await hasPeSignature(file, head))) return 'exe';
  if (head.subarray(0, 8).equals(OLE_MAGIC) && file.size >= 1024 && (await readRootClsid(file)) === MSI_CLSID) return 'msi';
  if (file.size >= 512) {
    const trailer = await file.read(file.size - 512, 4);
    if (trailer.toString('latin1') === 'koly') return 'dmg';
  }
  return undefined;
}

async function hasPeSignature(file: PositionalReader, head: Buffer): Promise<boolean> {
  if (head.length < 0x40) return false;
  const peOffset = head.readUInt32LE(0x3c);
  if (peOffset + 4 > file.size) return false;
  const signature = await file.read(peOffset, 4);
  return signature.toString('latin1') === 'PE\0\0';
}
