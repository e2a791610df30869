import { findEach } from '@hangar/mongo';
import type { TeardownDocument, TeardownModel } from './teardown.model';

export const DAY_MS = 24 * 3600 * 1000;
export const dayOf = (date: Date): number => Math.floor(date.getTime() / DAY_MS);

export class TeardownsRepository {
  constructor(private readonly teardowns: TeardownModel) {}

  async create(doc: TeardownDocument): Promise<TeardownDocument> {
    await this.teardowns.create(doc);
    return doc;
  }

  findById(id: string): Promise<TeardownDocument | null> {
    return this.teardowns.findOne({ _id: id }).lean<TeardownDocument>().exec();
  }

  /** Teardowns whose expiry falls on any of `days` (whole days since the epoch), one equality query per day. */
  expiringOn(days: number[]): Promise<TeardownDocument[]> {
    return findEach(days, (day) => this.teardowns.find({ expiresDay: day }).lean<TeardownDocument[]>().exec());
  }

  async remove(id: string): Promise<void> {
    await this.teardowns.deleteOne({ _id: id });
  }

  /** Of these storage keys, the ones a teardown refers to (the orphan janitor's question). */
  async referencedKeys(keys: string[]): Promise<Set<string>> {
    const found = await findEach(keys, (key) => this.teardowns.find({ objectKey: key }, { _id: 0, objectKey: 1 }).lean<Pick<TeardownDocument, 'objectKey'>[]>().exec());
    return new Set(found.map((t) => t.objectKey));
  }
}
