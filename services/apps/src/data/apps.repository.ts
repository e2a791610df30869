import type { Connection } from 'mongoose';
import { Envelope, newOutbox, withEvents } from '@hangar/events';
import { findEach, nextSequence } from '@hangar/mongo';
import { AppDocument, AppModel } from './app.model';

/** Live apps only: tombstoned (deleted) ones are invisible everywhere. */
export const LIVE = { deletedAt: { $exists: false } };

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

export class AppsRepository {
  constructor(
    private readonly connection: Connection,
    private readonly apps: AppModel,
  ) {}

  /** Duplicate-key errors (a concurrent upload made the same app) reach the caller. */
  async create(name: string, ensureKey?: string): Promise<AppDocument> {
    const id = await nextSequence(this.connection, 'apps');
    const created = await this.apps.create({ _id: id, name, ensureKey: ensureKey ?? `id:${id}`, ...newOutbox() });
    return created.toObject();
  }

  findById(id: number): Promise<AppDocument | null> {
    return this.apps.findOne({ _id: id, ...LIVE }).lean<AppDocument>();
  }

  findByEnsureKey(ensureKey: string): Promise<AppDocument | null> {
    return this.apps.findOne({ ensureKey, ...LIVE }).lean<AppDocument>();
  }

  /** Apps of this exact name among the given ids, oldest first. */
  findNamedAmong(name: string, ids: number[]): Promise<AppDocument[]> {
    return this.apps.find({ name, _id: { $in: ids }, ...LIVE }).sort({ _id: 1 }).lean<AppDocument[]>();
  }

  /**
   * Newest first; `ids` limits the page to those apps (undefined: all). A
   * user's apps are read one by id (findEach: FerretDB serves no `$in` from an
   * index) and sorted here; they are the apps the user collaborates on, few.
   */
  async page(ids: number[] | undefined, skip: number, limit: number): Promise<{ apps: AppDocument[]; total: number }> {
    if (ids !== undefined) {
      const apps = await findEach(ids, (id) => this.apps.find({ _id: id, ...LIVE }).lean<AppDocument[]>());
      apps.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b._id - a._id);
      return { apps: apps.slice(skip, skip + limit), total: apps.length };
    }
    const [apps, total] = await Promise.all([
      this.apps.find(LIVE).sort(NEWEST_FIRST).skip(skip).limit(limit).lean<AppDocument[]>(),
      this.apps.countDocuments(LIVE),
    ]);
    return { apps, total };
  }

  /** A renamed app is no longer "the app an upload of that name made". */
  rename(id: number, name: string): Promise<AppDocument | null> {
    return this.apps.findOneAndUpdate({ _id: id, ...LIVE }, { $set: { name, ensureKey: `id:${id}` } }, { new: true }).lean<AppDocument>();
  }

  /** Tombstones the app and records app.deleted in the same write. */
  async markDeleted(id: number, event: Envelope): Promise<boolean> {
    const result = await this.apps.updateOne(
      { _id: id, ...LIVE },
      withEvents<AppDocument>({ $set: { deletedAt: new Date(), ensureKey: `deleted:${id}` } }, event),
    );
    return result.modifiedCount === 1;
  }
}
