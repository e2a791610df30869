import { parseAab } from './aab.parser';
import { parseApk } from './apk.parser';
import { parseAppImage } from './appimage.parser';
import { parseAppZip } from './app-zip.parser';
import { parseDeb } from './deb.parser';
import { parseDmg } from './dmg.parser';
import { parseExe } from './exe.parser';
import { parseMsi } from './msi.parser';
import { parseRpm } from './rpm.parser';
import { parseIpa } from './ipa.parser';
import { sniffContainer, type ContainerKind } from './magic';
import { withSource, type ByteSource, type SourceReader } from './byte-source';
import { asParseError, PackageParseError, UnknownPackageError } from './package.errors';
import { DEFAULT_MAX_ENTRY_SIZE, type ParsedPackage, type ParseOptions } from './package.types';
import { toJsonSafe } from './json-safe';
import { detectZipPackage, type ZipPackageFormat } from './zip-layout';
import { withZip, type ZipArchive } from './zip-reader';

// The source too, for what lies outside the zip's entries (an apk's signing block).
type ZipParser = (zip: ZipArchive, source: SourceReader) => Promise<ParsedPackage>;
type FileParser = (source: SourceReader, options: Required<ParseOptions>) => Promise<ParsedPackage>;

const ZIP_PARSERS: Record<ZipPackageFormat, ZipParser> = {
  ipa: parseIpa,
  apk: parseApk,
  aab: parseAab,
  'app-zip': parseAppZip,
};

const FILE_PARSERS: Record<Exclude<ContainerKind, 'zip'>, FileParser> = {
  deb: parseDeb,
  rpm: parseRpm,
  exe: parseExe,
  msi: parseMsi,
  appimage: parseAppImage,
  dmg: parseDmg,
};

/**
 * Reads a package's metadata from a file on local disk (a path) or any ByteSource (e.g. a ranged
 * reader over an object in S3), touching only the ranges each format needs. A ByteSource handed in
 * belongs to the parse and is closed when it ends, whatever happens. Throws PackageParseError when
 * the content is a known format but broken, UnknownPackageError when it is no format we know;
 * errors of the source itself (disk, network) pass through as they are.
 */
export async function parsePackage(source: string | ByteSource, opts: ParseOptions = {}): Promise<ParsedPackage> {
  const options: Required<ParseOptions> = { maxEntrySize: opts.maxEntrySize ?? DEFAULT_MAX_ENTRY_SIZE };
  const parsed = await withSource(source, 'package', async (reader) => {
    const container = await sniffContainer(reader);
    if (!container) throw new UnknownPackageError();
    try {
      if (container === 'zip') {
        return await withZip(reader.source, options.maxEntrySize, async (zip) => {
          const format = detectZipPackage(zip.names());
          if (!format) throw new UnknownPackageError('the zip archive is not an app package (no ipa, apk, aab or .app layout)');
          return ZIP_PARSERS[format](zip, reader.as(format));
        });
      }
      return await FILE_PARSERS[container](reader, options);
    } catch (error) {
      throw asParseError(container, error);
    }
  });
  return assertReasonableSizes({ ...parsed, details: toJsonSafe(parsed.details) });
}

// Real names, ids and versions are tens of characters; details a few KiB. A package claiming a
// 16 MB CFBundleVersion parsed fine but its reply overflowed the parsing worker's NATS message
// (max_payload 1 MiB), which crashed the releases service (hostile input). Such values
// are as broken as a bad header: refused here, with the field named.
const MAX_FIELD_CHARS = 4096;
const MAX_DETAILS_JSON_CHARS = 256 * 1024;
const TEXT_FIELDS = ['name', 'bundleId', 'releaseVersion', 'buildVersion', 'minOsVersion', 'releaseType', 'deviceType'] as const;

function assertReasonableSizes(parsed: ParsedPackage): ParsedPackage {
  for (const field of TEXT_FIELDS) {
    const value = parsed[field];
    if (typeof value === 'string' && value.length > MAX_FIELD_CHARS) {
      throw new PackageParseError(`${parsed.format}: ${field} is ${value.length} characters long, more than the ${MAX_FIELD_CHARS} a package can have`);
    }
  }
  const details = JSON.stringify(parsed.details).length;
  if (details > MAX_DETAILS_JSON_CHARS) throw new PackageParseError(`${parsed.format}: the package metadata is ${details} characters of JSON, more than ${MAX_DETAILS_JSON_CHARS}`);
  return parsed;
}
