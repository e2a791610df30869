import { Readable } from 'node:stream';

/**
 * Positional reads over one stored object through ranged GETs, for parsers that need only a few
 * parts of a large file (a zip's end record and central directory, a manifest, an icon).
 *
 * Structurally the `ByteSource` of @hangar/parsers (size, read, close): storage does not depend
 * on the parsers, the shape is the contract.
 *
 * - Reads are served from aligned blocks (`blockSize`) kept in a small LRU (`cacheBytes`), so the
 *   many small reads of a central directory cost one or two GETs. Missing neighbouring blocks are
 *   fetched together in one GET.
 * - Sequential reads (each starting where the previous one ended, as when a member is inflated)
 *   grow a read-ahead window up to `maxReadAhead`, fetched in the background while the consumer
 *   works through what it has.
 * - A read too large for the cache goes straight to one GET of exactly that range.
 *
 * Memory is bounded by `cacheBytes` + the read-ahead in flight + what a caller asks for at once,
 * whatever the object size.
 */
export interface RangeFetcher {
  (offset: number, length: number): Promise<Readable>;
}

export interface RangeReaderOptions {
  /** Alignment and unit of caching. Default 128 KiB. */
  blockSize?: number;
  /** Bytes of blocks kept (LRU). Default 4 MiB. */
  cacheBytes?: number;
  /** Largest read-ahead window of a sequential read. Default 1 MiB, at most half the cache. */
  maxReadAhead?: number;
  /** Maps a failed GET to the error callers see (e.g. storage outages to Unavailable). */
  mapError?: (error: unknown) => Error;
}

export interface RangeReaderStats {
  /** Ranged GETs sent. */
  requests: number;
  /** Bytes those GETs returned. */
  bytesFetched: number;
  /** Bytes handed to callers of read(). */
  bytesRead: number;
}

const KiB = 1024;
const MiB = 1024 * KiB;

export class RangeReader {
  readonly stats: RangeReaderStats = { requests: 0, bytesFetched: 0, bytesRead: 0 };
  private readonly blockSize: number;
  private readonly maxBlocks: number;
  private readonly maxAheadBlocks: number;
  /** Block index → data; Map order is recency (oldest first). */
  private readonly cache = new Map<number, Buffer>();
  /** Block index → the GET bringing it. */
  private readonly inflight = new Map<number, Promise<Buffer>>();
  private readonly streams = new Set<Readable>();
  private readonly mapError: (error: unknown) => Error;
  private sequentialFrom = -1;
  private aheadBlocks = 0;
  /** First block not yet fetched or fetching by the read-ahead of the current sequential run. */
  private aheadEnd = 0;
  private closed = false;

  constructor(
    readonly size: number,
    private readonly fetch: RangeFetcher,
    options: RangeReaderOptions = {},
  ) {
    this.blockSize = options.blockSize ?? 128 * KiB;
    const cacheBytes = options.cacheBytes ?? 4 * MiB;
    if (!(this.blockSize > 0) || !(cacheBytes >= this.blockSize)) throw new RangeError('range reader: cacheBytes must hold at least one block');
    this.maxBlocks = Math.floor(cacheBytes / this.blockSize);
    const aheadBytes = Math.min(options.maxReadAhead ?? 1 * MiB, cacheBytes / 2);
    this.maxAheadBlocks = Math.floor(aheadBytes / this.blockSize);
    this.mapError = options.mapError ?? ((error) => (error instanceof Error ? error : new Error(String(error))));
  }

  /** Bytes held in the block cache now (at most `cacheBytes`). */
  get cachedBytes(): number {
    let total = 0;
    for (const block of this.cache.values()) total += block.length;
    return total;
  }

  /** Exactly `length` bytes at `offset`; the range must lie inside the object. */
  async read(offset: number, length: number): Promise<Buffer> {
    try {
      return await this.readBlocks(offset, length);
    } catch (error) {
      throw error instanceof RangeError ? error : this.mapError(error);
    }
  }

  private async readBlocks(offset: number, length: number): Promise<Buffer> {
    if (this.closed) throw new Error('range reader: read after close');
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > this.size) {
      throw new RangeError(`range reader: ${length} bytes at ${offset} is outside the object of ${this.size} bytes`);
    }
    if (length === 0) return Buffer.alloc(0);
    this.stats.bytesRead += length;

    const sequential = offset === this.sequentialFrom;
    this.sequentialFrom = offset + length;

    // Too big to cache without evicting everything else: one exact GET, nothing kept.
    if (length > (this.maxBlocks * this.blockSize) / 2) {
      this.aheadBlocks = 0;
      return this.fetchRange(offset, length);
    }

    const first = Math.floor(offset / this.blockSize);
    const last = Math.floor((offset + length - 1) / this.blockSize);
    const lastBlock = Math.floor((this.size - 1) / this.blockSize);

    this.startFetches(first, last);
    if (sequential && this.maxAheadBlocks > 0) {
      this.aheadBlocks = Math.min(this.maxAheadBlocks, Math.max(1, this.aheadBlocks * 2));
      if (this.aheadEnd <= last) this.aheadEnd = last + 1;
      // Refill when less than half a window is left ahead of the reader.
      if (this.aheadEnd - last - 1 < Math.ceil(this.aheadBlocks / 2) && this.aheadEnd <= lastBlock) {
        const to = Math.min(lastBlock, last + this.aheadBlocks);
        this.startFetches(this.aheadEnd, to);
        this.aheadEnd = to + 1;
      }
    } else {
      this.aheadBlocks = 0;
      this.aheadEnd = last + 1;
    }

    const out = Buffer.allocUnsafe(length);
    for (let index = first; index <= last; index++) {
      const block = await this.block(index);
      const blockStart = index * this.blockSize;
      const from = Math.max(offset, blockStart);
      const to = Math.min(offset + length, blockStart + block.length);
      block.copy(out, from - offset, from - blockStart, to - blockStart);
    }
    return out;
  }

  /**
   * The range as one GET, streamed as it arrives: for a member read front to back, where the
   * block cache would only copy every byte twice. Not cached; counted in the stats. Ends with
   * an error when the object ends sooner (it changed) or the connection drops.
   */
  stream(offset: number, length: number): Readable {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > this.size) {
      throw new RangeError(`range reader: ${length} bytes at ${offset} is outside the object of ${this.size} bytes`);
    }
    this.stats.requests += 1;
    this.stats.bytesRead += length;
    const reader = this;
    async function* bytes(): AsyncGenerator<Buffer> {
      if (reader.closed) throw new Error('range reader: read after close');
      let response: Readable;
      try {
        response = await reader.fetch(offset, length);
      } catch (error) {
        throw reader.mapError(error);
      }
      reader.streams.add(response);
      let received = 0;
      try {
        for await (const chunk of response as AsyncIterable<Buffer>) {
          received += chunk.length;
          reader.stats.bytesFetched += chunk.length;
          if (received > length) throw new Error(`range reader: more than the ${length} bytes asked for at ${offset}`);
          yield chunk;
        }
      } catch (error) {
        throw reader.mapError(error);
      } finally {
        reader.streams.delete(response);
        response.destroy();
      }
      if (received !== length) throw reader.mapError(new Error(`range reader: got ${received} of ${length} bytes at ${offset}; the object changed or the connection dropped`));
    }
    return Readable.from(bytes(), { objectMode: false });
  }

  /** Idempotent; drops the cache and aborts GETs still running. */
  async close(): Promise<void> {
    this.closed = true;
    this.cache.clear();
    this.inflight.clear();
    for (const stream of this.streams) stream.destroy();
    this.streams.clear();
  }

  private async block(index: number): Promise<Buffer> {
    const cached = this.cache.get(index);
    if (cached) {
      // Most recently used goes last.
      this.cache.delete(index);
      this.cache.set(index, cached);
      return cached;
    }
    const pending = this.inflight.get(index);
    if (pending) return pending;
    // Evicted between startFetches and now (only under heavy concurrent use): fetch again.
    this.startFetches(index, index);
    return this.inflight.get(index) ?? this.block(index);
  }

  /** Starts one GET per run of consecutive blocks in [first, last] that are neither cached nor coming. */
  private startFetches(first: number, last: number): void {
    let runStart = -1;
    for (let index = first; index <= last + 1; index++) {
      const missing = index <= last && !this.cache.has(index) && !this.inflight.has(index);
      if (missing && runStart < 0) runStart = index;
      if (!missing && runStart >= 0) {
        this.fetchBlocks(runStart, index - 1);
        runStart = -1;
      }
    }
  }

  private fetchBlocks(first: number, last: number): void {
    const start = first * this.blockSize;
    const end = Math.min(this.size, (last + 1) * this.blockSize);
    const data = this.fetchRange(start, end - start);
    for (let index = first; index <= last; index++) {
      const slice = data.then((buffer) => {
        const from = (index - first) * this.blockSize;
        // A copy, so evicting one block frees its memory instead of pinning the whole run.
        return Buffer.from(buffer.subarray(from, Math.min(buffer.length, from + this.blockSize)));
      });
      this.inflight.set(index, slice);
      slice.then(
        (block) => {
          if (this.inflight.get(index) !== slice) return;
          this.inflight.delete(index);
          if (!this.closed) this.remember(index, block);
        },
        () => {
          if (this.inflight.get(index) === slice) this.inflight.delete(index);
        },
      );
    }
  }

  private remember(index: number, block: Buffer): void {
    this.cache.delete(index);
    this.cache.set(index, block);
    while (this.cache.size > this.maxBlocks) {
      const oldest = this.cache.keys().next().value as number;
      this.cache.delete(oldest);
    }
  }

  private async fetchRange(offset: number, length: number): Promise<Buffer> {
    this.stats.requests += 1;
    const stream = await this.fetch(offset, length);
    if (this.closed) {
      stream.destroy();
      throw new Error('range reader: closed');
    }
    this.streams.add(stream);
    try {
      const out = Buffer.allocUnsafe(length);
      let filled = 0;
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        if (filled + chunk.length > length) throw new Error(`range reader: more than the ${length} bytes asked for at ${offset}`);
        chunk.copy(out, filled);
        filled += chunk.length;
      }
      if (filled !== length) throw new Error(`range reader: got ${filled} of ${length} bytes at ${offset}; the object changed or the connection dropped`);
      this.stats.bytesFetched += filled;
      return out;
    } finally {
      this.streams.delete(stream);
    }
  }
}
