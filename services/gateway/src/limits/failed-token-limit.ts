import { Unauthenticated } from '@hangar/errors';
import type { ServiceClients } from '../clients/service-clients';
import { currentCaller } from '../http/caller-context';
import type { AttemptCounter, AttemptRule } from './attempt-rule';
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
    const caller = currentCaller();
    const waitMs = await attempts.retryAfterMs(rule, caller.address);
    if (waitMs > 0) throw new TooManyAttempts('Too many requests with an invalid access token from this address: try again later', Math.ceil(waitMs / 1000));
    try {
      return await client.authenticate(request, callOptions);
    } catch (err) {
      if (err instanceof Unauthenticated && !isCredentialInPath(caller.operation?.id)) await attempts.recordFailure(rule, caller.address);
      throw err;
    }
  };
  return { ...client, authenticate };
}

/**
 * Symbol-server paths carry a channel key or a token (features/symbols/ tries
 * it as a token first): a channel key there is no failed token.
 */
function isCredentialInPath(operationId: string | undefined): boolean {
  return operationId?.endsWith('WithCredentialInPath') === true;
}
