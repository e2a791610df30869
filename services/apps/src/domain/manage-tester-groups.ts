import { InvalidArgument, NotFound } from '@hangar/errors';
import { createEnvelope } from '@hangar/events';
import type { CountedJoinLink, JoinLinkDocument } from '../data/tester-access.model';
import type { TesterGroupDocument } from '../data/tester-group.model';
import type { TesterDocument } from '../data/tester.model';
import { appFor } from './access';
import type { AppsDeps } from './deps';
import type { Actor } from './permissions';
import { hashSecret, newTesterSecret } from './tester-secrets';
import { parseTesterEmails, validateExpiry, validateGroupName, validateSeats } from './tester-fields';

/**
 * An app's tester groups, managed by its admins (`testers.manage`): who is in each (by
 * e-mail) and which of the app's channels it opens. Adding a tester records
 * tester.invited with the membership; the mailer sends the sign-in link.
 */

export interface TesterGroupView {
  group: TesterGroupDocument;
  testers: TesterDocument[];
}

export async function createTesterGroup(deps: AppsDeps, actor: Actor, appId: number, name: string, channelIds: number[]): Promise<TesterGroupView> {
  await appFor(deps, actor, appId, 'testers.manage');
  const group = await deps.testerGroups.create(appId, validateGroupName(name), await channelsOfApp(deps, appId, channelIds));
  return { group, testers: [] };
}

export async function listTesterGroups(deps: AppsDeps, actor: Actor, appId: number): Promise<TesterGroupView[]> {
  await appFor(deps, actor, appId, 'testers.manage');
  const groups = await deps.testerGroups.listByApp(appId);
  const testers = await deps.testers.listByGroups(groups.map((g) => g._id));
  return groups.map((group) => ({ group, testers: testers.filter((t) => t.groupId === group._id) }));
}

export async function getTesterGroup(deps: AppsDeps, actor: Actor, appId: number, groupId: number): Promise<TesterGroupView> {
  const group = await groupFor(deps, actor, appId, groupId);
  return { group, testers: await deps.testers.listByGroups([group._id]) };
}

export async function updateTesterGroup(deps: AppsDeps, actor: Actor, appId: number, groupId: number, input: { name?: string; channelIds?: number[] }): Promise<TesterGroupView> {
  await groupFor(deps, actor, appId, groupId);
  const changes: { name?: string; channelIds?: number[] } = {};
  if (input.name !== undefined) changes.name = validateGroupName(input.name);
  if (input.channelIds !== undefined) changes.channelIds = await channelsOfApp(deps, appId, input.channelIds);
  const group = await deps.testerGroups.update(groupId, changes);
  if (!group) throw new NotFound(`Tester group ${groupId} not found`);
  return { group, testers: await deps.testers.listByGroups([group._id]) };
}

/** The group, its join links and its memberships; testers left in no group are signed out. */
export async function deleteTesterGroup(deps: AppsDeps, actor: Actor, appId: number, groupId: number): Promise<void> {
  await groupFor(deps, actor, appId, groupId);
  await removeGroup(deps, groupId);
}

export async function removeGroup(deps: AppsDeps, groupId: number): Promise<void> {
  await deps.testerGroups.delete(groupId);
  await deps.testerAccess.deleteJoinLinksOfGroup(groupId);
  await endAccessOfUngrouped(deps, await deps.testers.removeGroup(groupId));
}

/** Every group of a deleted app goes with it (deleteApp). */
export async function removeTesterGroupsOfApp(deps: AppsDeps, appId: number): Promise<void> {
  for (const group of await deps.testerGroups.listByApp(appId)) await removeGroup(deps, group._id);
}

/** A deleted channel opens nothing any more: it leaves every group of its app. */
export async function forgetChannel(deps: AppsDeps, appId: number, channelId: number): Promise<void> {
  for (const group of await deps.testerGroups.listByApp(appId)) {
    if (group.channelIds.includes(channelId)) await deps.testerGroups.update(group._id, { channelIds: group.channelIds.filter((id) => id !== channelId) });
  }
}

/** Memberships written at once while adding a list. */
const ADD_CONCURRENCY = 8;

export async function addTesters(deps: AppsDeps, actor: Actor, appId: number, groupId: number, emails: string[], linkBase: string): Promise<{ added: TesterDocument[]; alreadyMembers: string[] }> {
  const group = await groupFor(deps, actor, appId, groupId);
  const addresses = parseTesterEmails(emails);
  const members = new Set((await deps.testers.listByGroups([group._id])).map((t) => t.email));
  const added: TesterDocument[] = [];
  const alreadyMembers = addresses.filter((email) => members.has(email));
  const fresh = addresses.filter((email) => !members.has(email));
  // A few at a time: ids are still taken one after another (nextSequence), the inserts overlap.
  for (let i = 0; i < fresh.length; i += ADD_CONCURRENCY) {
    const batch = fresh.slice(i, i + ADD_CONCURRENCY);
    const results = await Promise.all(batch.map((email) => deps.testers.add(appId, group._id, email, linkBase, (testerId) => invitation(testerId, group))));
    results.forEach((tester, j) => (tester ? added.push(tester) : alreadyMembers.push(batch[j]!)));
  }
  if (added.length > 0) deps.onEventsRecorded();
  return { added, alreadyMembers };
}

export async function removeTester(deps: AppsDeps, actor: Actor, appId: number, groupId: number, testerId: number): Promise<void> {
  await groupFor(deps, actor, appId, groupId);
  const removed = await deps.testers.remove(groupId, testerId);
  if (!removed) throw new NotFound(`Tester ${testerId} is not in tester group ${groupId}`);
  await endAccessOfUngrouped(deps, [removed.email]);
}

export async function createJoinLink(deps: AppsDeps, actor: Actor, appId: number, groupId: number, expiresAtMs: number, seats: number, linkBase: string): Promise<{ link: JoinLinkDocument; secret: string }> {
  const group = await groupFor(deps, actor, appId, groupId);
  const input = { expiresAt: validateExpiry(expiresAtMs), seats: validateSeats(seats) };
  const secret = newTesterSecret();
  const link = await deps.testerAccess.createJoinLink({ appId, groupId: group._id, secretHash: hashSecret(secret), seats: input.seats, linkBase, ...(input.expiresAt ? { expiresAt: input.expiresAt } : {}) });
  return { link, secret };
}

export async function listJoinLinks(deps: AppsDeps, actor: Actor, appId: number, groupId: number): Promise<CountedJoinLink[]> {
  await groupFor(deps, actor, appId, groupId);
  return deps.testerAccess.listJoinLinks(groupId);
}

export async function deleteJoinLink(deps: AppsDeps, actor: Actor, appId: number, groupId: number, linkId: number): Promise<void> {
  await groupFor(deps, actor, appId, groupId);
  if (!(await deps.testerAccess.deleteJoinLink(groupId, linkId))) throw new NotFound(`Join link ${linkId} not found`);
}

export function invitation(testerId: number, group: TesterGroupDocument) {
  return createEnvelope('tester.invited', { tester_id: testerId, group_id: group._id, app_id: group.appId }, 'apps');
}

/** Addresses that are in no group any more lose their sessions and unused sign-in links at once, and their devices. */
async function endAccessOfUngrouped(deps: AppsDeps, emails: string[]): Promise<void> {
  for (const email of emails) {
    if ((await deps.testers.listByEmail(email)).length > 0) continue;
    await deps.testerAccess.endAccessOf(email);
    await deps.testerDevices.removeAllOf(email);
  }
}

async function groupFor(deps: AppsDeps, actor: Actor, appId: number, groupId: number): Promise<TesterGroupDocument> {
  await appFor(deps, actor, appId, 'testers.manage');
  const group = await deps.testerGroups.findById(groupId);
  if (!group || group.appId !== appId) throw new NotFound(`Tester group ${groupId} not found`);
  return group;
}

/** The ids, each a live channel of this app (a 422 naming the others). */
async function channelsOfApp(deps: AppsDeps, appId: number, channelIds: number[]): Promise<number[]> {
  const ids = [...new Set(channelIds)];
  const problems: string[] = [];
  for (const id of ids) {
    const channel = id > 0 ? await deps.channels.findById(id) : null;
    if (!channel || channel.appId !== appId) problems.push(`${id} is not a channel of this app`);
  }
  if (problems.length > 0) throw new InvalidArgument('Some channels are not channels of this app', { channel_ids: problems.slice(0, 20) });
  return ids.sort((a, b) => a - b);
}
