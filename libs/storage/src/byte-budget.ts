/**
 * A shared allowance of bytes: every upload of a process draws its part
 * buffers from one budget, so memory stays bounded however many uploads run
 * at once (each upload alone is bounded by its part size and concurrency; 20
 * at once were not: 446 MiB measured in the gateway). Waiters are served in
 * order; an upload that cannot get a part waits without reading its socket,
 * which slows that client down instead of growing the heap.
 */
export class ByteBudget {
  private used = 0;
  private readonly waiters: { bytes: number; grant: () => void }[] = [];

  constructor(readonly capacity: number) {}

  async acquire(bytes: number): Promise<void> {
    const wanted = Math.min(bytes, this.capacity);
    if (this.waiters.length === 0 && this.used + wanted <= this.capacity) {
      this.used += wanted;
      return;
    }
    await new Promise<void>((grant) => this.waiters.push({ bytes: wanted, grant }));
  }

  release(bytes: number): void {
    this.used -= Math.min(bytes, this.capacity);
    while (this.waiters.length > 0 && this.used + this.waiters[0]!.bytes <= this.capacity) {
      const next = this.waiters.shift()!;
      this.used += next.bytes;
      next.grant();
    }
  }

  get inUse(): number {
    return this.used;
  }
}
