import { Readable } from 'node:stream';
import yauzl from 'yauzl';
import type { ByteSource } from './byte-source';
import { markSourceFailure } from './source-failure';

// Bytes asked of the source per step while streaming a member: small enough that memory stays
// flat, large enough that a ranged source (S3) does not see a request per few bytes.
const STREAM_CHUNK = 64 * 1024;
// How far into a member reads go through `read` (whose block cache serves many small members and
// heads from a GET or two) before the rest comes as one stream, when the source offers one.
const DIRECT_STREAM_AFTER = 1024 * 1024;

/**
 * yauzl's view of a ByteSource. yauzl reads the end record and central directory through `read`
 * and a member's data through `_readStreamForRange`; both only touch the ranges asked for. Reads
 * are clipped at the end of the source, as fs reads are, so a truncated archive is reported by
 * yauzl ("unexpected EOF", "not enough bytes"). Closing is left to the source's owner.
 */
export class ByteSourceReader extends yauzl.RandomAccessReader {
  constructor(private readonly source: ByteSource) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    const source = this.source;
    const stop = Math.min(end, source.size);
    let position = start;
    // Past its first MiB, a member read on to its end comes as one stream when the source offers
    // it (one GET from S3 instead of a `read` per chunk through the block cache). The first MiB
    // goes through `read`: a reader after a member's head only (an ELF magic) costs no GET of its own.
    let direct: Readable | undefined;
    const member = new Readable({
      highWaterMark: STREAM_CHUNK,
      read() {
        if (direct) {
          direct.resume();
          return;
        }
        if (position >= stop) {
          this.push(null);
          return;
        }
        if (source.stream && position - start >= DIRECT_STREAM_AFTER) {
          direct = source.stream(position, stop - position);
          direct.on('data', (chunk: Buffer) => {
            if (!member.push(chunk)) direct!.pause();
          });
          direct.on('end', () => member.push(null));
          direct.on('error', (error) => member.destroy(markSourceFailure(error) as Error));
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
      destroy(error, callback) {
        direct?.destroy();
        callback(error);
      },
    });
    return member;
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
