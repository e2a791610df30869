import { Unauthenticated } from '@hangar/errors';
import type { ServiceClients } from '../clients/service-clients';
import type { AttemptCounter, AttemptRule } from './attempt-rule';
import { currentClientAddress } from './client-address';
import { TooManyAttempts } from './too-many-attempts';

type UsersClient = ServiceClients['users'];

/**
 * The users client whose `authenticate` refuses an address that sent too
 * many unknown tokens (429 with Retry-After, before the token is even looked
 * at), counted across replicas. Every route that reads a token goes through
 * this one call, so no route can be used to guess tokens faster.
 */
export function limitingFailedTokens(client: UsersClient, attempts: AttemptCounter, rule: AttemptRule): UsersClient {
  const authenticate: UsersClient['authenticate'] = async (request, callOptions) => {
    const address = currentClientAddress();
    const waitMs = await attempts.retryAfterMs(rule, address);
    if (waitMs > 0) throw new TooManyAttempts('Too many requests with an invalid access token from this address: try again later', Math.ceil(waitMs / 1000));
    try {
      return await client.authenticate(request, callOptions);
    } catch (err) {
      if (err instanceof Unauthenticated) await attempts.recordFailure(rule, address);
      throw err;
    }
  };
  return { ...client, authenticate };
}
