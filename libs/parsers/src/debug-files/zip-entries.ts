import { openSource, type ByteSource } from '../packages/byte-source';
import { isSourceFailure } from '../packages/source-failure';
import { ZipArchive, ZipFormatError, type ZipEntryInfo } from '../packages/zip-reader';
import { DebugFileParseError, InflationLimitError, isSystemError } from './debug-file-parse.error';
import { type DebugFileLimits, overRatio } from './debug-file.types';

/** A file of the upload as its directory lists it; its name already checked to stay inside the archive. */
export type ZipEntry = ZipEntryInfo;

/**
 * Read-only view of an uploaded zip through the library's one zip reader (`ZipArchive`): the
 * central directory is listed once, up front and judged against the upload limits before a byte
 * is inflated; entry contents are only ever streamed or read small, so nothing large is held in
 * memory. Errors are the upload's (DebugFileParseError) or the server's, passed through.
 */
export class ZipEntries {
  private constructor(
    private readonly zip: ZipArchive,
    private readonly source: ByteSource,
    /** File entries only: directories, symlinks and Finder noise are left out. */
    readonly files: readonly ZipEntry[],
  ) {}

  /** A path is opened here; a ByteSource is used as it is. Either is closed with the archive. */
  static async open(upload: string | ByteSource, limits: DebugFileLimits): Promise<ZipEntries> {
    const source = await openSource(upload, 'zip');
    try {
      const zip = await ZipArchive.open(source, limits.maxEntryBytes, limits.maxEntries).catch((error: unknown) => {
        throw asParseError(error, 'not a readable zip archive');
      });
      try {
        return new ZipEntries(zip, source, filesWithinLimits(zip.entries, limits));
      } catch (error) {
        zip.close();
        throw error;
      }
    } catch (error) {
      await source.close();
      throw error;
    }
  }

  /**
   * The entry's decompressed bytes. yauzl checks the actual byte count against the declared size
   * while streaming, so a lying header surfaces as an error instead of an unbounded inflate.
   */
  async *chunks(entry: ZipEntry): AsyncGenerator<Buffer> {
    try {
      yield* this.zip.stream(entry);
    } catch (error) {
      throw asParseError(error, `cannot read ${entry.name}`);
    }
  }

  /** The first bytes of an entry, without inflating the rest. */
  head(entry: ZipEntry, length: number): Promise<Buffer> {
    return this.zip.readHead(entry, length).catch((error: unknown) => {
      throw asParseError(error, `cannot read ${entry.name}`);
    });
  }

  /** Whole content of a small entry; refuses anything declared larger than `maxBytes`. */
  async readSmall(entry: ZipEntry, maxBytes: number): Promise<Buffer> {
    if (entry.uncompressedSize > maxBytes) {
      throw new DebugFileParseError(`${entry.name} is ${entry.uncompressedSize} bytes, more than the ${maxBytes} allowed`);
    }
    return this.zip.read(entry).catch((error: unknown) => {
      throw asParseError(error, `cannot read ${entry.name}`);
    });
  }

  async close(): Promise<void> {
    this.zip.close();
    await this.source.close();
  }
}

/** `__MACOSX/` resource forks and `._*` AppleDouble files mimic real paths but hold no symbols. */
export function isArchiveNoise(name: string): boolean {
  const segments = name.split('/');
  const base = segments[segments.length - 1] ?? '';
  return segments[0] === '__MACOSX' || base.startsWith('._') || base === '.DS_Store';
}

export function baseName(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}

/**
 * yauzl already rejects these names while decoding; checking again keeps the guarantee if the
 * decoding options ever change, and documents what "safe" means here.
 */
export function unsafeNameReason(name: string): string | undefined {
  if (name.includes('\0')) return 'contains a NUL byte';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'is an absolute path';
  if (name.includes('\\')) return 'contains a backslash';
  if (name.split('/').includes('..')) return 'climbs out of the archive with ".."';
  return undefined;
}

/**
 * The files of the directory, once every entry is judged: bombs are refused from what the
 * directory declares, before a byte is inflated (the zip reader then stops any entry that
 * inflates past its declared size).
 */
function filesWithinLimits(entries: readonly ZipEntryInfo[], limits: DebugFileLimits): ZipEntry[] {
  const files: ZipEntry[] = [];
  let declaredTotal = 0;
  let compressedTotal = 0;
  for (const entry of entries) {
    const { name, uncompressedSize, compressedSize } = entry;
    const unsafe = unsafeNameReason(name);
    if (unsafe) throw new DebugFileParseError(`entry name ${JSON.stringify(name)} ${unsafe}`);
    // Symlinks in an upload point at nothing we received; following them is never useful.
    if (name.endsWith('/') || entry.isSymlink || isArchiveNoise(name)) continue;
    if (uncompressedSize > limits.maxEntryBytes) {
      throw new DebugFileParseError(`${name} declares ${uncompressedSize} bytes, more than the ${limits.maxEntryBytes} allowed`);
    }
    if (overRatio(uncompressedSize, compressedSize, limits)) {
      throw new InflationLimitError(`${name} inflates ${compressedSize} bytes to ${uncompressedSize}, more than ${limits.maxCompressionRatio} times (a decompression bomb?)`);
    }
    declaredTotal += uncompressedSize;
    compressedTotal += compressedSize;
    if (declaredTotal > limits.maxTotalBytes) {
      throw new InflationLimitError(`the archive declares more than the ${limits.maxTotalBytes} bytes allowed once inflated`);
    }
    if (overRatio(declaredTotal, compressedTotal, limits)) {
      throw new InflationLimitError(`the archive inflates ${compressedTotal} bytes to ${declaredTotal}, more than ${limits.maxCompressionRatio} times (a decompression bomb?)`);
    }
    files.push(entry);
  }
  return files;
}

/**
 * The zip reader's own refusals (entry count, encryption) read as they are; damage that yauzl or
 * the inflater found is told with what was being read. The server's I/O errors pass through.
 */
function asParseError(error: unknown, context: string): Error {
  if (error instanceof DebugFileParseError || isSystemError(error) || isSourceFailure(error)) return error as Error;
  if (error instanceof ZipFormatError && error.cause === undefined) return new DebugFileParseError(error.detail, { cause: error });
  const damage = error instanceof ZipFormatError ? error.cause : error;
  const message = (damage as { message?: unknown } | null)?.message;
  const reason = typeof message === 'string' ? message : String(damage);
  return new DebugFileParseError(`${context} (${reason})`, { cause: error });
}
