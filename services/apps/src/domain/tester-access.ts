import { FailedPrecondition, NotFound, Unauthenticated } from '@hangar/errors';
import type { TesterDocument } from '../data/tester.model';
import type { AppsDeps } from './deps';
import { invitation } from './manage-tester-groups';
import { hashSecret, newTesterSecret } from './tester-secrets';
import { validateTesterEmail } from './tester-fields';

/**
 * The tester's side: no account, no password. A join link adds an address to its group; an
 * invitation (tester.invited) makes the mailer ask for a single-use sign-in link; the link
 * starts a session whose reach is computed on every use from the address's memberships, so
 * a removal holds at once, on every replica.
 */

export interface TesterChannelView {
  appId: number;
  appName: string;
  channelId: number;
  channelName: string;
  slug: string;
  deviceType: string;
}

const USER_AGENT_MAX = 300;

/**
 * A join link and an address: a new member of the link's group (taking a seat of a limited
 * link), or an existing one invited again. Either way the address gets a sign-in link by
 * mail and nothing else: whoever holds the join link learns nothing of who is in the group.
 */
export async function joinTesterGroup(deps: AppsDeps, secret: string, email: string, now = new Date()): Promise<void> {
  const link = secret ? await deps.testerAccess.findJoinLink(hashSecret(secret)) : null;
  if (!link) throw new NotFound('This join link does not exist (any more)');
  if (link.expiresAt && link.expiresAt.getTime() <= now.getTime()) throw new FailedPrecondition('This join link has expired');
  const group = await deps.testerGroups.findById(link.groupId);
  if (!group) throw new NotFound('This join link does not exist (any more)');
  const address = validateTesterEmail(email);
  // Where the mailed link points is the admin's choice, made with the join link: never the Host of
  // this unauthenticated request, which could send a victim's sign-in secret to another site.
  const linkBase = link.linkBase;
  const member = await deps.testers.findInGroup(group._id, address);
  if (member) {
    await deps.testers.inviteAgain(member, linkBase, invitation(member._id, group));
  } else {
    if (link.seats > 0 && !(await deps.testerAccess.takeSeat(link))) throw new FailedPrecondition('Every seat of this join link is taken');
    // A race with an admin's invitation of the same address leaves one membership: invite it again.
    const added = await deps.testers.add(group.appId, group._id, address, linkBase, (testerId) => invitation(testerId, group));
    const again = added ? null : await deps.testers.findInGroup(group._id, address);
    if (again) await deps.testers.inviteAgain(again, linkBase, invitation(again._id, group));
  }
  deps.onEventsRecorded();
}

/**
 * An address asks for a sign-in link: its newest membership is invited again, to the origin it was
 * invited from (never the asker's Host: the request is unauthenticated); nothing, silently, for an
 * address in no group.
 */
export async function requestTesterSignIn(deps: AppsDeps, email: string): Promise<void> {
  const address = validateTesterEmail(email);
  const newest = (await deps.testers.listByEmail(address)).sort((a, b) => b._id - a._id)[0];
  const group = newest ? await deps.testerGroups.findById(newest.groupId) : null;
  if (!newest || !group) return;
  await deps.testers.inviteAgain(newest, newest.linkBase, invitation(newest._id, group));
  deps.onEventsRecorded();
}

/** For the mailer: a fresh single-use sign-in link of a member (NOT_FOUND once the tester is removed: nothing is sent). */
export async function issueTesterSignIn(deps: AppsDeps, testerId: number): Promise<{ secret: string; tester: TesterDocument; appName: string; groupName: string; expiresAt: Date }> {
  const tester = await deps.testers.findById(testerId);
  const group = tester ? await deps.testerGroups.findById(tester.groupId) : null;
  const app = group ? await deps.apps.findById(group.appId) : null;
  if (!tester || !group || !app) throw new NotFound(`Tester ${testerId} not found`);
  const secret = newTesterSecret();
  const expiresAt = new Date(Date.now() + deps.testerSignInTtlMs);
  await deps.testerAccess.createSignInLink(tester._id, tester.email, hashSecret(secret), expiresAt);
  return { secret, tester, appName: app.name, groupName: group.name, expiresAt };
}

/** A sign-in link, used once: a tester session, and every invitation of the address marked joined. */
export async function redeemTesterSignIn(deps: AppsDeps, secret: string, userAgent: string, now = new Date()): Promise<{ secret: string; email: string; expiresAt: Date }> {
  const link = secret ? await deps.testerAccess.redeemSignInLink(hashSecret(secret)) : null;
  if (!link) throw new Unauthenticated('This sign-in link was used already or does not exist: ask for a new one');
  if (link.expiresAt.getTime() <= now.getTime()) throw new Unauthenticated('This sign-in link has expired: ask for a new one');
  if ((await deps.testers.listByEmail(link.email)).length === 0) throw new Unauthenticated('You are not a tester of any app any more');
  await deps.testers.markJoined(link.email, now);
  const sessionSecret = newTesterSecret();
  const expiresAt = new Date(now.getTime() + deps.testerSessionTtlMs);
  await deps.testerAccess.createSession(link.email, hashSecret(sessionSecret), userAgent.slice(0, USER_AGENT_MAX), expiresAt);
  return { secret: sessionSecret, email: link.email, expiresAt };
}

/** A live tester session (by its secret, or by the id the gateway signed into an install link): its address and the channels its groups open now (read on every call). */
export async function authenticateTester(deps: AppsDeps, secret: string, sessionId = 0, now = new Date()): Promise<{ sessionId: number; email: string; channels: TesterChannelView[] }> {
  const session = secret ? await deps.testerAccess.findSession(hashSecret(secret)) : sessionId > 0 ? await deps.testerAccess.findSessionById(sessionId) : null;
  if (!session) throw new Unauthenticated('The tester session is invalid or has ended');
  if (session.expiresAt.getTime() <= now.getTime()) {
    await deps.testerAccess.deleteSession(session._id);
    throw new Unauthenticated('Your tester session has expired: open a new sign-in link');
  }
  const memberships = await deps.testers.listByEmail(session.email);
  if (memberships.length === 0) throw new Unauthenticated('You are not a tester of any app any more');
  return { sessionId: session._id, email: session.email, channels: await channelsOf(deps, memberships) };
}

export async function endTesterSession(deps: AppsDeps, secret: string): Promise<void> {
  const session = secret ? await deps.testerAccess.findSession(hashSecret(secret)) : null;
  if (session) await deps.testerAccess.deleteSession(session._id);
}

/**
 * Who hears of a new build on a channel: the members of the app's groups that open it, minus those
 * who unsubscribed; an address in two such groups once (its first membership's links).
 */
export async function listChannelTesters(deps: AppsDeps, channelId: number): Promise<TesterDocument[]> {
  const channel = await deps.channels.findById(channelId);
  if (!channel) return [];
  const groups = (await deps.testerGroups.listByApp(channel.appId)).filter((g) => g.channelIds.includes(channelId));
  const byAddress = new Map<string, TesterDocument>();
  for (const tester of await deps.testers.listByGroups(groups.map((g) => g._id))) {
    if (tester.notify !== false && !byAddress.has(tester.email)) byAddress.set(tester.email, tester);
  }
  return [...byAddress.values()];
}

export async function unsubscribeTester(deps: AppsDeps, testerId: number, key: string): Promise<void> {
  if (!key || !(await deps.testers.unsubscribe(testerId, key))) throw new NotFound('This unsubscribe link does not exist (any more)');
}

/** The tester's memberships that open this channel: each keeps its last download. */
export async function recordTesterDownload(deps: AppsDeps, email: string, channelId: number, releaseId: number, at = new Date()): Promise<void> {
  const memberships = await deps.testers.listByEmail(email);
  const groups = await Promise.all([...new Set(memberships.map((m) => m.groupId))].map((id) => deps.testerGroups.findById(id)));
  const opening = new Set(groups.filter((g) => g?.channelIds.includes(channelId)).map((g) => g!._id));
  await deps.testers.recordDownload(memberships.filter((m) => opening.has(m.groupId)).map((m) => m._id), releaseId, at);
}

async function channelsOf(deps: AppsDeps, memberships: TesterDocument[]): Promise<TesterChannelView[]> {
  const groups = (await Promise.all([...new Set(memberships.map((m) => m.groupId))].map((id) => deps.testerGroups.findById(id)))).filter((g) => g !== null);
  const views: TesterChannelView[] = [];
  for (const channelId of [...new Set(groups.flatMap((g) => g.channelIds))].sort((a, b) => a - b)) {
    const channel = await deps.channels.findById(channelId);
    const app = channel ? await deps.apps.findById(channel.appId) : null;
    if (!channel || !app) continue;
    views.push({ appId: app._id, appName: app.name, channelId: channel._id, channelName: channel.name, slug: channel.slug, deviceType: channel.deviceType });
  }
  return views;
}
