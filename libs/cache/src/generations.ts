import type { NatsConnection } from '@nats-io/transport-node';
import type { KV } from '@nats-io/kv';
import { openKvBucket } from '@hangar/events';
import { CoalescedReads } from './coalesced-reads';

/**
 * Generation numbers of cached data, kept in a NATS KV bucket every replica
 * of every service shares. A writer bumps a key after its database write and
 * before it answers; a reader compares the generation its cached copy was
 * read at with the current one on every use (one NATS round trip, shared
 * with the requests that asked meanwhile — coalesced-reads.ts —, no database). So a change is seen by the very next request on any replica —
 * what an event-driven invalidation alone cannot promise, since a 201 may
 * reach the client before another replica has heard of the change.
 *
 * A generation is the key's KV revision: it changes on every put and never
 * repeats. A key never bumped reads as 0.
 */
export interface Generations {
  read(keys: readonly string[]): Promise<number[]>;
  bump(keys: readonly string[]): Promise<void>;
}

/**
 * A bump that could not reach NATS is retried in the background rather than
 * failing a write that has already happened; readers bypass their caches
 * while NATS is away, and a cached copy lives at most its cache's maxAgeMs.
 */
export function bumpingQuietly(generations: Generations, keys: readonly string[], onError: (err: unknown) => void): () => Promise<void> {
  return async () => {
    try {
      await generations.bump(keys);
    } catch (err) {
      onError(err);
      void retry(() => generations.bump(keys), onError);
    }
  };
}

async function retry(bump: () => Promise<void>, onError: (err: unknown) => void): Promise<void> {
  for (let delay = 500; delay <= 32_000; delay *= 2) {
    await new Promise((r) => setTimeout(r, delay).unref());
    try {
      return await bump();
    } catch (err) {
      onError(err);
    }
  }
}

export async function openGenerations(nc: NatsConnection, prefix: string): Promise<Generations> {
  const kv: KV = await openKvBucket(nc, `${prefix}-generations`, { history: 1 });
  // Under load many requests ask the same keys at once (a polled channel): they share reads.
  const reads = new CoalescedReads(async (key) => (await kv.get(key))?.revision ?? 0);
  return {
    async read(keys) {
      return Promise.all(keys.map((key) => reads.read(key)));
    },
    async bump(keys) {
      await Promise.all(keys.map((key) => kv.put(key, '')));
    },
  };
}
