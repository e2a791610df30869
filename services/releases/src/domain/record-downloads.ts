import { createEnvelope, DownloadMessage } from '@hangar/events';
import type { DownloadStatsRepository, ReleaseOwner } from '../data/download-stats.repository';
import type { DownloadTotalDocument } from '../data/download-stats.model';

/** A download message with its place in the downloads stream. */
export interface CountedMessage {
  seq: number;
  message: DownloadMessage;
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
 * Counts a batch of downloads (in stream order) into each release's days and
 * total: one read and one write per (release, day) and per release, however
 * many messages — a storm of 10,000 downloads from one client is a few
 * writes and one unique. Messages a previous attempt already counted (at or
 * below the sequence recorded with the counts) are skipped.
 */
export async function recordDownloads(deps: RecordDownloadsDeps, batch: CountedMessage[]): Promise<void> {
  const byRelease = new Map<number, CountedMessage[]>();
  for (const m of batch) {
    const list = byRelease.get(m.message.r) ?? [];
    list.push(m);
    byRelease.set(m.message.r, list);
  }
  const changedChannels = new Set<number>();
  let recordedEvents = false;
  for (const [releaseId, messages] of byRelease) {
    const owner = await deps.ownerOf(releaseId);
    if (!owner) continue;
    const current = await deps.stats.findTotal(releaseId);
    const fresh = messages.filter((m) => m.seq > (current?.lastSeq ?? 0));
    if (fresh.length === 0) continue;
    const lastSeq = fresh[fresh.length - 1]!.seq;
    await countDays(deps.stats, releaseId, fresh);
    recordedEvents = (await countTotal(deps, owner, current, fresh.length, lastSeq)) || recordedEvents;
    changedChannels.add(owner.channelId);
  }
  if (changedChannels.size > 0) await deps.onCountsChanged([...changedChannels]);
  if (recordedEvents) deps.onEventsRecorded();
}

async function countDays(stats: DownloadStatsRepository, releaseId: number, messages: CountedMessage[]): Promise<void> {
  const byDay = new Map<string, CountedMessage[]>();
  for (const m of messages) {
    const day = utcDay(m.message.t);
    byDay.set(day, [...(byDay.get(day) ?? []), m]);
  }
  for (const [day, dayMessages] of byDay) {
    const id = `${releaseId}:${day}`;
    const countedUpTo = (await stats.findDay(id))?.lastSeq ?? 0;
    const fresh = dayMessages.filter((m) => m.seq > countedUpTo);
    if (fresh.length === 0) continue;
    const lastSeq = fresh[fresh.length - 1]!.seq;
    const clients = [...new Set(fresh.map((m) => `${id}:${m.message.c}`))];
    const unique = await stats.claimClients(clients, lastSeq, countedUpTo);
    await stats.addToDay(id, releaseId, day, fresh.length, unique, lastSeq);
  }
}

/** Adds to the total; when the last release.downloaded is a minute old, reports in the same write. Answers whether it did. */
async function countTotal(deps: RecordDownloadsDeps, owner: ReleaseOwner, current: DownloadTotalDocument | null, count: number, lastSeq: number): Promise<boolean> {
  const now = deps.now?.() ?? Date.now();
  const total = (current?.total ?? 0) + count;
  const due = !current || now - new Date(current.notifiedAt).getTime() >= deps.noticeIntervalMs;
  if (!due) {
    await deps.stats.addToTotal(owner, count, lastSeq);
    return false;
  }
  const envelope = downloadedEvent(owner, total - (current?.notified ?? 0), total);
  await deps.stats.addToTotal(owner, count, lastSeq, { envelope, notified: total, at: new Date(now) });
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
    await deps.stats.markNotified(total, downloadedEvent(owner, total.total - total.notified, total.total), new Date(now));
    made += 1;
  }
  if (made > 0) deps.onEventsRecorded();
  return made;
}
