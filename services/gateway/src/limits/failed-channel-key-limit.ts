import { NotFound } from '@hangar/errors';
import type { ServiceClients } from '../clients/service-clients';
import { currentCaller } from '../http/caller-context';
import type { AttemptCounter, AttemptRule } from './attempt-rule';
import type { RecentlyRefused } from './refused-addresses';
import { TooManyAttempts } from './too-many-attempts';

/** What the apps service answers for a key no live channel has (services/apps/src/domain/channel-lookup.ts), through any service. */
const UNKNOWN_KEY = /not found for this channel_key/;

type KeyedClients = Pick<ServiceClients, 'apps' | 'releases' | 'debugFiles'>;

/**
 * Wraps every call of the apps, releases and debug-files clients that carries a
 * `channelKey`, so that wrong channel keys count like wrong tokens: an
 * address past `rule.maxFailures` unknown keys in the window is refused with 429 and
 * Retry-After — before the key is looked at, right or wrong — on every route that takes
 * a key (the API's versions / latest / version_exist / update_check, debug-file lists
 * and downloads, retrace, symbol servers, install pages), counted across replicas.
 * Calls outside a request (no caller) are not limited.
 */
export function limitingFailedChannelKeys<C extends KeyedClients>(clients: C, attempts: AttemptCounter, rule: AttemptRule, refused?: RecentlyRefused): C {
  return { ...clients, apps: guard(clients.apps), releases: guard(clients.releases), debugFiles: guard(clients.debugFiles) };

  function guard<T extends object>(client: T): T {
    const wrapped = { ...client } as Record<string, unknown>;
    for (const [name, method] of Object.entries(client)) {
      if (typeof method !== 'function') continue;
      wrapped[name] = async (request: unknown, ...rest: unknown[]) => {
        const key = (request as { channelKey?: unknown } | undefined)?.channelKey;
        const caller = currentCaller();
        if (typeof key !== 'string' || key.trim() === '' || caller.method === '') return (method as (...a: unknown[]) => unknown).call(client, request, ...rest);
        const waitMs = await attempts.retryAfterMs(rule, caller.address);
        if (waitMs > 0) {
          refused?.mark(caller.address, Math.ceil(waitMs / 1000));
          throw new TooManyAttempts('Too many requests with an unknown channel key from this address: try again later', Math.ceil(waitMs / 1000));
        }
        try {
          return await (method as (...a: unknown[]) => Promise<unknown>).call(client, request, ...rest);
        } catch (err) {
          if (err instanceof NotFound && UNKNOWN_KEY.test(err.message)) await attempts.recordFailure(rule, caller.address);
          throw err;
        }
      };
    }
    return wrapped as T;
  }
}
