import type { Readable } from 'node:stream';
import { PackageParseError } from './package.errors';
import { RandomAccessFile } from './random-access-file';
import { markSourceFailure } from './source-failure';

/**
 * The one thing the format readers shared with debug-file parsing (Mach-O, PE) ask of their input:
 * exactly `length` bytes at `offset`. A package's sources offer it, and so does the debug files'
 * forward-only stream of a zip member, which has no `size` to offer.
 */
export interface ByteReader {
  read(offset: number, length: number): Promise<Buffer>;
}

/**
 * Where a package's bytes come from: a local file (`RandomAccessFile`), a ranged reader over an
 * object in S3, a buffer in a test. Parsers only ever ask for the few ranges they need.
 *
 * `read` resolves with exactly `length` bytes for any range inside `[0, size)`; callers never
 * ask outside it (`SourceReader` checks first). `close` may be called more than once.
 */
export interface ByteSource extends ByteReader {
  readonly size: number;
  close(): Promise<void>;
  /**
   * Optional: the `length` bytes at `offset` as one stream, for a member read front to back (a
   * debug file's ELF member, a mapping, a tar). A ranged source answers it with one GET instead
   * of a `read` per chunk through its block cache: half the copies, a fraction of the CPU.
   * Without it, readers fall back to `read` in chunks. Same bounds as `read`.
   */
  stream?(offset: number, length: number): Readable;
}

/** What the positional readers (ar, rpm, PE, CFB, squashfs, magic) need. */
export interface PositionalReader extends ByteReader {
  readonly size: number;
  readUpTo(offset: number, length: number): Promise<Buffer>;
}

/**
 * A bounds-checked view of a ByteSource with a label for messages. A read past the end means the
 * package is truncated, which is a parse error. It never closes the source: whoever opened it does.
 */
export class SourceReader implements PositionalReader {
  constructor(
    readonly source: ByteSource,
    private readonly label: string,
  ) {}

  get size(): number {
    return this.source.size;
  }

  /** The same source under another label (e.g. 'deb' once the container is known). */
  as(label: string): SourceReader {
    return new SourceReader(this.source, label);
  }

  /** Reads exactly `length` bytes; a short read means the file is truncated, which is a parse error. */
  async read(offset: number, length: number): Promise<Buffer> {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > this.size) {
      throw new PackageParseError(`${this.label}: truncated file (wanted ${length} bytes at offset ${offset} of ${this.size})`);
    }
    if (length === 0) return Buffer.alloc(0);
    let data: Buffer;
    try {
      data = await this.source.read(offset, length);
    } catch (error) {
      throw markSourceFailure(error);
    }
    if (data.length !== length) throw new PackageParseError(`${this.label}: truncated file`);
    return data;
  }

  /** Like read() but clipped to the end of the file, for sniffing headers of files of any size. */
  async readUpTo(offset: number, length: number): Promise<Buffer> {
    const available = Math.max(0, Math.min(length, this.size - offset));
    return this.read(offset, available);
  }
}

/** A path opens the local file; a ByteSource is used as it is. */
export async function openSource(source: string | ByteSource, label: string): Promise<ByteSource> {
  return typeof source === 'string' ? RandomAccessFile.open(source, label) : source;
}

/**
 * Opens (for a path), runs and always closes the source, whatever `work` throws: parsers never leak
 * descriptors or connections. A ByteSource handed in is closed too — it belongs to the parse.
 */
export async function withSource<T>(source: string | ByteSource, label: string, work: (reader: SourceReader) => Promise<T>): Promise<T> {
  const opened = await openSource(source, label);
  try {
    return await work(new SourceReader(opened, label));
  } finally {
    await opened.close();
  }
}

/** Runs `work` on the parse's open source under a format's label; the source stays open. */
export function labelled<T>(reader: SourceReader, label: string, work: (file: SourceReader) => Promise<T>): Promise<T> {
  return work(reader.as(label));
}
