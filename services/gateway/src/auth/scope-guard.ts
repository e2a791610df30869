import { PermissionDenied, Unauthenticated } from '@hangar/errors';
import type { ServiceClients } from '../clients/service-clients';
import { currentCaller } from '../http/caller-context';
import { DECLARED_OPERATIONS } from '../operations/catalogue';
import { isLimitedGrant } from './token-scopes';

/** Each operation's token scopes and account rule, as declared (features/). */
const DECLARED = new Map(DECLARED_OPERATIONS.map((declared) => [declared.operationId, declared]));

type UsersClient = ServiceClients['users'];

/**
 * The users client whose `authenticate` also holds a scoped token to the
 * scopes declared by the operation being called, and passes the
 * caller's address on as the token's last use. Every route that reads a
 * token resolves it through this call, so no route can forget the check. An
 * expired token is refused here too, should a cache still hold it.
 */
export function guardingScopes(client: UsersClient): UsersClient {
  const authenticate: UsersClient['authenticate'] = async (request, callOptions) => {
    const caller = currentCaller();
    const user = await client.authenticate({ ...request, address: caller.address }, callOptions);
    const grant = user.grant;
    if (grant?.expiresAtMs && grant.expiresAtMs <= Date.now()) throw new Unauthenticated('The access token has expired');
    if (grant && grant.scopes.length > 0) {
      const operationId = caller.operation?.id;
      const needed = operationId ? DECLARED.get(operationId)?.scopes : undefined;
      if (!needed || !needed.some((scope) => grant.scopes.includes(scope))) {
        throw new PermissionDenied(
          `This access token's scopes (${grant.scopes.join(', ')}) do not allow ${operationId ?? 'this request'}${needed ? `: it needs ${needed.join(' or ')}` : ''}`,
        );
      }
    }
    if (grant && isLimitedGrant(grant)) {
      // Account management needs a session or an unlimited token.
      const match = caller.operation;
      const rule = match ? DECLARED.get(match.id)?.account : undefined;
      const own = match?.params.id === 'me' || match?.params.id === String(user.id);
      if (rule === 'never' || (rule === 'own' && !own)) {
        throw new PermissionDenied(
          `This access token is limited (${describeLimits(grant)}): it cannot ${match!.id}; accounts and tokens are managed from a console session or an unlimited token`,
        );
      }
    }
    return user;
  };
  return { ...client, authenticate };
}

function describeLimits(grant: { scopes: string[]; appIds: number[] }): string {
  return [grant.appIds.length ? `to apps ${grant.appIds.join(', ')}` : '', grant.scopes.length ? `to scopes ${grant.scopes.join(', ')}` : ''].filter(Boolean).join(' and ');
}
