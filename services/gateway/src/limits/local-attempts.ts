import { AttemptCounter, AttemptRule, waitAfter } from './attempt-rule';

/**
 * Failures per key kept in this process's memory: the count is per replica.
 * The stand-in of `SharedAttempts` while NATS cannot be reached, and the
 * counter of tests that start no NATS.
 */
export class LocalAttempts implements AttemptCounter {
  private readonly failures = new Map<string, number[]>();

  async retryAfterMs(rule: AttemptRule, subject: string, now = Date.now()): Promise<number> {
    return waitAfter(rule, this.failures.get(`${rule.name}|${subject}`) ?? [], now);
  }

  async recordFailure(rule: AttemptRule, subject: string, now = Date.now()): Promise<void> {
    const key = `${rule.name}|${subject}`;
    const recent = (this.failures.get(key) ?? []).filter((t) => now - t < rule.windowMs);
    this.failures.set(key, [...recent, now].slice(-rule.maxFailures));
    if (this.failures.size > 10_000) this.prune(rule, now);
  }

  async recordSuccess(rule: AttemptRule, subject: string): Promise<void> {
    this.failures.delete(`${rule.name}|${subject}`);
  }

  private prune(rule: AttemptRule, now: number): void {
    for (const [key, times] of this.failures) if (!times.some((t) => now - t < rule.windowMs)) this.failures.delete(key);
  }
}
