import { FailedPrecondition, InvalidArgument, NotFound } from '@hangar/errors';
import type { CollaboratorDocument } from '../data/collaborator.model';
import { appFor } from './access';
import type { AppsDeps } from './deps';
import { validateCollaboratorRole, validateUserId } from './fields';
import type { Actor } from './permissions';
import { CollaboratorView, collaboratorViews } from './views';

export async function listCollaborators(deps: AppsDeps, actor: Actor, appId: number): Promise<CollaboratorView[]> {
  await appFor(deps, actor, appId, 'collaborators.read');
  return collaboratorViews(deps, appId);
}

export async function getCollaborator(deps: AppsDeps, actor: Actor, appId: number, userId: number): Promise<CollaboratorView> {
  await appFor(deps, actor, appId, 'collaborators.read');
  return withUser(deps, await member(deps, appId, userId));
}

/** The user must exist (422 naming user_id otherwise); twice is 409. */
export async function addCollaborator(deps: AppsDeps, actor: Actor, appId: number, userId: number, role: string): Promise<CollaboratorView> {
  await appFor(deps, actor, appId, 'collaborators.manage');
  const id = validateUserId(userId);
  const valid = validateCollaboratorRole(role);
  const user = (await deps.users.lookup([id])).get(id);
  if (!user) throw InvalidArgument.field('user_id', 'does not exist');
  const added = await deps.collaborators.add(appId, id, valid);
  return { userId: id, username: user.username, email: user.email, role: added.role };
}

export async function updateCollaborator(deps: AppsDeps, actor: Actor, appId: number, userId: number, role: string): Promise<CollaboratorView> {
  await appFor(deps, actor, appId, 'collaborators.manage');
  const valid = validateCollaboratorRole(role);
  const current = await member(deps, appId, userId);
  if (current.role === 'admin' && valid !== 'admin') await keepOneAdmin(deps, appId);
  const updated = await deps.collaborators.setRole(appId, userId, valid);
  if (!updated) throw new NotFound(`User ${userId} is not a collaborator of app ${appId}`);
  return withUser(deps, updated);
}

export async function removeCollaborator(deps: AppsDeps, actor: Actor, appId: number, userId: number): Promise<void> {
  await appFor(deps, actor, appId, 'collaborators.manage');
  const current = await member(deps, appId, userId);
  if (current.role === 'admin') await keepOneAdmin(deps, appId);
  if (!(await deps.collaborators.remove(appId, userId))) throw new NotFound(`User ${userId} is not a collaborator of app ${appId}`);
}

/** An app without an admin collaborator could only be managed by global admins again. */
async function keepOneAdmin(deps: AppsDeps, appId: number): Promise<void> {
  if ((await deps.collaborators.countAdmins(appId)) <= 1) {
    throw new FailedPrecondition('The last admin of the app cannot be removed or demoted', { role: ['last admin of the app'] });
  }
}

async function member(deps: AppsDeps, appId: number, userId: number): Promise<CollaboratorDocument> {
  const row = await deps.collaborators.find(appId, userId);
  if (!row) throw new NotFound(`User ${userId} is not a collaborator of app ${appId}`);
  return row;
}

async function withUser(deps: AppsDeps, row: CollaboratorDocument): Promise<CollaboratorView> {
  const user = (await deps.users.lookup([row.userId])).get(row.userId);
  if (!user) throw new NotFound(`User ${row.userId} not found`);
  return { userId: row.userId, username: user.username, email: user.email, role: row.role };
}
