import { Envelope, withEvents } from '@hangar/events';
import { insertNew } from '@hangar/mongo';
import type { DownloadDayDocument, DownloadStatsModels, DownloadTotalDocument, DownloadUniquesDocument } from './download-stats.model';

const LEGACY_CLIENT_CLAIMS = 'download_clients';

export interface ReleaseOwner {
  releaseId: number;
  appId: number;
  schemeId: number;
  channelId: number;
}

/**
 * Download counts, written by the downloads consumer
 * (events/downloads.consumer.ts). What keeps them exact are inserts, the one
 * write FerretDB keeps atomic (docs/decisions.md): a message is claimed by
 * its stream sequence before it is counted. Distinct clients are a sketch per
 * (release, day), read and written by the one replica counting at a time.
 */
export class DownloadStatsRepository {
  constructor(private readonly models: DownloadStatsModels) {}

  findTotal(releaseId: number): Promise<DownloadTotalDocument | null> {
    return this.models.totals.findOne({ _id: releaseId }).lean<DownloadTotalDocument>();
  }

  totalsOfChannel(channelId: number): Promise<Pick<DownloadTotalDocument, '_id' | 'total'>[]> {
    return this.models.totals.find({ channelId }, { _id: 1, total: 1 }).lean<Pick<DownloadTotalDocument, '_id' | 'total'>[]>();
  }

  daysOfRelease(releaseId: number): Promise<DownloadDayDocument[]> {
    return this.models.days.find({ releaseId }).lean<DownloadDayDocument[]>();
  }

  /** Of these messages, the ones claimed now: the others were counted (or taken) before. */
  async claimMessages(messages: { id: string; day: string }[]): Promise<Set<string>> {
    return insertNew(this.models.claims, messages.map((m) => ({ _id: m.id, day: m.day })));
  }

  /** Gives claims back (messages not counted after all), one delete by id each. */
  async unclaimMessages(ids: string[]): Promise<void> {
    for (const id of ids) await this.models.claims.deleteOne({ _id: id });
  }

  /** The stored distinct clients of a release on a day (UniqueClients bytes), null before the first. */
  async uniquesOf(releaseId: number, day: string): Promise<Buffer | null> {
    const found = await this.models.uniques.findOne({ _id: `${releaseId}:${day}` }, { sketch: 1 }).lean<Pick<DownloadUniquesDocument, 'sketch'>>();
    return found ? toBuffer(found.sketch) : null;
  }

  async saveUniques(releaseId: number, day: string, sketch: Buffer): Promise<void> {
    await this.models.uniques.updateOne({ _id: `${releaseId}:${day}` }, { $set: { sketch, day } }, { upsert: true });
  }

  /** Adds downloads to a day; `unique` is the day's count of clients so far, never lowered. */
  async addToDay(releaseId: number, day: string, total: number, unique: number): Promise<void> {
    await this.models.days.updateOne({ _id: `${releaseId}:${day}` }, { $inc: { total }, $max: { unique }, $setOnInsert: { releaseId, day } }, { upsert: true });
  }

  /** Adds to the release's total; with `event`, the release.downloaded that reports it, in the same write. */
  async addToTotal(owner: ReleaseOwner, count: number, event?: { envelope: Envelope; notified: number; at: Date }): Promise<void> {
    const update = {
      $inc: { total: count },
      $set: { dirty: !event, ...(event ? { notified: event.notified, notifiedAt: event.at } : {}) },
      $setOnInsert: { appId: owner.appId, schemeId: owner.schemeId, channelId: owner.channelId },
    };
    await this.models.totals.updateOne({ _id: owner.releaseId }, event ? withEvents<DownloadTotalDocument>(update, event.envelope) : update, { upsert: true });
  }

  dirtyTotals(): Promise<DownloadTotalDocument[]> {
    return this.models.totals.find({ dirty: true }).lean<DownloadTotalDocument[]>();
  }

  /**
   * Records the release.downloaded of a total counted since the last one — only if no one
   * reported it meanwhile (two replicas flushing at once make one event; atomic on MongoDB 7).
   */
  async markNotified(total: DownloadTotalDocument, envelope: Envelope, at: Date): Promise<boolean> {
    const result = await this.models.totals.updateOne(
      { _id: total._id, dirty: true, notified: total.notified },
      withEvents<DownloadTotalDocument>({ $set: { dirty: false, notified: total.total, notifiedAt: at } }, envelope),
    );
    return result.modifiedCount === 1;
  }

  /** Forgets a day's message claims and distinct clients (once the stream no longer holds that day's messages). */
  async pruneDay(day: string): Promise<void> {
    await this.models.claims.deleteMany({ day });
    await this.models.uniques.deleteMany({ day });
  }

  /**
   * Drops `download_clients`, the claim row per client that distinct-client sketches replaced
   * (docs/decisions.md). Gone already, or dropped by another replica starting at once: fine.
   */
  async dropClientClaims(): Promise<void> {
    const db = this.models.days.db.db!;
    const present = await db.listCollections({ name: LEGACY_CLIENT_CLAIMS }, { nameOnly: true }).toArray();
    if (present.length > 0) await db.dropCollection(LEGACY_CLIENT_CLAIMS).catch(() => undefined);
  }
}

/** A lean read gives a BSON Binary (a Buffer through mongoose documents): bytes either way. */
function toBuffer(stored: unknown): Buffer {
  if (Buffer.isBuffer(stored)) return stored;
  const binary = stored as { value?: () => Uint8Array } | null;
  return typeof binary?.value === 'function' ? Buffer.from(binary.value()) : Buffer.alloc(0);
}
