import { createHash } from 'node:crypto';
import { GENERATION_KEYS, Generations, ValidatedCache } from '@hangar/cache';
import type { users } from '@hangar/proto';
import type { ServiceClients } from './service-clients';

type UsersClient = ServiceClients['users'];

/**
 * The users client with `authenticate` answered from memory while the users
 * generation is unchanged. Every user or token write bumps it before it
 * answers (users-service.ts), so a revoked token fails on the next request
 * on every gateway replica; a token that fails is never kept. Tokens are kept
 * only as SHA-256 digests, never in the clear.
 */
export function cachingAuthentication(client: UsersClient, generations: Generations, options: { capacity: number; maxAgeMs: number }): UsersClient {
  const cache = new ValidatedCache<users.User>({ generations, ...options });
  const authenticate: UsersClient['authenticate'] = (request, callOptions) => {
    const key = createHash('sha256').update(request.token ?? '').digest('base64url');
    return cache.get(key, [GENERATION_KEYS.users], () => client.authenticate(request, callOptions));
  };
  return { ...client, authenticate };
}
