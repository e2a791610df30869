import { PackageParseError } from './package.errors';

const BLOCK = 512;

/**
 * Finds one regular file in an in-memory tar (used for the small control.tar of a .deb). Handles
 * ustar prefixes, GNU long names and pax path records, which is what dpkg-deb and friends emit.
 */
export function findTarFile(tar: Buffer, wanted: (path: string) => boolean): Buffer | undefined {
  let offset = 0;
  let longName: string | undefined;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) return undefined;
    const size = parseOctal(header.subarray(124, 136));
    const type = String.fromCharCode(header[156] ?? 0);
    const dataStart = offset + BLOCK;
    if (dataStart + size > tar.length) throw new PackageParseError('tar: entry runs past the end of the archive');
    const data = tar.subarray(dataStart, dataStart + size);
    offset = dataStart + Math.ceil(size / BLOCK) * BLOCK;

    if (type === 'L') {
      longName = cString(data);
      continue;
    }
    if (type === 'x') {
      longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'))?.[1] ?? longName;
      continue;
    }
    const prefix = header.toString('latin1', 257, 263).startsWith('ustar') ? cString(header.subarray(345, 500)) : '';
    const name = longName ?? (prefix ? `${prefix}/${cString(header.subarray(0, 100))}` : cString(header.subarray(0, 100)));
    longName = undefined;
    if ((type === '0' || type === '\0') && wanted(name.replace(/^\.\//, ''))) return data;
  }
  return undefined;
}

function parseOctal(field: Buffer): number {
  const text = cString(field).trim();
  const value = text === '' ? 0 : Number.parseInt(text, 8);
  if (!Number.isSafeInteger(value) || value < 0) throw new PackageParseError('tar: bad size field');
  return value;
}

function cString(buffer: Buffer): string {
  const end = buffer.indexOf(0);
  return buffer.toString('utf8', 0, end < 0 ? buffer.length : end);
}
