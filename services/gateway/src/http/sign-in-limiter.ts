import { createHash } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import type { KV } from '@nats-io/kv';
import { openKvBucket } from '@hangar/events';

export interface SignInLimits {
  /** Attempts allowed per email, and per client address, in one window. */
  perEmail: number;
  perAddress: number;
  windowMs: number;
}

export type Verdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Counter {
  count: number;
  windowEndsAt: number;
}

/**
 * Sign-in attempts counted in a NATS KV bucket every gateway replica shares,
 * with compare-and-set writes: a password guesser gains nothing by spreading
 * guesses over replicas, and two replicas never both count from the same value.
 * Every attempt counts before the password is checked, so parallel guesses
 * are counted too; a successful sign-in clears its email's count.
 */
export class SignInLimiter {
  private constructor(
    private readonly kv: KV,
    private readonly limits: SignInLimits,
  ) {}

  static async open(nc: NatsConnection, prefix: string, limits: SignInLimits): Promise<SignInLimiter> {
    // Entries outlive their window a little and then vanish on their own.
    const kv = await openKvBucket(nc, `${prefix}-sign-in-attempts`, { history: 1, ttl: limits.windowMs + 60_000 });
    return new SignInLimiter(kv, limits);
  }

  /** Counts an attempt for this email and address; refused when either is over its limit. */
  async attempt(email: string, address: string, now = Date.now()): Promise<Verdict> {
    const [byEmail, byAddress] = await Promise.all([
      this.count(keyOf('email', email.trim().toLowerCase()), now),
      this.count(keyOf('address', address), now),
    ]);
    const over = [byEmail.count > this.limits.perEmail ? byEmail : undefined, byAddress.count > this.limits.perAddress ? byAddress : undefined].filter((c): c is Counter => !!c);
    if (over.length === 0) return { allowed: true };
    const endsAt = Math.max(...over.map((c) => c.windowEndsAt));
    // A window another replica opened may end a little past ours (its clock read later, or
    // skewed): never ask for more than one window.
    const seconds = Math.ceil((endsAt - now) / 1000);
    return { allowed: false, retryAfterSeconds: Math.min(Math.ceil(this.limits.windowMs / 1000), Math.max(1, seconds)) };
  }

  /** A right password: its owner is not held back by their own earlier typos. */
  async succeeded(email: string): Promise<void> {
    await this.kv.delete(keyOf('email', email.trim().toLowerCase()));
  }

  private async count(key: string, now: number): Promise<Counter> {
    for (;;) {
      const entry = await this.kv.get(key);
      const current = entry && entry.operation === 'PUT' && entry.length > 0 ? entry.json<Counter>() : undefined;
      const next: Counter = current && current.windowEndsAt > now ? { count: current.count + 1, windowEndsAt: current.windowEndsAt } : { count: 1, windowEndsAt: now + this.limits.windowMs };
      try {
        if (entry) await this.kv.update(key, JSON.stringify(next), entry.revision);
        else await this.kv.create(key, JSON.stringify(next));
        return next;
      } catch (err) {
        // Another replica counted first: read again and count on top of it.
        if (!isConflict(err)) throw err;
      }
    }
  }
}

/** Keys hold digests: KV keys allow few characters, and emails and addresses stay out of NATS. */
const keyOf = (kind: string, value: string) => `${kind}.${createHash('sha256').update(value).digest('hex')}`;

function isConflict(err: unknown): boolean {
  const text = String((err as { message?: string })?.message ?? err);
  return /wrong last sequence|10071|key exists|10058/i.test(text);
}
