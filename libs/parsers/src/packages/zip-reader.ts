import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import type { ByteSource } from './byte-source';
import { assertEntrySize } from './entry-limits';
import { PackageParseError } from './package.errors';
import { isSourceFailure } from './source-failure';
import { ByteSourceReader } from './zip-source-reader';

// Real apps have tens of thousands of entries at most; millions means a hostile central directory.
const MAX_ENTRIES = 500_000;

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

export interface ZipEntryInfo {
  readonly name: string;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  /** A Unix symlink: its data is a path to something else, not a file. */
  readonly isSymlink: boolean;
}

/**
 * A member by name, or as listed in `entries`: an archive may list one name twice, and a reader
 * that checked one listing must not be handed the other's bytes.
 */
export type ZipMember = string | ZipEntryInfo;

/**
 * The zip is broken or hostile: a PackageParseError, as the package parsers report it, that other
 * readers (debug files) reword from `detail`. `cause` is what yauzl or the inflater found damaged;
 * without one, this reader refused what the archive declares (too many entries, encryption).
 */
export class ZipFormatError extends PackageParseError {
  constructor(
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`zip: ${detail}`, options);
  }
}

/**
 * A zip opened through its central directory only, over any ByteSource (a local file, a ranged
 * reader over S3). Members are inflated one at a time on request, bounded by `maxEntrySize`;
 * yauzl itself rejects path-traversal names and entries whose inflated size disagrees with the
 * declared one. This is the one zip reader of the library: packages and debug files both use it.
 */
export class ZipArchive {
  private readonly byName = new Map<string, yauzl.Entry>();
  private readonly listed = new Map<ZipEntryInfo, yauzl.Entry>();
  readonly entries: readonly ZipEntryInfo[];

  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly maxEntrySize: number,
    raw: yauzl.Entry[],
  ) {
    this.entries = raw.map((entry) => {
      const info: ZipEntryInfo = {
        name: entry.fileName,
        compressedSize: entry.compressedSize,
        uncompressedSize: entry.uncompressedSize,
        isSymlink: isSymlink(entry),
      };
      this.byName.set(info.name, entry);
      this.listed.set(info, entry);
      return info;
    });
  }

  /**
   * Reads the central directory of the zip in `source`; the source stays open (its owner closes it).
   * More than `maxEntries` is refused from the end record, before any entry is listed.
   */
  static async open(source: ByteSource, maxEntrySize: number, maxEntries = MAX_ENTRIES): Promise<ZipArchive> {
    const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
      yauzl.fromRandomAccessReader(
        new ByteSourceReader(source),
        source.size,
        // Spelled out because the limits rest on them: names are checked while decoding, sizes while inflating.
        { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: true, strictFileNames: false },
        (error, zipFile) => {
          if (error || !zipFile) reject(zipError(error));
          else resolve(zipFile);
        },
      );
    });
    try {
      if (zip.entryCount > maxEntries) throw new ZipFormatError(`the archive lists ${zip.entryCount} entries, more than the ${maxEntries} allowed`);
      return new ZipArchive(zip, maxEntrySize, await listEntries(zip));
    } catch (error) {
      zip.close();
      throw error;
    }
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  names(): string[] {
    return this.entries.map((entry) => entry.name);
  }

  /** Inflates one member fully into memory after checking its declared size against the limits. */
  async read(member: ZipMember): Promise<Buffer> {
    const entry = this.entry(member);
    assertEntrySize('zip', entry.fileName, entry.uncompressedSize, entry.compressedSize, this.maxEntrySize);
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of this.inflate(entry)) {
      total += chunk.length;
      // yauzl checks this too; stopping here keeps memory at the declared size whatever it does.
      if (total > entry.uncompressedSize || total > this.maxEntrySize) throw new ZipFormatError(`entry "${entry.fileName}" inflates past its declared size`);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, total);
  }

  /**
   * A member's bytes as they inflate, for a reader that goes through it once (a ProGuard mapping
   * of hundreds of megabytes): never held whole. yauzl ends the stream with an error when the
   * member inflates past its declared size.
   */
  async *stream(member: ZipMember): AsyncGenerator<Buffer> {
    yield* this.inflate(this.entry(member));
  }

  /** The first bytes of a member (e.g. a Mach-O header) without inflating the rest of it. */
  async readHead(member: ZipMember, length: number): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of this.stream(member)) {
      chunks.push(chunk);
      total += chunk.length;
      if (total >= length) break;
    }
    return Buffer.concat(chunks).subarray(0, length);
  }

  close(): void {
    this.zip.close();
  }

  private entry(member: ZipMember): yauzl.Entry {
    const entry = typeof member === 'string' ? this.byName.get(member) : this.listed.get(member);
    if (!entry) throw new ZipFormatError(`entry "${typeof member === 'string' ? member : member.name}" not found`);
    return entry;
  }

  private async *inflate(entry: yauzl.Entry): AsyncGenerator<Buffer> {
    if (entry.isEncrypted()) throw new ZipFormatError(`entry "${entry.fileName}" is encrypted`);
    const stream = await new Promise<Readable>((resolve, reject) => {
      this.zip.openReadStream(entry, (error, opened) => (error || !opened ? reject(zipError(error)) : resolve(opened)));
    });
    try {
      for await (const chunk of stream) yield chunk as Buffer;
    } catch (error) {
      throw zipError(error);
    } finally {
      // Also when the reader stops early: the rest of a possibly huge member is never inflated.
      stream.destroy();
    }
  }
}

/** Opens, runs and always closes the zip (not the source, which belongs to the caller). */
export async function withZip<T>(source: ByteSource, maxEntrySize: number, work: (zip: ZipArchive) => Promise<T>): Promise<T> {
  const zip = await ZipArchive.open(source, maxEntrySize);
  try {
    return await work(zip);
  } finally {
    zip.close();
  }
}

function listEntries(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', (error: unknown) => reject(zipError(error)));
    zip.readEntry();
  });
}

function isSymlink(entry: yauzl.Entry): boolean {
  const madeByUnix = entry.versionMadeBy >> 8 === 3;
  return madeByUnix && ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK;
}

function zipError(error: unknown): Error {
  if (error instanceof PackageParseError) return error;
  // The source failed (disk, network): not a broken archive, so it passes through as it is.
  if (isSourceFailure(error)) return error as Error;
  const reason = error instanceof Error ? error.message : 'unreadable archive';
  return new ZipFormatError(`corrupt or truncated archive (${reason})`, { cause: error ?? reason });
}
