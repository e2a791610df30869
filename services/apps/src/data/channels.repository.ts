import type { Connection } from 'mongoose';
import { AlreadyExists } from '@hangar/errors';
import { Envelope, newOutbox, withEvents } from '@hangar/events';
import { findEach, isDuplicateKeyError, nextSequence } from '@hangar/mongo';
import { LIVE } from './apps.repository';
import { ChannelDocument, ChannelModel } from './channel.model';

export type NewChannel = Pick<ChannelDocument, 'schemeId' | 'appId' | 'name' | 'slug' | 'deviceType' | 'bundleId' | 'gitUrl' | 'passwordHash'>;
export type ChannelChanges = Partial<Pick<ChannelDocument, 'name' | 'slug' | 'deviceType' | 'bundleId' | 'gitUrl' | 'minSupportedVersion' | 'passwordHash'>>;

const slugTaken = () => new AlreadyExists('This slug (channel key) is already taken', { slug: ['has already been taken'] });

export class ChannelsRepository {
  constructor(
    private readonly connection: Connection,
    private readonly channels: ChannelModel,
  ) {}

  /**
   * The unique slug index decides: a taken slug is AlreadyExists naming
   * `slug`. A duplicate ensureKey (a concurrent upload made the channel)
   * reaches the caller as the raw duplicate-key error.
   */
  async create(channel: NewChannel, ensureKey?: string): Promise<ChannelDocument> {
    if (await this.channels.exists({ slug: channel.slug })) throw slugTaken();
    const id = await nextSequence(this.connection, 'channels');
    try {
      const created = await this.channels.create({ _id: id, ...channel, ensureKey: ensureKey ?? `id:${id}`, ...newOutbox() });
      return created.toObject();
    } catch (err) {
      if (isDuplicateKeyError(err) && (await this.channels.exists({ slug: channel.slug, _id: { $ne: id } }))) throw slugTaken();
      throw err;
    }
  }

  findById(id: number): Promise<ChannelDocument | null> {
    return this.channels.findOne({ _id: id, ...LIVE }).lean<ChannelDocument>();
  }

  findBySlug(slug: string): Promise<ChannelDocument | null> {
    return this.channels.findOne({ slug, ...LIVE }).lean<ChannelDocument>();
  }

  findByEnsureKey(ensureKey: string): Promise<ChannelDocument | null> {
    return this.channels.findOne({ ensureKey, ...LIVE }).lean<ChannelDocument>();
  }

  /** The oldest channel of this platform in the scheme (what an upload reuses). */
  findForDevice(schemeId: number, deviceType: string): Promise<ChannelDocument | null> {
    return this.channels.findOne({ schemeId, deviceType, ...LIVE }).sort({ _id: 1 }).lean<ChannelDocument>();
  }

  async listBySchemes(schemeIds: number[]): Promise<ChannelDocument[]> {
    const channels = await findEach(schemeIds, (schemeId) => this.channels.find({ schemeId, ...LIVE }).lean<ChannelDocument[]>());
    return channels.sort((a, b) => a._id - b._id);
  }

  /** The app's live channels, in one query (appId is kept on each channel for this and for deletes). */
  async listByApp(appId: number): Promise<ChannelDocument[]> {
    const channels = await this.channels.find({ appId, ...LIVE }).lean<ChannelDocument[]>();
    return channels.sort((a, b) => a._id - b._id);
  }

  /** Every live channel: the list's repair at start (domain/app-trees.ts). */
  allLive(): Promise<ChannelDocument[]> {
    return this.channels.find(LIVE).lean<ChannelDocument[]>();
  }

  async update(id: number, changes: ChannelChanges): Promise<ChannelDocument | null> {
    if (changes.slug !== undefined && (await this.channels.exists({ slug: changes.slug, _id: { $ne: id } }))) throw slugTaken();
    const set: Record<string, unknown> = { ...changes };
    if (changes.name !== undefined || changes.deviceType !== undefined) set.ensureKey = `id:${id}`;
    try {
      return await this.channels.findOneAndUpdate({ _id: id, ...LIVE }, { $set: set }, { new: true }).lean<ChannelDocument>();
    } catch (err) {
      if (isDuplicateKeyError(err)) throw slugTaken();
      throw err;
    }
  }

  /** Tombstones the channel with channel.deleted; its slug is free again at once. */
  async markDeleted(id: number, event: Envelope): Promise<boolean> {
    const result = await this.channels.updateOne(
      { _id: id, ...LIVE },
      withEvents<ChannelDocument>({ $set: { deletedAt: new Date(), slug: `deleted:${id}`, ensureKey: `deleted:${id}` } }, event),
    );
    return result.modifiedCount === 1;
  }

  async deleteByScheme(schemeId: number): Promise<void> {
    await this.channels.deleteMany({ schemeId, ...LIVE });
  }

  async deleteByApp(appId: number): Promise<void> {
    await this.channels.deleteMany({ appId, ...LIVE });
  }
}
