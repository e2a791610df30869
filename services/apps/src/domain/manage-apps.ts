import { NotFound } from '@hangar/errors';
import { createEnvelope } from '@hangar/events';
import { appFor } from './access';
import { refreshAppTree } from './app-trees';
import type { AppsDeps } from './deps';
import { validateAppName } from './fields';
import { removeTesterGroupsOfApp } from './manage-tester-groups';
import { Actor, isGlobalAdmin, requireCanCreateApp, withinTokenApps } from './permissions';
import { AppView, collaboratorViews, fullAppView } from './views';

/** The creator becomes the app's admin collaborator. */
export async function createApp(deps: AppsDeps, actor: Actor, name: string): Promise<AppView> {
  requireCanCreateApp(actor);
  const valid = validateAppName(name);
  const app = await deps.apps.create(valid);
  await deps.collaborators.add(app._id, actor.userId, 'admin');
  await refreshAppTree(deps, app._id);
  return { app, schemes: [], collaborators: await collaboratorViews(deps, app._id) };
}

export async function getApp(deps: AppsDeps, actor: Actor, id: number): Promise<AppView> {
  return fullAppView(deps, await appFor(deps, actor, id, 'app.read'));
}

/**
 * Admins see every app; everyone else the apps they collaborate on. Newest first. Read from
 * the apps' trees (app-trees.ts): each holds its app's schemes and channels, so a page costs
 * the same queries whatever its size.
 */
export async function listApps(deps: AppsDeps, actor: Actor, page: number, perPage: number): Promise<{ apps: AppView[]; total: number }> {
  const ids = withinTokenApps(actor, isGlobalAdmin(actor) ? undefined : await deps.collaborators.appIdsOf(actor.userId));
  const result = await deps.trees.page(ids, (page - 1) * perPage, perPage);
  return {
    apps: result.trees.map((tree) => ({ app: tree, schemes: tree.schemes.map((scheme) => ({ scheme, channels: scheme.channels })) })),
    total: result.total,
  };
}

export async function renameApp(deps: AppsDeps, actor: Actor, id: number, name: string): Promise<AppView> {
  await appFor(deps, actor, id, 'app.rename');
  const valid = validateAppName(name);
  const app = await deps.apps.rename(id, valid);
  if (!app) throw new NotFound(`App ${id} not found`);
  await refreshAppTree(deps, id);
  return fullAppView(deps, app);
}

/**
 * The tombstone and app.deleted are one write; schemes, channels and
 * memberships go after (reads already treat them as gone with their app).
 */
export async function deleteApp(deps: AppsDeps, actor: Actor, id: number): Promise<void> {
  await appFor(deps, actor, id, 'app.delete');
  const deleted = await deps.apps.markDeleted(id, createEnvelope('app.deleted', { app_id: id }, 'apps'));
  if (!deleted) throw new NotFound(`App ${id} not found`);
  deps.onEventsRecorded();
  await refreshAppTree(deps, id);
  await deps.channels.deleteByApp(id);
  await deps.schemes.deleteByApp(id);
  await deps.collaborators.removeAllOfApp(id);
  await removeTesterGroupsOfApp(deps, id);
}
