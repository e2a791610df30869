import { Unauthenticated } from '@hangar/errors';
import type { Actor } from './permissions';

/** Every RPC but ResolveChannel / VerifyChannelPassword acts for someone the gateway authenticated. */
export function requireActor(actor: { userId: number; role: string; appLimit?: { appIds: number[] } } | undefined): Actor {
  if (!actor || !actor.userId) throw new Unauthenticated();
  return { userId: actor.userId, role: actor.role, appIds: actor.appLimit?.appIds ?? [] };
}
