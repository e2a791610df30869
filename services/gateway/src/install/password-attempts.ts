/**
 * Limits wrong visit passwords per client and channel: after `maxFailures`
 * in `windowMs`, further tries are refused until the window passes. Kept in
 * memory, so the limit is per gateway replica (documented in operations).
 */
export class PasswordAttempts {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly maxFailures = 5,
    private readonly windowMs = 10 * 60 * 1000,
  ) {}

  /** Milliseconds until another try is allowed; 0 when allowed now. */
  retryAfterMs(client: string, channel: string, now = Date.now()): number {
    const recent = this.recent(`${client}|${channel}`, now);
    return recent.length >= this.maxFailures ? recent[0]! + this.windowMs - now : 0;
  }

  recordFailure(client: string, channel: string, now = Date.now()): void {
    const key = `${client}|${channel}`;
    this.failures.set(key, [...this.recent(key, now), now]);
    if (this.failures.size > 10_000) this.prune(now);
  }

  recordSuccess(client: string, channel: string): void {
    this.failures.delete(`${client}|${channel}`);
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => now - t < this.windowMs);
  }

  private prune(now: number): void {
    for (const [key, times] of this.failures) if (!times.some((t) => now - t < this.windowMs)) this.failures.delete(key);
  }
}
