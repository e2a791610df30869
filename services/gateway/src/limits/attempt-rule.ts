/** At most `maxFailures` failed tries within `windowMs`; the next try waits until the oldest leaves the window. */
export interface AttemptRule {
  /** Names the counter family in the shared store: `unlock`, `token`. */
  name: string;
  maxFailures: number;
  windowMs: number;
}

/** The longest window a rule may have: the shared store forgets a key a day after its last failure. */
export const MAX_ATTEMPT_WINDOW_MS = 24 * 3600 * 1000;

/** Failures still inside the window, oldest first; the wait before the next try (0: now). */
export function waitAfter(rule: AttemptRule, failures: number[], now: number): number {
  const recent = failures.filter((t) => now - t < rule.windowMs);
  return recent.length >= rule.maxFailures ? recent[recent.length - rule.maxFailures]! + rule.windowMs - now : 0;
}

/** Where failures are counted: `SharedAttempts` (all replicas), or `LocalAttempts` (one process). */
export interface AttemptCounter {
  /** Milliseconds until another try is allowed; 0 when allowed now. */
  retryAfterMs(rule: AttemptRule, subject: string, now?: number): Promise<number>;
  recordFailure(rule: AttemptRule, subject: string, now?: number): Promise<void>;
  recordSuccess(rule: AttemptRule, subject: string): Promise<void>;
}
