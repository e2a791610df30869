import type { Connection } from 'mongoose';
import { Envelope, newOutbox, withEvents } from '@hangar/events';
import { findEach, nextSequence } from '@hangar/mongo';
import type { ReleaseDocument, ReleaseModel } from './release.model';

const LIVE = { deletedAt: { $exists: false } };

export type NewRelease = Omit<ReleaseDocument, '_id' | 'version' | 'createdAt' | 'updatedAt' | 'deletedAt' | 'outbox' | 'outboxSeq' | 'outboxPending'>;

export class ReleasesRepository {
  /**
   * `onChannelChanged` runs after every write that changes a channel's live
   * releases, before the write's caller answers: it bumps the channel's
   * generation, so every replica's cached copy is read again on its next use.
   */
  constructor(
    private readonly connection: Connection,
    private readonly releases: ReleaseModel,
    private readonly onChannelChanged: (channelId: number) => Promise<void> = async () => {},
  ) {}

  /**
   * The per-channel `version` comes from its own counter, whose numbers are
   * claimed by unique inserts: two concurrent uploads never share one and a
   * number is never reused, even after deletes.
   */
  async create(release: NewRelease, event: (id: number, version: number) => Envelope): Promise<ReleaseDocument> {
    const [id, version] = await Promise.all([
      nextSequence(this.connection, 'releases'),
      nextSequence(this.connection, `release-version:${release.channelId}`),
    ]);
    const created = await this.releases.create({ _id: id, version, ...release, ...newOutbox(event(id, version)) });
    await this.onChannelChanged(release.channelId);
    return created.toObject();
  }

  findById(id: number): Promise<ReleaseDocument | null> {
    return this.releases.findOne({ _id: id, ...LIVE }).lean<ReleaseDocument>();
  }

  /** Including tombstoned ones: the files consumer needs their keys. */
  findAnyById(id: number): Promise<ReleaseDocument | null> {
    return this.releases.findOne({ _id: id }).lean<ReleaseDocument>();
  }

  /** A channel's live releases, newest upload first: what every version query reads (domain/channel-releases.ts). */
  liveOfChannel(channelId: number): Promise<ReleaseDocument[]> {
    return this.releases.find({ channelId, ...LIVE }).sort({ _id: -1 }).lean<ReleaseDocument[]>();
  }

  async update(id: number, changes: Partial<ReleaseDocument>): Promise<ReleaseDocument | null> {
    const updated = await this.releases.findOneAndUpdate({ _id: id, ...LIVE }, { $set: changes }, { new: true }).lean<ReleaseDocument>();
    if (updated) await this.onChannelChanged(updated.channelId);
    return updated;
  }

  async markDeleted(release: Pick<ReleaseDocument, '_id' | 'channelId'>, event: Envelope): Promise<boolean> {
    const result = await this.releases.updateOne({ _id: release._id, ...LIVE }, withEvents<ReleaseDocument>({ $set: { deletedAt: new Date() } }, event));
    // Also when nothing changed: another replica's delete may have died before its bump.
    await this.onChannelChanged(release.channelId);
    return result.modifiedCount === 1;
  }

  /** Channels of a scheme that hold live releases. */
  async channelsOfScheme(schemeId: number): Promise<number[]> {
    const ids = (await this.releases.distinct('channelId', { schemeId, ...LIVE })) as number[];
    return ids.sort((a, b) => a - b);
  }

  /** A channel's live releases beyond its `keep` newest uploads (highest ids), oldest last. */
  beyondNewest(channelId: number, keep: number): Promise<ReleaseDocument[]> {
    return this.releases
      .find({ channelId, ...LIVE }, { _id: 1, appId: 1, schemeId: 1, channelId: 1 })
      .sort({ _id: -1 })
      .skip(keep)
      .lean<ReleaseDocument[]>();
  }

  /** Up to `limit` live releases of an app, a scheme or a channel. */
  liveUnder(scope: { appId?: number; schemeId?: number; channelId?: number }, limit: number): Promise<ReleaseDocument[]> {
    return this.releases
      .find({ ...scope, ...LIVE }, { _id: 1, appId: 1, schemeId: 1, channelId: 1 })
      .sort({ _id: 1 })
      .limit(limit)
      .lean<ReleaseDocument[]>();
  }

  async purge(id: number): Promise<void> {
    await this.releases.deleteOne({ _id: id, deletedAt: { $exists: true } });
  }

  /**
   * Of these storage keys, the ones a release refers to as its package or icon, tombstoned
   * releases included (their files are removed by the files consumer, not the janitor).
   */
  async referencedKeys(keys: string[]): Promise<Set<string>> {
    const projection = { _id: 0, objectKey: 1, iconKey: 1 };
    const found = await findEach(keys, async (key) => [
      ...(await this.releases.find({ objectKey: key }, projection).lean<Pick<ReleaseDocument, 'objectKey' | 'iconKey'>[]>()),
      ...(await this.releases.find({ iconKey: key }, projection).lean<Pick<ReleaseDocument, 'objectKey' | 'iconKey'>[]>()),
    ]);
    const wanted = new Set(keys);
    const referenced = new Set<string>();
    for (const r of found) {
      if (wanted.has(r.objectKey)) referenced.add(r.objectKey);
      if (r.iconKey && wanted.has(r.iconKey)) referenced.add(r.iconKey);
    }
    return referenced;
  }
}
