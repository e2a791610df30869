import { parseBuffer } from 'bplist-parser';
import { parse as parseXml } from 'plist';
import { PackageParseError } from './package.errors';

export type PlistDict = Record<string, unknown>;

/** Info.plist files come as XML or as Apple's binary format (bplist00), depending on the build tool. */
export function readPlist(buffer: Buffer, label: string): PlistDict {
  let value: unknown;
  try {
    value = decodePlist(buffer);
  } catch (error) {
    throw new PackageParseError(`${label}: unreadable property list (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  if (!isDict(value)) throw new PackageParseError(`${label}: property list is not a dictionary`);
  return value;
}

/**
 * For metadata that only adds to what is read elsewhere (a dSYM's Info.plist, a provisioning
 * profile): a plist that is unreadable or not a dictionary gives undefined instead of failing the parse.
 */
export function readOptionalPlist(buffer: Buffer): PlistDict | undefined {
  try {
    const value = decodePlist(buffer);
    return isDict(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function decodePlist(buffer: Buffer): unknown {
  if (buffer.subarray(0, 6).toString('latin1') === 'bplist') return parseBuffer(buffer)[0];
  // Some editors start XML with a byte order mark, which the XML parser refuses before the declaration.
  return parseXml(buffer.toString('utf8').replace(/^\uFEFF/, ''));
}

export function isDict(value: unknown): value is PlistDict {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value) && !(value instanceof Date);
}

export function plistString(dict: PlistDict, key: string): string | undefined {
  const value = dict[key];
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

export function plistArray(dict: PlistDict, key: string): unknown[] {
  const value = dict[key];
  return Array.isArray(value) ? value : [];
}

export function plistDict(dict: PlistDict, key: string): PlistDict | undefined {
  const value = dict[key];
  return isDict(value) ? value : undefined;
}
