import { Readable } from 'node:stream';
import { openSource, type ByteSource } from '../packages/byte-source';
import { markSourceFailure } from '../packages/source-failure';
import { DebugFileParseError } from './debug-file-parse.error';
import type { DebugMemberStore } from './debug-file.types';

/**
 * Positional reads of one debug file (an ELF, a PDB, a PE image, a Breakpad file, or a member
 * stored from an archive) over any ByteSource: a local file, a stored object read by range. A read
 * past the end is the upload's fault (a truncated file), told with what was being read; the
 * source's own failures (disk, storage outage) pass through unchanged.
 */
export class DebugFileReader {
  constructor(
    private readonly source: ByteSource,
    /** What the file is, for messages: "ELF file", "PDB file". */
    private readonly label: string,
  ) {}

  get size(): number {
    return this.source.size;
  }

  /** Exactly `length` bytes at `offset`; `what` names them in the error when they lie past the end. */
  async read(offset: number, length: number, what: string): Promise<Buffer> {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > this.size) {
      throw new DebugFileParseError(`truncated ${this.label}: ${what} (${length} bytes at ${offset}) lies past its end (${this.size} bytes)`);
    }
    if (length === 0) return Buffer.alloc(0);
    const data = await this.source.read(offset, length);
    if (data.length !== length) throw new DebugFileParseError(`truncated ${this.label}: ${what}`);
    return data;
  }

  /** Up to `length` bytes from the start: fewer when the file is shorter. */
  head(length: number): Promise<Buffer> {
    return this.read(0, Math.min(length, this.size), 'its first bytes');
  }
}

/**
 * Runs `work` on the file: a path is opened here and closed after; a ByteSource handed in stays
 * open, since whoever opened it (the parse of an archive, a storage reader) reads more of it.
 */
export async function withDebugFile<T>(file: string | ByteSource, label: string, work: (reader: DebugFileReader) => Promise<T>): Promise<T> {
  const source = await openSource(file, label);
  try {
    return await work(new DebugFileReader(source, label));
  } finally {
    if (typeof file === 'string') await source.close();
  }
}

const STREAM_CHUNK_BYTES = 1024 * 1024;

/**
 * The source's bytes front to back, a chunk at a time (for a tar, which is read once in order).
 * Its failures are marked as the source's, so no parse-error wrapping takes them for the upload's.
 */
export function streamOf(source: ByteSource): Readable {
  if (source.stream && source.size > 0) return source.stream(0, source.size).on('error', (error) => markSourceFailure(error));
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let at = 0; at < source.size; at += STREAM_CHUNK_BYTES) {
      yield await source.read(at, Math.min(STREAM_CHUNK_BYTES, source.size - at)).catch((error: unknown) => {
        throw markSourceFailure(error);
      });
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** The source as it is, except that closing it does nothing: for readers that close what they are given. */
export function unclosable(source: ByteSource): ByteSource {
  return {
    size: source.size,
    read: (offset, length) => source.read(offset, length),
    ...(source.stream ? { stream: (offset: number, length: number) => source.stream!(offset, length) } : {}),
    close: async () => undefined,
  };
}

/**
 * The store's own failures (storage down, disk full) marked as the server's, never the upload's
 * fault. A put that fails because reading the member failed (a damaged archive) fails with that
 * reading's error, as it is: the parse says what is wrong with the upload.
 */
export function markedStore(store: DebugMemberStore): DebugMemberStore {
  return {
    async put(index, bytes) {
      let readFailure: { error: unknown } | undefined;
      async function* watched(): AsyncGenerator<Buffer> {
        try {
          yield* bytes;
        } catch (error) {
          readFailure = { error };
          throw error;
        }
      }
      try {
        await store.put(index, watched());
      } catch (error) {
        throw readFailure ? readFailure.error : markSourceFailure(error);
      }
    },
    open: (index) =>
      store.open(index).catch((error: unknown) => {
        throw markSourceFailure(error);
      }),
  };
}
