import type { NatsConnection } from '@nats-io/transport-node';
import { Unavailable } from '@hangar/errors';

type ConnectionChange = 'disconnect' | 'reconnect';

/** The connections whose status events are followed, each with who wants to hear of a change. */
const listeners = new WeakMap<NatsConnection, Set<(change: ConnectionChange) => void>>();
/** Those of them that are down now. */
const down = new WeakSet<NatsConnection>();

/**
 * Follows `nc`'s status events — one loop per connection, however often asked: down from a
 * `disconnect` until the `reconnect`. `onChange` (when given) hears of each of those two.
 * Call it right after connecting.
 */
export function watchConnection(nc: NatsConnection, onChange?: (change: ConnectionChange) => void): void {
  const known = listeners.get(nc);
  if (known) {
    if (onChange) known.add(onChange);
    return;
  }
  const heard = new Set(onChange ? [onChange] : []);
  listeners.set(nc, heard);
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type !== 'disconnect' && status.type !== 'reconnect') continue;
      if (status.type === 'disconnect') down.add(nc);
      else down.delete(nc);
      for (const listener of heard) listener(status.type);
    }
  })().catch(() => undefined);
}

/**
 * Resolves at `nc`'s next `change` (`disconnect` or `reconnect`); `cancel()` stops listening
 * (call it once the wait is over). For a request in flight: nats.js does not fail it when the
 * connection drops — its message, or the answer, may have gone down with the old socket (a
 * frozen server is only found dead by its missed pings), and it waits out its whole timeout
 * after the reconnect. Racing it against the disconnect lets the caller ask again, once the
 * reconnect has come (a request made while disconnected was not delivered after the reconnect,
 * services/releases/test/parse-across-partition.test.ts).
 */
export function nextConnectionChange(nc: NatsConnection, change: ConnectionChange): { happened: Promise<void>; cancel(): void } {
  watchConnection(nc);
  const heard = listeners.get(nc)!;
  let listener: (seen: ConnectionChange) => void = () => undefined;
  const happened = new Promise<void>((resolve) => {
    listener = (seen) => {
      if (seen === change) resolve();
    };
    heard.add(listener);
  });
  return { happened, cancel: () => heard.delete(listener) };
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
  // One guarded function per method, made once: the caches' reads call `get` on every request.
  const guarded = new Map<string | symbol, (...args: unknown[]) => unknown>();
  for (const method of methods) {
    const call = target[method];
    if (typeof call !== 'function') continue;
    guarded.set(method, (...args: unknown[]) => (down.has(nc) ? Promise.reject(new Unavailable()) : (call as (...a: unknown[]) => unknown).apply(target, args)));
  }
  return new Proxy(target, {
    get: (object, property, receiver) => guarded.get(property) ?? Reflect.get(object, property, receiver),
  });
}

/** For health checks: the connection is open and not between a `disconnect` and its `reconnect` (call `watchConnection` first). */
export async function natsReachable(nc: NatsConnection): Promise<boolean> {
  return !nc.isClosed() && !down.has(nc);
}
