import type { Connection } from 'mongoose';
import { AlreadyExists } from '@hangar/errors';
import { isDuplicateKeyError, nextSequence } from '@hangar/mongo';
import { CollaboratorDocument, CollaboratorModel } from './collaborator.model';

export class CollaboratorsRepository {
  constructor(
    private readonly connection: Connection,
    private readonly collaborators: CollaboratorModel,
  ) {}

  /** The unique (appId, userId) index decides: a second add is AlreadyExists. */
  async add(appId: number, userId: number, role: string): Promise<CollaboratorDocument> {
    const taken = () => new AlreadyExists(`User ${userId} is already a collaborator of app ${appId}`, { user_id: ['is already a collaborator'] });
    if (await this.collaborators.exists({ appId, userId })) throw taken();
    const id = await nextSequence(this.connection, 'collaborators');
    try {
      const created = await this.collaborators.create({ _id: id, appId, userId, role });
      return created.toObject();
    } catch (err) {
      if (isDuplicateKeyError(err)) throw taken();
      throw err;
    }
  }

  find(appId: number, userId: number): Promise<CollaboratorDocument | null> {
    return this.collaborators.findOne({ appId, userId }).lean<CollaboratorDocument>();
  }

  listByApp(appId: number): Promise<CollaboratorDocument[]> {
    return this.collaborators.find({ appId }).sort({ _id: 1 }).lean<CollaboratorDocument[]>();
  }

  /** Ids of the apps the user collaborates on, optionally only with this role. */
  async appIdsOf(userId: number, role?: string): Promise<number[]> {
    const rows = await this.collaborators.find({ userId, ...(role ? { role } : {}) }, { appId: 1 }).lean<{ appId: number }[]>();
    return rows.map((r) => r.appId);
  }

  countAdmins(appId: number): Promise<number> {
    return this.collaborators.countDocuments({ appId, role: 'admin' });
  }

  setRole(appId: number, userId: number, role: string): Promise<CollaboratorDocument | null> {
    return this.collaborators.findOneAndUpdate({ appId, userId }, { $set: { role } }, { new: true }).lean<CollaboratorDocument>();
  }

  async remove(appId: number, userId: number): Promise<boolean> {
    return (await this.collaborators.deleteOne({ appId, userId })).deletedCount === 1;
  }

  async removeAllOfApp(appId: number): Promise<void> {
    await this.collaborators.deleteMany({ appId });
  }

  /** How many memberships went: 0 when the event was seen before. */
  async removeAllOfUser(userId: number): Promise<number> {
    return (await this.collaborators.deleteMany({ userId })).deletedCount;
  }
}
