import { createEnvelope, DownloadTally } from '@hangar/events';
import type { DownloadStatsRepository, ReleaseOwner } from '../data/download-stats.repository';
import { UniqueClients } from './unique-clients';

/** A downloads message (a gateway's tallies) with its place in the downloads stream. */
export interface CountedMessage {
  /** `<stream incarnation>:<stream sequence>`: unique for good, even if the stream is made anew. */
  id: string;
  tallies: DownloadTally[];
}

export interface RecordDownloadsDeps {
  stats: DownloadStatsRepository;
  /** The release's app, scheme and channel; null when it is gone (its downloads are dropped). */
  ownerOf: (releaseId: number) => Promise<ReleaseOwner | null>;
  /** After the counts of these channels changed: bumps their download-count generation. */
  onCountsChanged: (channelIds: number[]) => Promise<void>;
  /** After a write that recorded release.downloaded events. */
  onEventsRecorded: () => void;
  /** At most one release.downloaded per release per this many ms (a minute). */
  noticeIntervalMs: number;
  now?: () => number;
}

export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * Counts a batch of downloads messages into each release's days and total:
 * one insert for the batch's claims, then a few writes per release and day
 * however many downloads or clients — a storm of 10,000 downloads from one
 * client is a few writes and one unique client, as are 1,000 new clients.
 * A message is claimed (by its place in the stream) before it is counted, so
 * a redelivered one is never counted twice, whatever order redeliveries come
 * in; the price is that a process dying between the claim and the count
 * leaves that batch uncounted (docs/decisions.md).
 */
export async function recordDownloads(deps: RecordDownloadsDeps, batch: CountedMessage[]): Promise<void> {
  const claimed = await deps.stats.claimMessages(batch.map((m) => ({ id: m.id, day: utcDay(m.tallies[0]!.t) })));
  // Per release, the claimed messages and their tallies of it: a message may carry several releases.
  const byRelease = new Map<number, { messageIds: Set<string>; tallies: DownloadTally[] }>();
  for (const m of batch) {
    if (!claimed.has(m.id)) continue;
    for (const tally of m.tallies) {
      const release = byRelease.get(tally.r) ?? { messageIds: new Set<string>(), tallies: [] };
      release.messageIds.add(m.id);
      release.tallies.push(tally);
      byRelease.set(tally.r, release);
    }
  }
  const changedChannels = new Set<number>();
  let recordedEvents = false;
  const pending = [...byRelease.keys()];
  const done = new Set<string>();
  try {
    for (const releaseId of [...pending]) {
      const { messageIds, tallies } = byRelease.get(releaseId)!;
      const owner = await deps.ownerOf(releaseId);
      if (owner) {
        await countDays(deps.stats, releaseId, tallies);
        recordedEvents = (await countTotal(deps, owner, sumOf(tallies))) || recordedEvents;
        changedChannels.add(owner.channelId);
      }
      messageIds.forEach((id) => done.add(id));
      pending.shift();
    }
  } catch (err) {
    // Messages none of whose releases were counted give their claims back, so the redelivery
    // counts them; a message counted in part keeps its claim (never twice, at worst not at all).
    const untouched = new Set(pending.slice(1).flatMap((id) => [...byRelease.get(id)!.messageIds]));
    byRelease.get(pending[0]!)?.messageIds.forEach((id) => untouched.delete(id));
    done.forEach((id) => untouched.delete(id));
    await deps.stats.unclaimMessages([...untouched]).catch(() => undefined);
    throw err;
  }
  if (changedChannels.size > 0) await deps.onCountsChanged([...changedChannels]);
  if (recordedEvents) deps.onEventsRecorded();
}

const sumOf = (tallies: DownloadTally[]) => tallies.reduce((sum, t) => sum + t.n, 0);

async function countDays(stats: DownloadStatsRepository, releaseId: number, tallies: DownloadTally[]): Promise<void> {
  const byDay = new Map<string, DownloadTally[]>();
  for (const t of tallies) {
    const day = utcDay(t.t);
    const ofDay = byDay.get(day);
    if (ofDay) ofDay.push(t);
    else byDay.set(day, [t]);
  }
  for (const [day, dayTallies] of byDay) {
    // Read, added to and written back by the one replica holding the counting turn
    // (events/counting-turn.ts); adding a client twice changes nothing, so a redelivery cannot.
    const clients = UniqueClients.from(await stats.uniquesOf(releaseId, day));
    let changed = false;
    for (const tally of dayTallies) changed = clients.add(tally.c) || changed;
    if (changed) await stats.saveUniques(releaseId, day, clients.toBuffer());
    await stats.addToDay(releaseId, day, sumOf(dayTallies), clients.count);
  }
}

/** Adds to the total; when the last release.downloaded is a minute old, reports in the same write. Answers whether it did. */
async function countTotal(deps: RecordDownloadsDeps, owner: ReleaseOwner, count: number): Promise<boolean> {
  const now = deps.now?.() ?? Date.now();
  const current = await deps.stats.findTotal(owner.releaseId);
  const due = !current || now - new Date(current.notifiedAt).getTime() >= deps.noticeIntervalMs;
  if (!due) {
    await deps.stats.addToTotal(owner, count);
    return false;
  }
  const total = (current?.total ?? 0) + count;
  const envelope = downloadedEvent(owner, total - (current?.notified ?? 0), total);
  await deps.stats.addToTotal(owner, count, { envelope, notified: total, at: new Date(now) });
  return true;
}

function downloadedEvent(owner: ReleaseOwner, count: number, total: number) {
  return createEnvelope(
    'release.downloaded',
    { release_id: owner.releaseId, app_id: owner.appId, scheme_id: owner.schemeId, channel_id: owner.channelId, count, total },
    'releases',
  );
}

/**
 * Reports downloads counted since a release's last release.downloaded once
 * that is a minute old: the downloads that came after it, with no more to
 * carry them.
 */
export async function flushDownloadNotices(deps: RecordDownloadsDeps): Promise<number> {
  const now = deps.now?.() ?? Date.now();
  let made = 0;
  for (const total of await deps.stats.dirtyTotals()) {
    if (now - new Date(total.notifiedAt).getTime() < deps.noticeIntervalMs) continue;
    if (total.total <= total.notified) continue;
    const owner = { releaseId: total._id, appId: total.appId, schemeId: total.schemeId, channelId: total.channelId };
    if (await deps.stats.markNotified(total, downloadedEvent(owner, total.total - total.notified, total.total), new Date(now))) made += 1;
  }
  if (made > 0) deps.onEventsRecorded();
  return made;
}

/** Claims and distinct clients are kept this long: past the stream's 7 days no message can come back. */
export const CLAIM_DAYS = 8;

/** Forgets claims and distinct clients of the days just past CLAIM_DAYS (a week of them, should the service have been down). */
export async function pruneOldClaims(stats: DownloadStatsRepository, now = Date.now()): Promise<void> {
  for (let daysAgo = CLAIM_DAYS + 1; daysAgo <= CLAIM_DAYS + 7; daysAgo += 1) await stats.pruneDay(utcDay(now - daysAgo * 86_400_000));
}
