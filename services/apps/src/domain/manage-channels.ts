import { NotFound } from '@hangar/errors';
import { createEnvelope } from '@hangar/events';
import type { ChannelDocument } from '../data/channel.model';
import type { ChannelChanges } from '../data/channels.repository';
import { channelFor, schemeFor } from './access';
import { refreshAppTree } from './app-trees';
import type { AppsDeps } from './deps';
import { forgetChannel } from './manage-tester-groups';
import { ChannelFields, ChannelInput, validateChannelFields } from './fields';
import type { Actor } from './permissions';
import { generateSlug, hashPassword, requireStrongKeyWhenProtected } from './secrets';

export async function createChannel(deps: AppsDeps, actor: Actor, schemeId: number, input: ChannelInput): Promise<ChannelDocument> {
  const { app } = await schemeFor(deps, actor, schemeId, 'channels.manage');
  const fields = validateChannelFields(input, 'create');
  if (fields.slug) requireStrongKeyWhenProtected(fields.slug, Boolean(fields.password), 'slug');
  const channel = await deps.channels.create({
    schemeId,
    appId: app._id,
    name: fields.name!,
    slug: fields.slug ?? generateSlug(),
    deviceType: fields.deviceType!,
    bundleId: fields.bundleId!,
    gitUrl: fields.gitUrl ?? null,
    passwordHash: fields.password ? await hashPassword(fields.password) : null,
  });
  await refreshAppTree(deps, app._id);
  return channel;
}

export async function listChannels(deps: AppsDeps, actor: Actor, schemeId: number): Promise<ChannelDocument[]> {
  await schemeFor(deps, actor, schemeId, 'app.read');
  return deps.channels.listBySchemes([schemeId]);
}

export async function getChannel(deps: AppsDeps, actor: Actor, id: number): Promise<ChannelDocument> {
  return (await channelFor(deps, actor, id, 'app.read')).channel;
}

export async function updateChannel(deps: AppsDeps, actor: Actor, id: number, input: ChannelInput): Promise<ChannelDocument> {
  const { channel } = await channelFor(deps, actor, id, 'channels.manage');
  const fields = validateChannelFields(input, 'update');
  const protectedAfter = fields.password === undefined ? Boolean(channel.passwordHash) : fields.password !== null;
  requireStrongKeyWhenProtected(fields.slug ?? channel.slug, protectedAfter, fields.slug !== undefined ? 'slug' : 'password');
  const updated = found(await deps.channels.update(id, await toChanges(fields)), id);
  await refreshAppTree(deps, updated.appId);
  return updated;
}

/** Present and non-empty sets the visit password; empty clears it. */
export async function setChannelPassword(deps: AppsDeps, actor: Actor, id: number, password: string): Promise<void> {
  const { channel } = await channelFor(deps, actor, id, 'channels.manage');
  const fields = validateChannelFields({ password }, 'update');
  requireStrongKeyWhenProtected(channel.slug, Boolean(fields.password), 'password');
  const updated = found(await deps.channels.update(id, await toChanges(fields)), id);
  await refreshAppTree(deps, updated.appId);
}

/** Tombstone + channel.deleted in one write; the slug is free again at once. */
export async function deleteChannel(deps: AppsDeps, actor: Actor, id: number): Promise<void> {
  const { app, scheme } = await channelFor(deps, actor, id, 'channels.manage');
  const event = createEnvelope('channel.deleted', { app_id: app._id, scheme_id: scheme._id, channel_id: id }, 'apps');
  if (!(await deps.channels.markDeleted(id, event))) throw new NotFound(`Channel ${id} not found`);
  deps.onEventsRecorded();
  await refreshAppTree(deps, app._id);
  await forgetChannel(deps, app._id, id);
}

async function toChanges(fields: ChannelFields): Promise<ChannelChanges> {
  const { password, ...rest } = fields;
  const changes: ChannelChanges = { ...rest };
  if (password !== undefined) changes.passwordHash = password === null ? null : await hashPassword(password);
  return changes;
}

function found(channel: ChannelDocument | null, id: number): ChannelDocument {
  if (!channel) throw new NotFound(`Channel ${id} not found`);
  return channel;
}
