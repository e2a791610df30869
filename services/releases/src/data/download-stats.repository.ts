import { Envelope, withEvents } from '@hangar/events';
import { findEach, isDuplicateKeyError } from '@hangar/mongo';
import type { DownloadDayDocument, DownloadStatsModels, DownloadTotalDocument } from './download-stats.model';

export interface ReleaseOwner {
  releaseId: number;
  appId: number;
  schemeId: number;
  channelId: number;
}

/**
 * Download counts (issue 20). Written by one serial consumer per process
 * (events/downloads.consumer.ts); each write names the downloads-stream
 * sequence it counted up to, so a batch redelivered after a crash is not
 * counted twice.
 */
export class DownloadStatsRepository {
  constructor(private readonly models: DownloadStatsModels) {}

  findTotal(releaseId: number): Promise<DownloadTotalDocument | null> {
    return this.models.totals.findOne({ _id: releaseId }).lean<DownloadTotalDocument>();
  }

  totalsOfChannel(channelId: number): Promise<Pick<DownloadTotalDocument, '_id' | 'total'>[]> {
    return this.models.totals.find({ channelId }, { _id: 1, total: 1 }).lean<Pick<DownloadTotalDocument, '_id' | 'total'>[]>();
  }

  findDay(id: string): Promise<DownloadDayDocument | null> {
    return this.models.days.findOne({ _id: id }).lean<DownloadDayDocument>();
  }

  daysOfRelease(releaseId: number): Promise<DownloadDayDocument[]> {
    return this.models.days.find({ releaseId }).lean<DownloadDayDocument[]>();
  }

  /**
   * Claims each client for its (release, day) by inserting it — inserts are
   * atomic on FerretDB as on MongoDB — and answers how many were new. A client
   * already claimed by a message after `countedUpTo` was claimed by this very
   * batch before a crash: still new.
   */
  async claimClients(keys: string[], seq: number, countedUpTo: number): Promise<number> {
    const refused: string[] = [];
    await Promise.all(
      keys.map(async (key) => {
        try {
          await this.models.clients.create({ _id: key, seq });
        } catch (err) {
          if (!isDuplicateKeyError(err)) throw err;
          refused.push(key);
        }
      }),
    );
    const earlier = await findEach(refused, async (key) => (await this.models.clients.find({ _id: key }).lean()).filter((c) => c.seq > countedUpTo));
    return keys.length - refused.length + earlier.length;
  }

  async addToDay(id: string, releaseId: number, day: string, total: number, unique: number, lastSeq: number): Promise<void> {
    await this.models.days.updateOne({ _id: id }, { $inc: { total, unique }, $set: { lastSeq }, $setOnInsert: { releaseId, day } }, { upsert: true });
  }

  /** Adds to the release's total; with `event`, the release.downloaded that reports it, in the same write. */
  async addToTotal(owner: ReleaseOwner, count: number, lastSeq: number, event?: { envelope: Envelope; notified: number; at: Date }): Promise<void> {
    const update = {
      $inc: { total: count },
      $set: { lastSeq, dirty: !event, ...(event ? { notified: event.notified, notifiedAt: event.at } : {}) },
      $setOnInsert: { appId: owner.appId, schemeId: owner.schemeId, channelId: owner.channelId },
    };
    await this.models.totals.updateOne({ _id: owner.releaseId }, event ? withEvents<DownloadTotalDocument>(update, event.envelope) : update, { upsert: true });
  }

  dirtyTotals(): Promise<DownloadTotalDocument[]> {
    return this.models.totals.find({ dirty: true }).lean<DownloadTotalDocument[]>();
  }

  /** Records the release.downloaded of a total counted since the last one. */
  async markNotified(total: DownloadTotalDocument, envelope: Envelope, at: Date): Promise<void> {
    await this.models.totals.updateOne({ _id: total._id }, withEvents<DownloadTotalDocument>({ $set: { dirty: false, notified: total.total, notifiedAt: at } }, envelope));
  }
}
