import type { ByteReader } from '../packages/byte-source';

export class TruncatedInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TruncatedInputError';
  }
}

/**
 * Positional reads over a byte stream that only moves forward. Bytes before the requested offset
 * are dropped as they arrive, so memory stays at the size of the largest single read however big
 * the stream is — which is what lets a multi-hundred-MB DWARF file be inspected without a temp file.
 */
export class ForwardReader implements ByteReader {
  private readonly source: AsyncIterator<Buffer>;
  private buffered: Buffer = Buffer.alloc(0);
  /** Absolute offset of `buffered[0]`. */
  private bufferedStart = 0;

  constructor(source: AsyncIterable<Buffer>) {
    this.source = source[Symbol.asyncIterator]();
  }

  /** Exactly `length` bytes at `offset`; offsets must not go below the previous read's offset. */
  async read(offset: number, length: number): Promise<Buffer> {
    if (offset < this.bufferedStart) {
      throw new RangeError(`cannot read back to offset ${offset}; the stream is already at ${this.bufferedStart}`);
    }
    const end = offset + length;
    this.dropBefore(offset);
    const parts: Buffer[] = [this.buffered];
    let available = this.bufferedStart + this.buffered.length;
    while (available < end) {
      const next = await this.source.next();
      if (next.done) {
        this.buffered = Buffer.concat(parts);
        throw new TruncatedInputError(`needed bytes ${offset}..${end} but the data ends at ${available}`);
      }
      const chunk = next.value;
      if (available + chunk.length <= offset) {
        // Entirely before the wanted range: skip without keeping it.
        this.bufferedStart += chunk.length;
      } else if (available < offset) {
        parts.push(chunk.subarray(offset - available));
        this.bufferedStart = offset;
      } else {
        parts.push(chunk);
      }
      available += chunk.length;
    }
    this.buffered = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    const start = offset - this.bufferedStart;
    return Buffer.from(this.buffered.subarray(start, start + length));
  }

  /** Stops the underlying stream early; the rest of it is never read. */
  async close(): Promise<void> {
    await this.source.return?.();
  }

  private dropBefore(offset: number): void {
    const drop = Math.min(offset - this.bufferedStart, this.buffered.length);
    if (drop > 0) {
      this.buffered = this.buffered.subarray(drop);
      this.bufferedStart += drop;
    }
  }
}
