import type { NatsConnection } from '@nats-io/transport-node';
import { Unavailable } from '@hangar/errors';

/** Connections whose status events are followed, and those of them that are down now. */
const watched = new WeakSet<NatsConnection>();
const down = new WeakSet<NatsConnection>();

/**
 * Follows `nc`'s status events (once per connection, however often asked): down from a
 * `disconnect` until the `reconnect`. Call it right after connecting.
 */
export function watchConnection(nc: NatsConnection): void {
  if (watched.has(nc)) return;
  watched.add(nc);
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') down.add(nc);
      else if (status.type === 'reconnect') down.delete(nc);
    }
  })().catch(() => undefined);
}

/** True between a `disconnect` of a watched connection and its `reconnect`. */
export function isDisconnected(nc: NatsConnection): boolean {
  return down.has(nc);
}

/**
 * `target` (a KV bucket, any object whose methods talk to NATS) with its `methods` — those that
 * send, all async — failing at once with `Unavailable` while `nc` is known to be down, instead of
 * being sent. Other members (a KV's key encoding, its name) are left as they are.
 *
 * Why: nats.js holds a request made while disconnected until it reconnects or the request times
 * out (5 s here). Every caller already has a fallback for a failed call — a cache read goes to
 * the database, a shared attempt count to this process's, a generation bump is retried in the
 * background — but each waited those 5 s first, several times per request: during a NATS outage
 * an upload took 25 s and a delete 15 s (tests/e2e/retention-and-cascades.test.ts), and every
 * cached read 5 s. Failing at once lets the fallback answer at once.
 */
export function failingFastWhileDisconnected<T extends object>(nc: NatsConnection, target: T, methods: readonly (keyof T & string)[]): T {
  watchConnection(nc);
  const sending = new Set<string | symbol>(methods);
  return new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (!sending.has(property) || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (down.has(nc)) return Promise.reject(new Unavailable());
        return (value as (...a: unknown[]) => unknown).apply(object, args);
      };
    },
  });
}
