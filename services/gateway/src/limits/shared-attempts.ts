import { createHash } from 'node:crypto';
import type { KV } from '@nats-io/kv';
import { openKvBucket } from '@hangar/events';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '@hangar/logger';
import { AttemptCounter, AttemptRule, MAX_ATTEMPT_WINDOW_MS, waitAfter } from './attempt-rule';
import { LocalAttempts } from './local-attempts';

const CAS_TRIES = 20;

/**
 * Failed attempts counted in a NATS KV bucket every gateway replica shares,
 * so N replicas allow what one does: each key holds the times of
 * its recent failures, appended with compare-and-set on the entry's revision
 * (a concurrent append from another replica makes ours retry, never lose
 * one). Keys are SHA-256 digests: no address or channel is stored readable.
 * While NATS is unreachable the count falls back to this process's memory —
 * weaker for a while, but unlocks and sign-ins keep working.
 */
export class SharedAttempts implements AttemptCounter {
  private readonly local = new LocalAttempts();

  private constructor(
    private readonly kv: KV,
    private readonly logger: Logger,
  ) {}

  static async open(nc: NatsConnection, prefix: string, logger: Logger): Promise<SharedAttempts> {
    return new SharedAttempts(await openKvBucket(nc, `${prefix}-attempts`, { history: 1, ttl: MAX_ATTEMPT_WINDOW_MS }), logger);
  }

  async retryAfterMs(rule: AttemptRule, subject: string, now = Date.now()): Promise<number> {
    const key = keyOf(rule, subject);
    try {
      return waitAfter(rule, decode((await this.kv.get(key))?.value), now);
    } catch (err) {
      this.warn(err);
      return this.local.retryAfterMs(rule, subject, now);
    }
  }

  async recordFailure(rule: AttemptRule, subject: string, now = Date.now()): Promise<void> {
    const key = keyOf(rule, subject);
    try {
      for (let i = 0; i < CAS_TRIES; i++) {
        const entry = await this.kv.get(key);
        const failures = [...decode(entry?.operation === 'PUT' ? entry.value : undefined).filter((t) => now - t < rule.windowMs), now].slice(-rule.maxFailures);
        try {
          if (entry) await this.kv.update(key, JSON.stringify(failures), entry.revision);
          else await this.kv.create(key, JSON.stringify(failures));
          return;
        } catch (err) {
          if (!isWrongRevision(err)) throw err;
        }
      }
      throw new Error(`attempts of ${rule.name} kept changing under ${CAS_TRIES} tries`);
    } catch (err) {
      this.warn(err);
      await this.local.recordFailure(rule, subject, now);
    }
  }

  async recordSuccess(rule: AttemptRule, subject: string): Promise<void> {
    await this.local.recordSuccess(rule, subject);
    await this.kv.delete(keyOf(rule, subject)).catch((err: unknown) => this.warn(err));
  }

  private warn(err: unknown): void {
    this.logger.warn({ err }, 'shared attempt counts unavailable: counting in this replica only');
  }
}

function keyOf(rule: AttemptRule, subject: string): string {
  return `${rule.name}.${createHash('sha256').update(subject).digest('hex')}`;
}

function decode(value: Uint8Array | undefined): number[] {
  if (!value || value.length === 0) return [];
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value).toString('utf8'));
    return Array.isArray(parsed) ? parsed.filter((t): t is number => typeof t === 'number') : [];
  } catch {
    return [];
  }
}

/** Another replica wrote the key between our read and our write (as `uploads/upload-records.ts` tells it). */
function isWrongRevision(err: unknown): boolean {
  const text = String((err as { message?: string })?.message ?? err);
  return /wrong last sequence|10071/i.test(text);
}
