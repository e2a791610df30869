import { CfbFile } from './cfb-reader';
import { PackageParseError } from './package.errors';
import type { ParsedPackage, ParseOptions } from './package.types';
import { labelled, type SourceReader } from './byte-source';

// Stream names of MSI tables are packed: two characters of this alphabet per UTF-16 unit.
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz._';

export async function parseMsi(source: SourceReader, options: Required<ParseOptions>): Promise<ParsedPackage> {
  const properties = await labelled(source, 'msi', async (file) => {
    const cfb = await CfbFile.open(file, options.maxEntrySize);
    const stream = async (name: string): Promise<Buffer> => {
      const entry = cfb.entries.find((candidate) => candidate.type === 2 && decodeStreamName(candidate.name) === name);
      if (!entry) throw new PackageParseError(`msi: no ${name} table`);
      return cfb.readStream(entry);
    };
    return readPropertyTable(await stream('!_StringPool'), await stream('!_StringData'), await stream('!Property'));
  });

  const name = properties.get('ProductName');
  const version = properties.get('ProductVersion');
  if (!name || !version) throw new PackageParseError('msi: Property table lacks ProductName or ProductVersion');
  const upgradeCode = properties.get('UpgradeCode');
  const productCode = properties.get('ProductCode');
  return {
    format: 'msi',
    platform: 'Windows',
    deviceType: 'Windows',
    name,
    // UpgradeCode stays the same across versions of a product; ProductCode changes with each.
    bundleId: upgradeCode ?? productCode ?? name,
    releaseVersion: version,
    // Windows Installer defines ProductVersion as major.minor.build.
    buildVersion: version.split('.')[2] ?? '0',
    details: {
      manufacturer: properties.get('Manufacturer'),
      productCode,
      upgradeCode,
      language: properties.get('ProductLanguage'),
    },
  };
}

export function decodeStreamName(name: string): string {
  let out = '';
  for (const char of name) {
    const code = char.charCodeAt(0);
    if (code >= 0x3800 && code < 0x4800) {
      const value = code - 0x3800;
      out += (ALPHABET[value & 0x3f] ?? '') + (ALPHABET[(value >> 6) & 0x3f] ?? '');
    } else if (code >= 0x4800 && code < 0x4840) {
      out += ALPHABET[code - 0x4800] ?? '';
    } else if (code === 0x4840) {
      out += '!';
    } else {
      out += char;
    }
  }
  return out;
}

/** The Property table: two string columns, stored column by column as indexes into the string pool. */
function readPropertyTable(pool: Buffer, data: Buffer, table: Buffer): Map<string, string> {
  if (pool.length < 4) throw new PackageParseError('msi: string pool too short');
  const header = pool.readUInt32LE(0);
  const codepage = header & 0xfffff;
  const refSize = header & 0x80000000 ? 3 : 2;
  const encoding: BufferEncoding = codepage === 65001 ? 'utf8' : 'latin1';

  const strings: string[] = [''];
  let offset = 0;
  for (let i = 4; i + 4 <= pool.length; i += 4) {
    let length = pool.readUInt16LE(i);
    const refs = pool.readUInt16LE(i + 2);
    // A zero length with references means the real length is in the next record (strings > 64 KiB).
    if (length === 0 && refs !== 0 && i + 8 <= pool.length) {
      length = pool.readUInt32LE(i + 4);
      i += 4;
    }
    if (offset + length > data.length) throw new PackageParseError('msi: string pool points past the string data');
    strings.push(data.toString(encoding, offset, offset + length));
    offset += length;
  }

  const rowCount = Math.floor(table.length / (2 * refSize));
  const ref = (position: number): number => (refSize === 2 ? table.readUInt16LE(position) : table.readUIntLE(position, 3));
  const properties = new Map<string, string>();
  for (let row = 0; row < rowCount; row++) {
    const key = strings[ref(row * refSize)];
    const value = strings[ref((rowCount + row) * refSize)];
    if (key) properties.set(key, value ?? '');
  }
  return properties;
}
