import { GENERATION_KEYS, Generations, ValidatedCache } from '@hangar/cache';
import type { apps } from '@hangar/proto';
import type { AppsClient } from '../domain/deps';

/**
 * The apps client with `resolveChannel` (channel key or id → channel, scheme
 * and app) answered from memory while the apps generation is unchanged. The
 * apps service bumps it after every write (apps-service.ts), so a rotated key,
 * a deleted channel or a changed bundle-id rule is seen by the next request on
 * every replica. A key that does not resolve is not kept.
 */
export function cachingChannelResolution(client: AppsClient, generations: Generations, options: { capacity: number; maxAgeMs: number }): AppsClient {
  const cache = new ValidatedCache<apps.ChannelContext>({ generations, ...options });
  const resolveChannel: AppsClient['resolveChannel'] = (request, callOptions) =>
    cache.get(`${request.channelId ?? 0}:${request.channelKey ?? ''}`, [GENERATION_KEYS.apps], () => client.resolveChannel(request, callOptions));
  return { ...client, resolveChannel };
}
