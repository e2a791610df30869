import { InvalidArgument, NotFound, Unauthenticated } from '@hangar/errors';
import type { AppAction, apps } from '@hangar/proto';
import type { DebugFileDocument } from '../data/debug-file.model';
import type { Actor, DebugFilesDeps } from './deps';

/** Reading debug files, or uploading, replacing and deleting them: the apps service decides who may (PRODUCT §2). */
export type Access = Extract<AppAction, 'debug_files.read' | 'debug_files.manage'>;

export function requireActor(actor: Actor | undefined): Actor {
  if (!actor?.userId) throw new Unauthenticated();
  return actor;
}

/** The channel behind a key; 422 without one, 404 for an unknown one (the apps service decides). */
export async function resolveChannel(deps: DebugFilesDeps, channelKey: string): Promise<apps.ChannelContext> {
  const key = channelKey.trim();
  if (!key) throw InvalidArgument.field('channel_key', "can't be blank");
  return deps.apps.resolveChannel({ channelKey: key, channelId: 0 });
}

/** The channel and the caller's right on its app, checked before anything is read or changed. */
export async function channelWithAccess(deps: DebugFilesDeps, actorIn: Actor | undefined, channelKey: string, access: Access): Promise<apps.ChannelContext> {
  const actor = requireActor(actorIn);
  const context = await resolveChannel(deps, channelKey);
  await deps.apps.checkPermission({ actor, appId: context.app!.id, action: access });
  return context;
}

/** A live debug file of this channel; another channel's file is as unknown as a missing one. */
export async function fileOfChannel(deps: DebugFilesDeps, context: apps.ChannelContext, id: number): Promise<DebugFileDocument> {
  const file = await deps.files.findById(id);
  if (!file || file.channelId !== context.channel!.id) throw new NotFound(`Debug file ${id} not found`);
  return file;
}
