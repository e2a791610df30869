/**
 * Addresses this process refused with 429 lately, until their wait ends. The
 * update-check fast path answers held answers before express and before any
 * limit is read (a NATS KV read per check would cost the route its speed); it
 * sends an address found here to express instead, whose limit answers 429 — so
 * an address past the channel-key limit cannot go on telling right keys (200
 * from the fast path) from wrong ones (429). Each replica learns an address at
 * its first refusal of it.
 */
export class RecentlyRefused {
  private readonly until = new Map<string, number>();

  constructor(private readonly capacity = 10_000) {}

  mark(address: string, retryAfterSeconds: number, now = Date.now()): void {
    if (this.until.size >= this.capacity) this.prune(now);
    if (this.until.size >= this.capacity) this.until.delete(this.until.keys().next().value!);
    this.until.set(address, now + retryAfterSeconds * 1000);
  }

  has(address: string, now = Date.now()): boolean {
    const until = this.until.get(address);
    if (until === undefined) return false;
    if (until > now) return true;
    this.until.delete(address);
    return false;
  }

  private prune(now: number): void {
    for (const [address, until] of this.until) if (until <= now) this.until.delete(address);
  }
}
