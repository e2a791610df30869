import type { Connection } from 'mongoose';
import { AlreadyExists } from '@hangar/errors';
import { isDuplicateKeyError, nextSequence } from '@hangar/mongo';
import type { TesterGroupDocument, TesterGroupModel } from './tester-group.model';

const nameTaken = () => new AlreadyExists('A tester group of that name exists in the app', { name: ['has already been taken'] });

export class TesterGroupsRepository {
  constructor(
    private readonly connection: Connection,
    private readonly groups: TesterGroupModel,
  ) {}

  /** The unique (appId, nameKey) index decides: a second group of a name is AlreadyExists. */
  async create(appId: number, name: string, channelIds: number[]): Promise<TesterGroupDocument> {
    const nameKey = name.toLowerCase();
    if (await this.groups.exists({ appId, nameKey })) throw nameTaken();
    const id = await nextSequence(this.connection, 'tester_groups');
    try {
      return (await this.groups.create({ _id: id, appId, name, nameKey, channelIds })).toObject();
    } catch (err) {
      if (isDuplicateKeyError(err)) throw nameTaken();
      throw err;
    }
  }

  findById(id: number): Promise<TesterGroupDocument | null> {
    return this.groups.findOne({ _id: id }).lean<TesterGroupDocument>();
  }

  async listByApp(appId: number): Promise<TesterGroupDocument[]> {
    const groups = await this.groups.find({ appId }).lean<TesterGroupDocument[]>();
    return groups.sort((a, b) => a._id - b._id);
  }

  async update(id: number, changes: { name?: string; channelIds?: number[] }): Promise<TesterGroupDocument | null> {
    const set: Record<string, unknown> = { ...changes };
    if (changes.name !== undefined) {
      const group = await this.findById(id);
      if (group && (await this.groups.exists({ appId: group.appId, nameKey: changes.name.toLowerCase(), _id: { $ne: id } }))) throw nameTaken();
      set.nameKey = changes.name.toLowerCase();
    }
    try {
      return await this.groups.findOneAndUpdate({ _id: id }, { $set: set }, { new: true }).lean<TesterGroupDocument>();
    } catch (err) {
      if (isDuplicateKeyError(err)) throw nameTaken();
      throw err;
    }
  }

  async delete(id: number): Promise<boolean> {
    return (await this.groups.deleteOne({ _id: id })).deletedCount === 1;
  }
}
