import { InvalidArgument, NotFound, PermissionDenied } from '@hangar/errors';
import type { AppDocument } from '../data/app.model';
import type { ChannelDocument } from '../data/channel.model';
import type { SchemeDocument } from '../data/scheme.model';
import { liveParents, membershipOf } from './access';
import type { AppsDeps } from './deps';
import { APP_ACTIONS, isAppAction } from '@hangar/proto';
import { Actor, CollaboratorRole, REQUIRED_ROLE, hasAppRole, isCollaboratorRole } from './permissions';
import { verifyPassword } from './secrets';

export interface ChannelContextView {
  app: AppDocument;
  scheme: SchemeDocument;
  channel: ChannelDocument;
}

/**
 * A channel key (slug) — or, when the key is empty, a channel id (other
 * services keep ids: a slug can change) — to its channel, scheme and app;
 * NotFound when any of them is gone.
 */
export async function resolveChannel(deps: AppsDeps, channelKey: string, channelId = 0): Promise<ChannelContextView> {
  const key = channelKey.trim();
  const channel = key ? await deps.channels.findBySlug(key) : channelId > 0 ? await deps.channels.findById(channelId) : null;
  const parents = channel ? await liveParents(deps, channel) : null;
  if (!channel || !parents) throw new NotFound('Channel not found for this channel_key');
  return { ...parents, channel };
}

/** For services that name an app in what they send (webhook bodies): the app, without a permission check. */
export async function describeApp(deps: AppsDeps, appId: number): Promise<AppDocument> {
  const app = await deps.apps.findById(appId);
  if (!app) throw new NotFound(`App ${appId} not found`);
  return app;
}

/**
 * For other services: passes when the actor may do `action` on the app. `role` is what callers
 * sent before actions had names, read only without an action (a rolling upgrade's older caller).
 */
export async function checkPermission(deps: AppsDeps, actor: Actor, appId: number, asked: { action: string; role: string }): Promise<void> {
  const least = leastRoleFor(asked);
  const app = await deps.apps.findById(appId);
  if (!app) throw new NotFound(`App ${appId} not found`);
  if (!hasAppRole(actor, await membershipOf(deps, actor, appId), least)) throw new PermissionDenied(`This needs the ${least} role on the app`);
}

function leastRoleFor({ action, role }: { action: string; role: string }): CollaboratorRole {
  if (action) {
    if (!isAppAction(action)) throw InvalidArgument.field('action', `must be one of ${APP_ACTIONS.join(', ')}`);
    return REQUIRED_ROLE[action];
  }
  if (!isCollaboratorRole(role)) throw InvalidArgument.field('action', `must be one of ${APP_ACTIONS.join(', ')}`);
  return role;
}

/** A channel without a password lets everyone in. */
export async function verifyChannelPassword(deps: AppsDeps, channelKey: string, password: string): Promise<boolean> {
  const { channel } = await resolveChannel(deps, channelKey);
  if (!channel.passwordHash) return true;
  return verifyPassword(password, channel.passwordHash);
}
