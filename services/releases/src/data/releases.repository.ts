import type { Connection } from 'mongoose';
import { Envelope, newOutbox, withEvents } from '@hangar/events';
import { nextSequence } from '@hangar/mongo';
import type { ReleaseDocument, ReleaseModel } from './release.model';

const LIVE = { deletedAt: { $exists: false } };

export type NewRelease = Omit<ReleaseDocument, '_id' | 'version' | 'createdAt' | 'updatedAt' | 'deletedAt' | 'outbox' | 'outboxSeq' | 'outboxPending'>;

export class ReleasesRepository {
  constructor(
    private readonly connection: Connection,
    private readonly releases: ReleaseModel,
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
    return created.toObject();
  }

  findById(id: number): Promise<ReleaseDocument | null> {
    return this.releases.findOne({ _id: id, ...LIVE }).lean<ReleaseDocument>();
  }

  /** Including tombstoned ones: the files consumer needs their keys. */
  findAnyById(id: number): Promise<ReleaseDocument | null> {
    return this.releases.findOne({ _id: id }).lean<ReleaseDocument>();
  }

  async pageOfChannel(channelId: number, skip: number, limit: number): Promise<{ releases: ReleaseDocument[]; total: number }> {
    const filter = { channelId, ...LIVE };
    const [releases, total] = await Promise.all([
      this.releases.find(filter).sort({ _id: -1 }).skip(skip).limit(limit).lean<ReleaseDocument[]>(),
      this.releases.countDocuments(filter),
    ]);
    return { releases, total };
  }

  async newerThan(channelId: number, versionKey: string, bundleId: string | undefined, skip: number, limit: number) {
    const filter = { channelId, versionKey: { $gt: versionKey }, ...(bundleId ? { bundleId } : {}), ...LIVE };
    const [releases, total] = await Promise.all([
      this.releases.find(filter).sort({ versionKey: -1, _id: -1 }).skip(skip).limit(limit).lean<ReleaseDocument[]>(),
      this.releases.countDocuments(filter),
    ]);
    return { releases, total };
  }

  /** The newest upload matching exactly. */
  findExact(channelId: number, match: Partial<Pick<ReleaseDocument, 'bundleId' | 'releaseVersion' | 'buildVersion' | 'gitCommit'>>): Promise<ReleaseDocument | null> {
    return this.releases.findOne({ channelId, ...match, ...LIVE }).sort({ _id: -1 }).lean<ReleaseDocument>();
  }

  update(id: number, changes: Partial<ReleaseDocument>): Promise<ReleaseDocument | null> {
    return this.releases.findOneAndUpdate({ _id: id, ...LIVE }, { $set: changes }, { new: true }).lean<ReleaseDocument>();
  }

  async markDeleted(id: number, event: Envelope): Promise<boolean> {
    const result = await this.releases.updateOne({ _id: id, ...LIVE }, withEvents<ReleaseDocument>({ $set: { deletedAt: new Date() } }, event));
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
    const found = await this.releases
      .find({ $or: [{ objectKey: { $in: keys } }, { iconKey: { $in: keys } }] }, { _id: 0, objectKey: 1, iconKey: 1 })
      .lean<Pick<ReleaseDocument, 'objectKey' | 'iconKey'>[]>();
    const wanted = new Set(keys);
    const referenced = new Set<string>();
    for (const r of found) {
      if (wanted.has(r.objectKey)) referenced.add(r.objectKey);
      if (r.iconKey && wanted.has(r.iconKey)) referenced.add(r.iconKey);
    }
    return referenced;
  }
}
