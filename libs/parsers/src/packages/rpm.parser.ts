import { PackageParseError } from './package.errors';
import type { ParsedPackage, ParseOptions } from './package.types';
import { labelled, type PositionalReader, type SourceReader } from './byte-source';

const LEAD_SIZE = 96;
const HEADER_MAGIC = 0x8eade801;
const MAX_INDEX_ENTRIES = 100_000;

const TAG = {
  name: 1000,
  version: 1001,
  release: 1002,
  epoch: 1003,
  summary: 1004,
  vendor: 1011,
  license: 1014,
  group: 1016,
  url: 1020,
  os: 1021,
  arch: 1022,
} as const;

const TYPE_INT32 = 4;
const TYPE_STRING = 6;
const TYPE_STRING_ARRAY = 8;
const TYPE_I18NSTRING = 9;

type HeaderValues = Map<number, string | number>;

/** Reads an RPM's lead, skips the signature header and decodes the main header's index and store. */
export async function parseRpm(source: SourceReader, options: Required<ParseOptions>): Promise<ParsedPackage> {
  const values = await labelled(source, 'rpm', async (file) => {
    const signature = await readHeaderSection(file, LEAD_SIZE, options.maxEntrySize);
    // The signature section is padded so the main header starts on an 8-byte boundary.
    const mainOffset = signature.end + ((8 - (signature.end % 8)) % 8);
    return (await readHeaderSection(file, mainOffset, options.maxEntrySize)).values;
  });

  const name = stringTag(values, TAG.name);
  const version = stringTag(values, TAG.version);
  if (!name || !version) throw new PackageParseError('rpm: header lacks Name or Version');
  return {
    format: 'rpm',
    platform: 'Linux',
    deviceType: 'Linux',
    name,
    bundleId: name,
    releaseVersion: version,
    buildVersion: stringTag(values, TAG.release) ?? '0',
    details: {
      summary: stringTag(values, TAG.summary),
      epoch: values.get(TAG.epoch),
      architecture: stringTag(values, TAG.arch),
      os: stringTag(values, TAG.os),
      license: stringTag(values, TAG.license),
      vendor: stringTag(values, TAG.vendor),
      group: stringTag(values, TAG.group),
      url: stringTag(values, TAG.url),
    },
  };
}

async function readHeaderSection(file: PositionalReader, offset: number, maxSize: number): Promise<{ values: HeaderValues; end: number }> {
  const intro = await file.read(offset, 16);
  if (intro.readUInt32BE(0) !== HEADER_MAGIC) throw new PackageParseError(`rpm: no header structure at offset ${offset}`);
  const count = intro.readUInt32BE(8);
  const storeSize = intro.readUInt32BE(12);
  if (count > MAX_INDEX_ENTRIES || storeSize > maxSize) throw new PackageParseError(`rpm: header at offset ${offset} is implausibly large`);
  const index = await file.read(offset + 16, count * 16);
  const store = await file.read(offset + 16 + count * 16, storeSize);

  const values: HeaderValues = new Map();
  for (let i = 0; i < count; i++) {
    const tag = index.readUInt32BE(i * 16);
    const type = index.readUInt32BE(i * 16 + 4);
    const dataOffset = index.readUInt32BE(i * 16 + 8);
    if (!Object.values(TAG).includes(tag as never) || dataOffset >= storeSize) continue;
    if (type === TYPE_STRING || type === TYPE_I18NSTRING || type === TYPE_STRING_ARRAY) {
      const end = store.indexOf(0, dataOffset);
      values.set(tag, store.toString('utf8', dataOffset, end < 0 ? storeSize : end));
    } else if (type === TYPE_INT32 && dataOffset + 4 <= storeSize) {
      values.set(tag, store.readUInt32BE(dataOffset));
    }
  }
  return { values, end: offset + 16 + count * 16 + storeSize };
}

function stringTag(values: HeaderValues, tag: number): string | undefined {
  const value = values.get(tag);
  return typeof value === 'string' && value !== '' ? value : undefined;
}
