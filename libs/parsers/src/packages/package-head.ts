/**
 * Whether a file starting with `head` (its first bytes, ideally 1,536 or more) could be a
 * package Hangar reads — decided before a byte is stored, so a multi-GiB upload of something else
 * (a video, a disk dump) is refused at once instead of after it has been streamed and parsed.
 * Only leading bytes are looked at: every format has a signature at its start, except the UDIF
 * disk image (dmg), whose signature is its trailer; its data fork starts with its first chunk,
 * which is a compressed stream (zlib, bzip2, LZFSE, LZMA) or raw disk bytes with a partition map
 * or volume header at a fixed place. False positives are fine (the parser decides); a false
 * negative refuses a real package, so when in doubt this says yes.
 */
export function couldBePackage(head: Buffer): boolean {
  const ascii = head.toString('latin1', 0, Math.min(head.length, 8));
  const starts = (signature: string) => ascii.startsWith(signature);
  if (starts('PK\x03\x04') || starts('PK\x05\x06')) return true; // zip: ipa, apk, aab, zipped .app
  if (starts('!<arch>\n')) return true; // deb
  if (starts('\xed\xab\xee\xdb')) return true; // rpm lead
  if (starts('\x7fELF')) return true; // AppImage (type 2: ELF runtime + squashfs)
  if (starts('MZ')) return true; // exe
  if (starts('\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1')) return true; // msi (OLE compound file)
  return couldStartDiskImage(head);
}

function couldStartDiskImage(head: Buffer): boolean {
  if (head.length >= 2 && head[0] === 0x78 && ((head[0]! << 8) | head[1]!) % 31 === 0) return true; // zlib (UDZO)
  const ascii = head.toString('latin1', 0, Math.min(head.length, 4));
  if (ascii.startsWith('BZh') || ascii.startsWith('bvx') || head[0] === 0x5d) return true; // bzip2, LZFSE, LZMA chunks
  if (ascii.startsWith('ER')) return true; // Apple Partition Map driver descriptor
  if (head.length >= 512 && head[510] === 0x55 && head[511] === 0xaa) return true; // MBR / GPT protective MBR
  if (head.length >= 36 && head.toString('latin1', 32, 36) === 'NXSB') return true; // APFS container
  if (head.length >= 1026 && ['H+', 'HX', 'BD'].includes(head.toString('latin1', 1024, 1026))) return true; // HFS+ / HFSX / HFS volume
  return false;
}

/** How many leading bytes couldBePackage wants to see. */
export const PACKAGE_HEAD_BYTES = 1536;
