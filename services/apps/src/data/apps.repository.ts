import type { Connection } from 'mongoose';
import { Envelope, newOutbox, withEvents } from '@hangar/events';
import { nextSequence } from '@hangar/mongo';
import { AppDocument, AppModel } from './app.model';

/** Live apps only: tombstoned (deleted) ones are invisible everywhere. */
export const LIVE = { deletedAt: { $exists: false } };

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

  /** Every live app: the list's repair at start (domain/app-trees.ts) compares each with its tree. */
  allLive(): Promise<AppDocument[]> {
    return this.apps.find(LIVE).lean<AppDocument[]>();
  }

  /** Apps of this exact name among the given ids, oldest first. */
  findNamedAmong(name: string, ids: number[]): Promise<AppDocument[]> {
    return this.apps.find({ name, _id: { $in: ids }, ...LIVE }).sort({ _id: 1 }).lean<AppDocument[]>();
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
