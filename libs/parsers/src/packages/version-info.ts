import { utf16le } from './utf16';

// VS_VERSIONINFO, the RT_VERSION resource of Windows executables: a tree of length-prefixed
// blocks, each with a UTF-16 key, an optional value and children aligned to 4 bytes.

export interface VersionInfo {
  strings: Record<string, string>;
  fileVersion?: string;
  productVersion?: string;
}

interface Block {
  key: string;
  value: Buffer;
  valueIsText: boolean;
  children: Block[];
}

export function readVersionInfo(data: Buffer): VersionInfo | undefined {
  const root = readBlock(data, 0, data.length, 0);
  if (!root || root.key !== 'VS_VERSION_INFO') return undefined;
  const info: VersionInfo = { strings: {} };
  if (root.value.length >= 52 && root.value.readUInt32LE(0) === 0xfeef04bd) {
    info.fileVersion = fourPart(root.value.readUInt32LE(8), root.value.readUInt32LE(12));
    info.productVersion = fourPart(root.value.readUInt32LE(16), root.value.readUInt32LE(20));
  }
  for (const table of root.children.find((child) => child.key === 'StringFileInfo')?.children ?? []) {
    for (const entry of table.children) {
      const text = utf16le(entry.value).replace(/\0+$/, '').trim();
      // The first table wins: it is the default language in every tool we have seen.
      if (text && !(entry.key in info.strings)) info.strings[entry.key] = text;
    }
  }
  return info;
}

function readBlock(data: Buffer, offset: number, limit: number, depth: number): Block | undefined {
  if (depth > 4 || offset + 6 > limit) return undefined;
  const length = data.readUInt16LE(offset);
  const valueLength = data.readUInt16LE(offset + 2);
  const type = data.readUInt16LE(offset + 4);
  const end = Math.min(offset + length, limit);
  if (length < 6) return undefined;
  let cursor = offset + 6;
  let key = '';
  while (cursor + 2 <= end) {
    const code = data.readUInt16LE(cursor);
    cursor += 2;
    if (code === 0) break;
    key += String.fromCharCode(code);
  }
  cursor = align4(cursor);
  // For text values wValueLength counts UTF-16 units, for binary ones bytes.
  const valueBytes = type === 1 ? valueLength * 2 : valueLength;
  const value = data.subarray(cursor, Math.min(cursor + valueBytes, end));
  cursor = align4(cursor + valueBytes);
  const children: Block[] = [];
  while (cursor + 6 <= end) {
    const child = readBlock(data, cursor, end, depth + 1);
    const childLength = data.readUInt16LE(cursor);
    if (!child || childLength === 0) break;
    children.push(child);
    cursor = align4(cursor + childLength);
  }
  return { key, value, valueIsText: type === 1, children };
}

function align4(offset: number): number {
  return (offset + 3) & ~3;
}

function fourPart(ms: number, ls: number): string {
  return [ms >>> 16, ms & 0xffff, ls >>> 16, ls & 0xffff].join('.');
}
