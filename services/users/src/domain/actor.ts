import { PermissionDenied, Unauthenticated } from '@hangar/errors';

export interface Actor {
  userId: number;
  role: string;
}

/** Every user RPC but Authenticate acts for someone the gateway authenticated. */
export function requireActor(actor: Actor | undefined): Actor {
  if (!actor || !actor.userId) throw new Unauthenticated();
  return actor;
}

export const isAdmin = (actor: Actor): boolean => actor.role === 'admin';

/** User management is for admins (PRODUCT §2). */
export function requireAdmin(actor: Actor): void {
  if (!isAdmin(actor)) throw new PermissionDenied('Only admins can manage users');
}

/** Reading and updating oneself is open to everyone; others are admin business. */
export function requireSelfOrAdmin(actor: Actor, userId: number): void {
  if (actor.userId !== userId && !isAdmin(actor)) throw new PermissionDenied('You can only manage your own account');
}
