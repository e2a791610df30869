import { createHash } from 'node:crypto';
import fs from 'node:fs';

/**
 * Bytes per read and per socket write. A profile of the CLI sending 256 MiB spent most of its own
 * CPU on 64 KiB reads and the stream machinery around them (a Transform per request, a new buffer
 * per read); 1 MiB pieces through a few reused buffers cost a third of Node's own stream pipe.
 */
export const PIECE_BYTES = 1024 * 1024;
/** Pieces of one request at once: one being read while up to two are in the socket. */
const PIECES_IN_FLIGHT = 3;

/**
 * Pieces whose write has completed, kept for the next read: a fresh 1 MiB buffer per read is a
 * fresh mapping the kernel faults in and zeroes, and garbage for the collector (with 20 uploads at
 * once, that was most of a CLI's system time). Bounded: parallel parts share them.
 */
const spare: Buffer[] = [];
const SPARE_MAX = 12;
const takePiece = () => spare.pop() ?? Buffer.allocUnsafeSlow(PIECE_BYTES);
const givePiece = (piece: Buffer) => {
  if (spare.length < SPARE_MAX) spare.push(piece);
};

/**
 * The SHA-256 of a whole file, computed from the bytes read to send it: a piece read at the point
 * the hash has reached is hashed there and then, so a file sent in one stream is read and hashed
 * once (before, it was read twice: once to send, once more to hash). What no send supplies in
 * order — bytes an earlier run sent, parallel parts beyond the first — `complete()` reads itself;
 * parallel routes start it at once, so it runs beside the parts, as the whole-file hash did.
 */
export class FileDigest {
  private readonly hash = createHash('sha256');
  /** Bytes hashed so far, from the file's start. */
  private position = 0;
  private completed?: Promise<string>;

  constructor(
    readonly file: string,
    readonly size: number,
  ) {}

  /** Bytes at `offset` of the file: the part of them not yet hashed, if it starts where the hash is, is hashed now. */
  feed(offset: number, bytes: Buffer): void {
    const end = offset + bytes.length;
    if (offset > this.position || end <= this.position) return;
    this.hash.update(offset === this.position ? bytes : bytes.subarray(this.position - offset));
    this.position = end;
  }

  /** The hex digest, once every byte is hashed: what sends did not feed is read here. Started once; later calls share it. */
  complete(): Promise<string> {
    if (!this.completed) {
      this.completed = this.readRest();
      // Awaited later (before the finishing call): a read error must not be an unhandled rejection meanwhile.
      this.completed.catch(() => undefined);
    }
    return this.completed;
  }

  private async readRest(): Promise<string> {
    if (this.position < this.size) {
      const handle = await fs.promises.open(this.file, 'r');
      const piece = takePiece();
      try {
        while (this.position < this.size) {
          const at = this.position;
          const { bytesRead } = await handle.read(piece, 0, Math.min(piece.length, this.size - at), at);
          if (bytesRead === 0) throw new Error(`${this.file} ended after ${at} of its ${this.size} bytes: it changed while being sent`);
          // A send may have fed bytes past `at` while this read waited: feed hashes only what is new.
          this.feed(at, piece.subarray(0, bytesRead));
        }
      } finally {
        givePiece(piece);
        await handle.close();
      }
    }
    return this.hash.digest('hex');
  }
}

/** What a request body is written into: an http.ClientRequest. */
export interface BodySink {
  write(chunk: Buffer, callback: (err?: Error | null) => void): boolean;
  end(): unknown;
  destroy(err?: Error): unknown;
  readonly destroyed: boolean;
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}

/**
 * Writes bytes `start`…`end` of the file into `out` and ends it: each piece is read once, given to
 * `digest`, written, and its buffer reused once the socket has taken it (the write's callback), so a
 * request holds at most PIECES_IN_FLIGHT pieces. A failed read destroys `out` with the error; a
 * request that fails stops the reading (its error is the request's to report).
 */
export async function pumpFileRange(
  file: string,
  start: number,
  end: number,
  out: BodySink,
  options: { digest?: FileDigest; onBytes?: (written: number) => void } = {},
): Promise<void> {
  let inFlight = 0;
  let wake: (() => void) | undefined;
  const wakeUp = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  out.once('close', wakeUp);
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(file, 'r');
    for (let at = start; at < end; ) {
      while (inFlight >= PIECES_IN_FLIGHT && !out.destroyed) await new Promise<void>((r) => (wake = r));
      if (out.destroyed) return;
      const piece = takePiece();
      const { bytesRead } = await handle.read(piece, 0, Math.min(piece.length, end - at), at);
      if (bytesRead === 0) throw new Error(`${file} ended after ${at} bytes: it changed while being sent`);
      if (out.destroyed) return;
      const bytes = piece.subarray(0, bytesRead);
      options.digest?.feed(at, bytes);
      at += bytesRead;
      inFlight++;
      out.write(bytes, (err) => {
        inFlight--;
        // A failed write may still hold the buffer somewhere: it is dropped, not reused.
        if (!err) givePiece(piece);
        wakeUp();
      });
      options.onBytes?.(bytesRead);
    }
    out.end();
  } catch (err) {
    out.destroy(err as Error);
  } finally {
    out.off('close', wakeUp);
    await handle?.close();
  }
}
