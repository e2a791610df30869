import { InvalidArgument, NotFound, PermissionDenied } from '@hangar/errors';
import type { AppDocument } from '../data/app.model';
import type { ChannelDocument } from '../data/channel.model';
import type { SchemeDocument } from '../data/scheme.model';
import { liveParents, membershipOf } from './access';
import type { AppsDeps } from './deps';
import { Actor, hasAppRole, isCollaboratorRole } from './permissions';
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

/** For other services: passes when the actor holds at least `role` on the app. */
export async function checkPermission(deps: AppsDeps, actor: Actor, appId: number, role: string): Promise<void> {
  if (!isCollaboratorRole(role)) throw InvalidArgument.field('role', 'must be one of member, developer, admin');
  const app = await deps.apps.findById(appId);
  if (!app) throw new NotFound(`App ${appId} not found`);
  if (!hasAppRole(actor, await membershipOf(deps, actor, appId), role)) throw new PermissionDenied(`This needs the ${role} role on the app`);
}

/** A channel without a password lets everyone in. */
export async function verifyChannelPassword(deps: AppsDeps, channelKey: string, password: string): Promise<boolean> {
  const { channel } = await resolveChannel(deps, channelKey);
  if (!channel.passwordHash) return true;
  return verifyPassword(password, channel.passwordHash);
}
