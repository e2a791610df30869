import { createHash, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileDigest, PIECE_BYTES, pumpFileRange, type BodySink } from './file-pump';

/** A request body that keeps copies of what it is given; its write callbacks come a turn later, as a socket's do. */
class Sink extends EventEmitter implements BodySink {
  readonly received: Buffer[] = [];
  ended = false;
  destroyed = false;
  error: Error | undefined;
  /** Destroys itself once this many bytes are written, as a cut connection does. */
  constructor(private readonly cutAfter = Infinity) {
    super();
  }

  get bytes(): Buffer {
    return Buffer.concat(this.received);
  }

  write(chunk: Buffer, callback: (err?: Error | null) => void): boolean {
    this.received.push(Buffer.from(chunk));
    setImmediate(() => callback(this.destroyed ? new Error('destroyed') : null));
    if (this.bytes.length >= this.cutAfter) this.destroy(new Error('cut'));
    return true;
  }

  end(): void {
    this.ended = true;
  }

  destroy(err?: Error): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.error = err;
    setImmediate(() => this.emit('close'));
  }
}

describe('sending a file and hashing it from the same reads', () => {
  let dir: string;
  let file: string;
  let bytes: Buffer;
  const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-cli-pump-'));
    file = path.join(dir, 'build.bin');
    bytes = randomBytes(3 * PIECE_BYTES + 12_345);
    fs.writeFileSync(file, bytes);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('when a range is pumped, then the sink gets exactly those bytes, is ended, and progress adds up to them', async () => {
    const sink = new Sink();
    let reported = 0;
    await pumpFileRange(file, 1000, bytes.length - 7, sink, { onBytes: (n) => (reported += n) });
    expect(sink.bytes.equals(bytes.subarray(1000, bytes.length - 7))).toBe(true);
    expect({ ended: sink.ended, reported }).toEqual({ ended: true, reported: bytes.length - 7 - 1000 });
  });

  it('when the whole file is pumped in order with a digest, then the digest is the SHA-256 of the file, from those reads alone', async () => {
    const digest = new FileDigest(file, bytes.length);
    await pumpFileRange(file, 0, 2 * PIECE_BYTES, new Sink(), { digest });
    await pumpFileRange(file, 2 * PIECE_BYTES, bytes.length, new Sink(), { digest });
    // Every byte came through the pumps: nothing is left for complete() to read.
    fs.rmSync(file);
    expect(await digest.complete()).toBe(sha256(bytes));
  });

  it('when a request is cut and the range sent again from an earlier offset, then no byte is hashed twice', async () => {
    const digest = new FileDigest(file, bytes.length);
    const cut = new Sink(PIECE_BYTES + 1);
    await pumpFileRange(file, 0, bytes.length, cut, { digest });
    expect({ destroyed: cut.destroyed, ended: cut.ended }).toEqual({ destroyed: true, ended: false });
    await pumpFileRange(file, 1000, bytes.length, new Sink(), { digest });
    expect(await digest.complete()).toBe(sha256(bytes));
  });

  it('when the sends skip bytes (an earlier run sent them) or come out of order (parallel parts), then complete() reads what is missing', async () => {
    const resumed = new FileDigest(file, bytes.length);
    await pumpFileRange(file, PIECE_BYTES + 5, bytes.length, new Sink(), { digest: resumed });
    expect(await resumed.complete()).toBe(sha256(bytes));

    const parallel = new FileDigest(file, bytes.length);
    const hashing = parallel.complete();
    await Promise.all([
      pumpFileRange(file, 2 * PIECE_BYTES, bytes.length, new Sink(), { digest: parallel }),
      pumpFileRange(file, 0, 2 * PIECE_BYTES, new Sink(), { digest: parallel }),
    ]);
    expect(await hashing).toBe(sha256(bytes));
  });

  it('when the file is shorter than the range, then the sink is destroyed with an error saying so', async () => {
    const sink = new Sink();
    await pumpFileRange(file, 0, bytes.length + 10, sink);
    expect(sink.error?.message).toMatch(/ended after \d+ bytes: it changed while being sent/);
  });
});
