import type { Connection } from 'mongoose';
import { Envelope, newOutbox, withEvents } from '@hangar/events';
import { findEach, nextSequence } from '@hangar/mongo';
import { LIVE } from './apps.repository';
import { SchemeDocument, SchemeModel } from './scheme.model';

export type NewScheme = Pick<SchemeDocument, 'appId' | 'name' | 'newBuildCallout' | 'retainedBuilds'>;
export type SchemeChanges = Partial<Pick<SchemeDocument, 'name' | 'newBuildCallout' | 'retainedBuilds'>>;

export class SchemesRepository {
  constructor(
    private readonly connection: Connection,
    private readonly schemes: SchemeModel,
  ) {}

  async create(scheme: NewScheme, ensureKey?: string): Promise<SchemeDocument> {
    const id = await nextSequence(this.connection, 'schemes');
    const created = await this.schemes.create({ _id: id, ...scheme, ensureKey: ensureKey ?? `id:${id}`, ...newOutbox() });
    return created.toObject();
  }

  findById(id: number): Promise<SchemeDocument | null> {
    return this.schemes.findOne({ _id: id, ...LIVE }).lean<SchemeDocument>();
  }

  findByEnsureKey(ensureKey: string): Promise<SchemeDocument | null> {
    return this.schemes.findOne({ ensureKey, ...LIVE }).lean<SchemeDocument>();
  }

  findNamed(appId: number, name: string): Promise<SchemeDocument | null> {
    return this.schemes.findOne({ appId, name, ...LIVE }).sort({ _id: 1 }).lean<SchemeDocument>();
  }

  async listByApps(appIds: number[]): Promise<SchemeDocument[]> {
    const schemes = await findEach(appIds, (appId) => this.schemes.find({ appId, ...LIVE }).lean<SchemeDocument[]>());
    return schemes.sort((a, b) => a._id - b._id);
  }

  /** Every live scheme: the list's repair at start (domain/app-trees.ts). */
  allLive(): Promise<SchemeDocument[]> {
    return this.schemes.find(LIVE).lean<SchemeDocument[]>();
  }

  update(id: number, changes: SchemeChanges): Promise<SchemeDocument | null> {
    const set: Record<string, unknown> = { ...changes };
    if (changes.name !== undefined) set.ensureKey = `id:${id}`;
    return this.schemes.findOneAndUpdate({ _id: id, ...LIVE }, { $set: set }, { new: true }).lean<SchemeDocument>();
  }

  async markDeleted(id: number, event: Envelope): Promise<boolean> {
    const result = await this.schemes.updateOne(
      { _id: id, ...LIVE },
      withEvents<SchemeDocument>({ $set: { deletedAt: new Date(), ensureKey: `deleted:${id}` } }, event),
    );
    return result.modifiedCount === 1;
  }

  /** Children of a deleted app: its app.deleted event speaks for them. */
  async deleteByApp(appId: number): Promise<void> {
    await this.schemes.deleteMany({ appId, ...LIVE });
  }
}
