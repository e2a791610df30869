import { FailedPrecondition, InvalidArgument, NotFound, PermissionDenied } from '@hangar/errors';
import { createEnvelope } from '@hangar/events';
import type { UserDocument } from '../data/user.model';
import type { UserChanges } from '../data/users.repository';
import type { UsersDeps } from './deps';
import { Actor, isAdmin, requireAdmin, requireSelfOrAdmin } from './actor';
import { hashPassword, verifyPassword } from './secrets';
import { endSessionsOf } from './sessions';
import { DEFAULTS, UserFieldInput, validateUserFields } from './user-fields';

export async function createUser(deps: UsersDeps, actor: Actor, input: UserFieldInput): Promise<UserDocument> {
  requireAdmin(actor);
  const fields = validateUserFields(input, ['username', 'email', 'password']);
  return deps.users.create({
    username: fields.username!,
    email: fields.email!,
    passwordHash: await hashPassword(fields.password!),
    locale: fields.locale ?? DEFAULTS.locale,
    appearance: fields.appearance ?? DEFAULTS.appearance,
    timezone: fields.timezone ?? DEFAULTS.timezone,
    role: fields.role ?? DEFAULTS.role,
  });
}

export async function getUser(deps: UsersDeps, actor: Actor, id: number): Promise<UserDocument> {
  requireSelfOrAdmin(actor, id);
  return found(await deps.users.findById(id), id);
}

/**
 * A changed password ends the user's sessions: all of them when
 * someone else (an admin) set it, all but `keepSessionId` — the session the
 * user made the change from — when they set their own.
 */
export async function updateUser(deps: UsersDeps, actor: Actor, id: number, input: UserFieldInput, keepSessionId = 0): Promise<{ user: UserDocument; passwordChanged: boolean }> {
  requireSelfOrAdmin(actor, id);
  const fields = validateUserFields(input);
  const current = found(await deps.users.findById(id), id);
  if (fields.role && fields.role !== current.role) {
    if (!isAdmin(actor)) throw new PermissionDenied('You cannot change your own role');
    if (current.role === 'admin') await keepOneAdmin(deps);
  }
  const changes: UserChanges = { ...fields };
  delete (changes as { password?: string }).password;
  // The seed sends the password with every update: only a different one is
  // a change, and only a change clears the request to choose a new one.
  if (fields.password && !(await verifyPassword(fields.password, current.passwordHash))) {
    changes.passwordHash = await hashPassword(fields.password);
    changes.mustChangePassword = false;
  }
  const user = found(await deps.users.update(id, changes), id);
  const passwordChanged = changes.passwordHash !== undefined;
  if (passwordChanged) await endSessionsOf(deps, id, actor.userId === id ? keepSessionId : 0);
  return { user, passwordChanged };
}

export async function deleteUser(deps: UsersDeps, actor: Actor, id: number): Promise<void> {
  requireAdmin(actor);
  const user = found(await deps.users.findById(id), id);
  if (user.role === 'admin') await keepOneAdmin(deps);
  const deleted = await deps.users.markDeleted(id, createEnvelope('user.deleted', { user_id: id }, 'users'));
  if (!deleted) throw new NotFound(`User ${id} not found`);
  // The tombstone already locks the user out; removing the tokens is tidying.
  await deps.tokens.deleteAllOf(id);
  await deps.sessions.deleteAllOf(id);
  deps.onEventsRecorded();
}

export async function listUsers(deps: UsersDeps, actor: Actor, page: number, perPage: number) {
  requireAdmin(actor);
  return deps.users.page((page - 1) * perPage, perPage);
}

export async function searchUsersByEmail(deps: UsersDeps, actor: Actor, email: string): Promise<UserDocument[]> {
  requireAdmin(actor);
  if (!email.trim()) throw InvalidArgument.field('email', "can't be blank");
  const user = await deps.users.findByEmail(email.trim().toLowerCase());
  return user ? [user] : [];
}

/** An instance without an admin could never be managed again. */
async function keepOneAdmin(deps: UsersDeps): Promise<void> {
  if ((await deps.users.countAdmins()) <= 1) {
    throw new FailedPrecondition('The last admin cannot be removed or demoted', { role: ['last admin'] });
  }
}

function found(user: UserDocument | null, id: number): UserDocument {
  if (!user) throw new NotFound(`User ${id} not found`);
  return user;
}
