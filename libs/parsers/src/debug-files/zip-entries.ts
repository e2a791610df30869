import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { DebugFileParseError, InflationLimitError, isSystemError } from './debug-file-parse.error';
import { type DebugFileLimits, overRatio } from './debug-file.types';

export interface ZipEntry {
  /** Path inside the archive, '/'-separated, already checked to stay inside the archive. */
  readonly name: string;
  readonly uncompressedSize: number;
  readonly raw: yauzl.Entry;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/**
 * Read-only view of a zip on disk: the central directory is listed once, up front and bounded;
 * entry contents are only ever streamed, so nothing large is held in memory.
 */
export class ZipEntries {
  private constructor(
    private readonly zipfile: yauzl.ZipFile,
    /** File entries only: directories, symlinks and Finder noise are left out. */
    readonly files: readonly ZipEntry[],
  ) {}

  static async open(path: string, limits: DebugFileLimits): Promise<ZipEntries> {
    const zipfile = await openZip(path);
    try {
      const files = await listFiles(zipfile, limits);
      return new ZipEntries(zipfile, files);
    } catch (error) {
      zipfile.close();
      throw error;
    }
  }

  /**
   * The entry's decompressed bytes. yauzl checks the actual byte count against the declared size
   * while streaming, so a lying header surfaces as a stream error instead of an unbounded inflate.
   */
  async openStream(entry: ZipEntry): Promise<Readable> {
    if (entry.raw.isEncrypted()) {
      throw new DebugFileParseError(`${entry.name} is encrypted`);
    }
    return new Promise((resolve, reject) => {
      this.zipfile.openReadStream(entry.raw, (error, stream) => {
        if (error) reject(asParseError(error, `cannot read ${entry.name}`));
        else resolve(stream);
      });
    });
  }

  /** Iterates the entry's bytes, turning corrupt-data errors into DebugFileParseError. */
  async *chunks(entry: ZipEntry): AsyncGenerator<Buffer> {
    const stream = await this.openStream(entry);
    try {
      for await (const chunk of stream) yield chunk as Buffer;
    } catch (error) {
      throw asParseError(error, `cannot read ${entry.name}`);
    } finally {
      stream.destroy();
    }
  }

  /** Whole content of a small entry; refuses anything declared larger than `maxBytes`. */
  async readSmall(entry: ZipEntry, maxBytes: number): Promise<Buffer> {
    if (entry.uncompressedSize > maxBytes) {
      throw new DebugFileParseError(`${entry.name} is ${entry.uncompressedSize} bytes, more than the ${maxBytes} allowed`);
    }
    const parts: Buffer[] = [];
    for await (const chunk of this.chunks(entry)) parts.push(chunk);
    return Buffer.concat(parts);
  }

  close(): void {
    this.zipfile.close();
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

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      path,
      { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: true, strictFileNames: false },
      (error, zipfile) => {
        if (error) reject(asParseError(error, 'not a readable zip archive'));
        else resolve(zipfile);
      },
    );
  });
}

async function listFiles(zipfile: yauzl.ZipFile, limits: DebugFileLimits): Promise<ZipEntry[]> {
  // The end-of-central-directory record states the count before any entry is read.
  if (zipfile.entryCount > limits.maxEntries) {
    throw new DebugFileParseError(`the archive lists ${zipfile.entryCount} entries, more than the ${limits.maxEntries} allowed`);
  }
  const files: ZipEntry[] = [];
  let declaredTotal = 0;
  let compressedTotal = 0;
  for (;;) {
    const entry = await nextEntry(zipfile);
    if (!entry) return files;
    const name = entry.fileName;
    const unsafe = unsafeNameReason(name);
    if (unsafe) throw new DebugFileParseError(`entry name ${JSON.stringify(name)} ${unsafe}`);
    if (name.endsWith('/') || isSymlink(entry) || isArchiveNoise(name)) continue;
    if (entry.uncompressedSize > limits.maxEntryBytes) {
      throw new DebugFileParseError(`${name} declares ${entry.uncompressedSize} bytes, more than the ${limits.maxEntryBytes} allowed`);
    }
    // Bombs are refused from the directory, before a byte is inflated: yauzl (validateEntrySizes)
    // then stops any entry that inflates past what it declared.
    if (overRatio(entry.uncompressedSize, entry.compressedSize, limits)) {
      throw new InflationLimitError(`${name} inflates ${entry.compressedSize} bytes to ${entry.uncompressedSize}, more than ${limits.maxCompressionRatio} times (a decompression bomb?)`);
    }
    declaredTotal += entry.uncompressedSize;
    compressedTotal += entry.compressedSize;
    if (declaredTotal > limits.maxTotalBytes) {
      throw new InflationLimitError(`the archive declares more than the ${limits.maxTotalBytes} bytes allowed once inflated`);
    }
    if (overRatio(declaredTotal, compressedTotal, limits)) {
      throw new InflationLimitError(`the archive inflates ${compressedTotal} bytes to ${declaredTotal}, more than ${limits.maxCompressionRatio} times (a decompression bomb?)`);
    }
    files.push({ name, uncompressedSize: entry.uncompressedSize, raw: entry });
  }
}

function nextEntry(zipfile: yauzl.ZipFile): Promise<yauzl.Entry | undefined> {
  return new Promise((resolve, reject) => {
    const cleanup = (): void => {
      zipfile.off('entry', onEntry);
      zipfile.off('end', onEnd);
      zipfile.off('error', onError);
    };
    const onEntry = (entry: yauzl.Entry): void => {
      cleanup();
      resolve(entry);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(undefined);
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(asParseError(error, 'the zip directory is damaged'));
    };
    zipfile.on('entry', onEntry);
    zipfile.on('end', onEnd);
    zipfile.on('error', onError);
    zipfile.readEntry();
  });
}

// Symlinks in an upload point at nothing we received; following them is never useful.
function isSymlink(entry: yauzl.Entry): boolean {
  const madeByUnix = entry.versionMadeBy >> 8 === 3;
  return madeByUnix && ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK;
}

function asParseError(error: unknown, context: string): Error {
  if (error instanceof DebugFileParseError || isSystemError(error)) return error as Error;
  const message = (error as { message?: unknown } | null)?.message;
  const reason = typeof message === 'string' ? message : String(error);
  return new DebugFileParseError(`${context} (${reason})`, { cause: error });
}
