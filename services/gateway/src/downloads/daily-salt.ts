import { randomBytes } from 'node:crypto';
import type { KV } from '@nats-io/kv';
import { openKvBucket } from '@hangar/events';
import type { NatsConnection } from '@nats-io/transport-node';

/** The UTC day of a time, `YYYY-MM-DD`: the salt rotates, and unique clients are counted, per day. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

const TWO_DAYS_MS = 2 * 24 * 3600 * 1000;

/**
 * One random salt per UTC day, the same on every gateway replica: the first
 * replica to need a day's salt creates it in a NATS KV bucket (a `create`
 * that only one writer wins), the others read it. The bucket forgets salts
 * after two days, so yesterday's client hashes cannot be recomputed from any
 * address later: what is stored identifies no one.
 */
export class DailySalt {
  private current?: { day: string; salt: Buffer };
  private loading?: Promise<Buffer>;

  private constructor(private readonly kv: KV) {}

  static async open(nc: NatsConnection, prefix: string): Promise<DailySalt> {
    return new DailySalt(await openKvBucket(nc, `${prefix}-download-salts`, { history: 1, ttl: TWO_DAYS_MS }));
  }

  /** The day's salt when already known: the download path never waits for NATS. */
  peek(day: string): Buffer | undefined {
    return this.current?.day === day ? this.current.salt : undefined;
  }

  get(day: string): Promise<Buffer> {
    const known = this.peek(day);
    if (known) return Promise.resolve(known);
    this.loading ??= this.load(day).finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async load(day: string): Promise<Buffer> {
    let salt: Buffer;
    try {
      await this.kv.create(day, randomBytes(32));
      salt = Buffer.from((await this.kv.get(day))!.value);
    } catch {
      // Another replica created it first: use theirs.
      const entry = await this.kv.get(day);
      if (!entry) throw new Error(`no download salt for ${day}`);
      salt = Buffer.from(entry.value);
    }
    this.current = { day, salt };
    return salt;
  }
}
