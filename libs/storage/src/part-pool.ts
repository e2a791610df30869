/**
 * The part buffers every upload of a process fills, reused rather than
 * allocated per part, and capped in number so memory stays bounded however
 * many uploads run at once.
 *
 * Why reuse: joining each part's socket chunks into a fresh 8 MiB buffer made
 * the gateway allocate twice what it received, and at 100 MiB/s the garbage
 * outran the collector — 20 concurrent uploads held 304 MiB of Buffers against
 * a 96 MiB budget (docs/performance.md). Filling a pooled buffer in place
 * leaves only the short-lived socket chunks as garbage.
 *
 * Why capped: an upload that cannot get a buffer waits without reading its
 * socket, which slows that client down instead of growing the heap. Waiters
 * are served in order. Buffers idle for a while are dropped, so a burst does
 * not pin its peak for the life of the process.
 */
export class PartPool {
  private readonly free: Buffer[] = [];
  private readonly waiters: ((buffer: Buffer) => void)[] = [];
  private allocated = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly partSize: number,
    readonly maxParts: number,
    private readonly idleMs = 30_000,
  ) {
    if (!(maxParts >= 1)) throw new RangeError('a part pool needs room for at least one part');
  }

  async acquire(): Promise<Buffer> {
    clearTimeout(this.idleTimer);
    const reused = this.free.pop();
    if (reused) return reused;
    if (this.allocated < this.maxParts) {
      this.allocated++;
      // Outside Node's shared slab: each part is its own allocation, freed when dropped.
      return Buffer.allocUnsafeSlow(this.partSize);
    }
    return new Promise<Buffer>((resolve) => this.waiters.push(resolve));
  }

  /** Gives a buffer back; it must not be read or written by the giver afterwards. */
  release(buffer: Buffer): void {
    const next = this.waiters.shift();
    if (next) {
      next(buffer);
      return;
    }
    this.free.push(buffer);
    if (this.free.length === this.allocated) this.dropWhenIdle();
  }

  /** Buffers handed out and not yet given back. */
  get inUse(): number {
    return this.allocated - this.free.length;
  }

  /** Buffers the pool holds, in use or free. */
  get held(): number {
    return this.allocated;
  }

  private dropWhenIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.allocated -= this.free.length;
      this.free.length = 0;
    }, this.idleMs);
    this.idleTimer.unref();
  }
}
