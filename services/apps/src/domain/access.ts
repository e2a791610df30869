import { NotFound } from '@hangar/errors';
import type { AppDocument } from '../data/app.model';
import type { ChannelDocument } from '../data/channel.model';
import type { SchemeDocument } from '../data/scheme.model';
import type { AppsDeps } from './deps';
import { Actor, AppAction, isGlobalAdmin, requireCan, requireTokenReaches } from './permissions';

/**
 * Loads what a request addresses in the order PRODUCT §2 asks for: does it
 * exist (404), may the actor do this (403) — before any validation or write.
 * A scheme or channel whose app is gone does not exist.
 */

/** Every check of a right on an app starts here, so a token limited to other apps is refused in one place. */
export async function membershipOf(deps: AppsDeps, actor: Actor, appId: number): Promise<string | undefined> {
  requireTokenReaches(actor, appId);
  if (isGlobalAdmin(actor)) return undefined;
  return (await deps.collaborators.find(appId, actor.userId))?.role;
}

export async function appFor(deps: AppsDeps, actor: Actor, appId: number, action: AppAction): Promise<AppDocument> {
  const app = await deps.apps.findById(appId);
  if (!app) throw new NotFound(`App ${appId} not found`);
  requireCan(actor, await membershipOf(deps, actor, app._id), action);
  return app;
}

export async function schemeFor(deps: AppsDeps, actor: Actor, schemeId: number, action: AppAction): Promise<{ app: AppDocument; scheme: SchemeDocument }> {
  const scheme = await deps.schemes.findById(schemeId);
  const app = scheme ? await deps.apps.findById(scheme.appId) : null;
  if (!scheme || !app) throw new NotFound(`Scheme ${schemeId} not found`);
  requireCan(actor, await membershipOf(deps, actor, app._id), action);
  return { app, scheme };
}

export async function channelFor(
  deps: AppsDeps,
  actor: Actor,
  channelId: number,
  action: AppAction,
): Promise<{ app: AppDocument; scheme: SchemeDocument; channel: ChannelDocument }> {
  const channel = await deps.channels.findById(channelId);
  const found = channel ? await liveParents(deps, channel) : null;
  if (!channel || !found) throw new NotFound(`Channel ${channelId} not found`);
  requireCan(actor, await membershipOf(deps, actor, found.app._id), action);
  return { ...found, channel };
}

/** The channel's scheme and app, or null when either is gone. */
export async function liveParents(deps: AppsDeps, channel: ChannelDocument): Promise<{ app: AppDocument; scheme: SchemeDocument } | null> {
  const [scheme, app] = await Promise.all([deps.schemes.findById(channel.schemeId), deps.apps.findById(channel.appId)]);
  return scheme && app ? { app, scheme } : null;
}
