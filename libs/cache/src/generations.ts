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

/**
 * How long a reader waits for a generation before it reads the database instead. A read takes a
 * millisecond or two, even across a cluster; one that takes longer is waiting on a NATS node
 * that cannot answer — one cut off from the others, to which the cluster still routes some reads
 * until it notices (tests/e2e/nats-cluster-failover.test.ts: with nats.js's 5 s request timeout,
 * every cached read behind such a node missed its gRPC deadline, and uploads were refused with
 * 503 for over a minute). Giving up early costs a database read, never a stale answer.
 */
export const GENERATION_READ_TIMEOUT_MS = 500;

export async function openGenerations(nc: NatsConnection, prefix: string, readTimeoutMs = GENERATION_READ_TIMEOUT_MS): Promise<Generations> {
  const kv: KV = await openKvBucket(nc, `${prefix}-generations`, { history: 1 });
  // Under load many requests ask the same keys at once (a polled channel): they share reads.
  // The bound is on each NATS read, not on each caller: callers sharing a read share its timer.
  const reads = new CoalescedReads((key) => within(kv.get(key).then((entry) => entry?.revision ?? 0), readTimeoutMs, key));
  return {
    async read(keys) {
      return Promise.all(keys.map((key) => reads.read(key)));
    },
    async bump(keys) {
      await Promise.all(keys.map((key) => kv.put(key, '')));
    },
  };
}

/** `read`, or a rejection once `ms` have passed (the NATS request itself runs on to its own timeout). */
function within<T>(read: Promise<T>, ms: number, key: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`generation ${key} not read in ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([read, late]).finally(() => clearTimeout(timer));
}
