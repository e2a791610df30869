import { randomUUID } from 'node:crypto';
import type { KV } from '@nats-io/kv';
import { openKvBucket } from '@hangar/events';
import type { NatsConnection } from '@nats-io/transport-node';

const KEY = 'turn';

/**
 * Whose turn it is to count downloads, among the releases replicas: one key in a NATS KV
 * bucket, taken with `create` (only one writer can create it), kept with compare-and-set
 * updates while counting, given back by a delete. The counts are `$inc` upserts, and
 * FerretDB 1.24 (the local and test engine) loses increments made at the same moment
 * (docs/decisions.md): two replicas each holding part of a burst counted one release at
 * once and a download went missing (the end-to-end suite with two replicas found it).
 * A holder that dies leaves the key to expire after `leaseMs`; its batch is redelivered.
 */
export class CountingTurn {
  private revision = 0;

  private constructor(
    private readonly kv: KV,
    private readonly holder: string,
  ) {}

  static async open(nc: NatsConnection, prefix: string, leaseMs: number): Promise<CountingTurn> {
    const kv = await openKvBucket(nc, `${prefix}-downloads-counting`, { history: 1, ttl: leaseMs });
    return new CountingTurn(kv, randomUUID());
  }

  /** Takes the turn when no other replica holds it. */
  async take(): Promise<boolean> {
    try {
      this.revision = await this.kv.create(KEY, this.holder);
      return true;
    } catch {
      return false;
    }
  }

  /** Keeps the turn from expiring while a batch is being counted. */
  async keep(): Promise<void> {
    if (this.revision) this.revision = await this.kv.update(KEY, this.holder, this.revision);
  }

  async give(): Promise<void> {
    const revision = this.revision;
    this.revision = 0;
    if (revision) await this.kv.delete(KEY, { previousSeq: revision }).catch(() => undefined);
  }
}
