import { Readable } from 'node:stream';
import yauzl from 'yauzl';
import type { ByteSource } from './byte-source';
import { assertEntrySize } from './entry-limits';
import { PackageParseError } from './package.errors';
import { isSourceFailure, markSourceFailure } from './source-failure';

// Real apps have tens of thousands of entries at most; millions means a hostile central directory.
const MAX_ENTRIES = 500_000;

// Bytes asked of the source per step while streaming a member: small enough that memory stays
// flat, large enough that a ranged source (S3) does not see a request per few bytes.
const STREAM_CHUNK = 64 * 1024;

/**
 * yauzl's view of a ByteSource. yauzl reads the end record and central directory through `read`
 * and a member's data through `_readStreamForRange`; both only touch the ranges asked for. Reads
 * are clipped at the end of the source, as fs reads are, so a truncated archive is reported by
 * yauzl ("unexpected EOF", "not enough bytes"). Closing is left to the source's owner.
 */
class ByteSourceReader extends yauzl.RandomAccessReader {
  constructor(private readonly source: ByteSource) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    const source = this.source;
    const stop = Math.min(end, source.size);
    let position = start;
    return new Readable({
      highWaterMark: STREAM_CHUNK,
      read() {
        if (position >= stop) {
          this.push(null);
          return;
        }
        const length = Math.min(STREAM_CHUNK, stop - position);
        const at = position;
        position += length;
        source.read(at, length).then(
          (chunk) => {
            if (!this.destroyed) this.push(chunk);
          },
          (error: unknown) => this.destroy(markSourceFailure(error) as Error),
        );
      },
    });
  }

  override read(buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null, bytesRead?: number) => void): void {
    const available = Math.max(0, Math.min(length, this.source.size - position));
    if (available === 0) {
      setImmediate(() => callback(null, 0));
      return;
    }
    this.source.read(position, available).then(
      (chunk) => {
        chunk.copy(buffer, offset);
        callback(null, chunk.length);
      },
      (error: unknown) => callback(markSourceFailure(error) as Error),
    );
  }

  override close(callback: (err: Error | null) => void): void {
    setImmediate(() => callback(null));
  }
}

export interface ZipEntryInfo {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
}

/**
 * A zip opened through its central directory only. Members are inflated one at a time on request,
 * bounded by `maxEntrySize`; yauzl itself rejects path-traversal names and entries whose inflated
 * size disagrees with the declared one.
 */
export class ZipArchive {
  private readonly byName = new Map<string, yauzl.Entry>();
  readonly entries: readonly ZipEntryInfo[];

  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly maxEntrySize: number,
    raw: yauzl.Entry[],
  ) {
    for (const entry of raw) this.byName.set(entry.fileName, entry);
    this.entries = raw.map((entry) => ({
      name: entry.fileName,
      compressedSize: entry.compressedSize,
      uncompressedSize: entry.uncompressedSize,
    }));
  }

  /** Reads the central directory of the zip in `source`; the source stays open (its owner closes it). */
  static async open(source: ByteSource, maxEntrySize: number): Promise<ZipArchive> {
    const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
      yauzl.fromRandomAccessReader(new ByteSourceReader(source), source.size, { lazyEntries: true, autoClose: false }, (error, zipFile) => {
        if (error || !zipFile) reject(zipError(error));
        else resolve(zipFile);
      });
    });
    try {
      if (zip.entryCount > MAX_ENTRIES) throw new PackageParseError(`zip: ${zip.entryCount} entries is more than any package has`);
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
  async read(name: string): Promise<Buffer> {
    const entry = this.byName.get(name);
    if (!entry) throw new PackageParseError(`zip: entry "${name}" not found`);
    assertEntrySize('zip', name, entry.uncompressedSize, entry.compressedSize, this.maxEntrySize);
    return new Promise<Buffer>((resolve, reject) => {
      this.zip.openReadStream(entry, (error, stream) => {
        if (error || !stream) {
          reject(zipError(error));
          return;
        }
        const chunks: Buffer[] = [];
        let total = 0;
        stream.on('data', (chunk: Buffer) => {
          total += chunk.length;
          // yauzl checks this too, but only at the end; stop early so memory stays bounded.
          if (total > entry.uncompressedSize || total > this.maxEntrySize) {
            stream.destroy(new PackageParseError(`zip: entry "${name}" inflates past its declared size`));
            return;
          }
          chunks.push(chunk);
        });
        stream.on('error', (streamError) => reject(zipError(streamError)));
        stream.on('end', () => resolve(Buffer.concat(chunks, total)));
      });
    });
  }

  /**
   * A member's bytes as they inflate, for a reader that goes through it once (a ProGuard mapping
   * of hundreds of megabytes): never held whole. yauzl ends the stream with an error when the
   * member inflates past its declared size.
   */
  async *stream(name: string): AsyncGenerator<Buffer> {
    const entry = this.byName.get(name);
    if (!entry) throw new PackageParseError(`zip: entry "${name}" not found`);
    if (entry.isEncrypted()) throw new PackageParseError(`zip: entry "${name}" is encrypted`);
    const stream = await new Promise<Readable>((resolve, reject) => {
      this.zip.openReadStream(entry, (error, opened) => (error || !opened ? reject(zipError(error)) : resolve(opened)));
    });
    try {
      for await (const chunk of stream) yield chunk as Buffer;
    } catch (error) {
      throw zipError(error);
    } finally {
      stream.destroy();
    }
  }

  /** The first bytes of a member (e.g. a Mach-O header) without inflating the rest of it. */
  async readHead(name: string, length: number): Promise<Buffer> {
    const entry = this.byName.get(name);
    if (!entry) throw new PackageParseError(`zip: entry "${name}" not found`);
    return new Promise<Buffer>((resolve, reject) => {
      this.zip.openReadStream(entry, (error, stream) => {
        if (error || !stream) {
          reject(zipError(error));
          return;
        }
        const chunks: Buffer[] = [];
        let total = 0;
        const finish = (): void => {
          stream.removeAllListeners('data');
          stream.on('error', () => undefined);
          stream.destroy();
          resolve(Buffer.concat(chunks).subarray(0, length));
        };
        stream.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          total += chunk.length;
          if (total >= length) finish();
        });
        stream.on('error', (streamError) => reject(zipError(streamError)));
        stream.on('end', () => resolve(Buffer.concat(chunks).subarray(0, length)));
      });
    });
  }

  close(): void {
    this.zip.close();
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

function zipError(error: unknown): Error {
  if (error instanceof PackageParseError) return error;
  // The source failed (disk, network): not a broken archive, so it passes through as it is.
  if (isSourceFailure(error)) return error as Error;
  const reason = error instanceof Error ? error.message : 'unreadable archive';
  return new PackageParseError(`zip: corrupt or truncated archive (${reason})`, { cause: error });
}
