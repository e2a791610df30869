import { Envelope, newOutbox } from '@hangar/events';
import { findEach, isDuplicateKeyError } from '@hangar/mongo';
import type { AuditEntryDocument, AuditEntryModel } from './audit-entry.model';

export interface AuditFilter {
  /** One query per day, by equality. */
  days: string[];
  userId?: number;
  appId?: number;
  operation?: string;
}

export class AuditEntriesRepository {
  constructor(private readonly entries: AuditEntryModel) {}

  /** False when the entry is already stored (a redelivered message). */
  async append(entry: Omit<AuditEntryDocument, keyof ReturnType<typeof newOutbox>>, event: Envelope): Promise<boolean> {
    try {
      await this.entries.create({ ...entry, ...newOutbox(event) });
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }

  /** Entries of the days matching the other filters, newest first. */
  async find(filter: AuditFilter): Promise<AuditEntryDocument[]> {
    const extra = {
      ...(filter.userId !== undefined ? { userId: filter.userId } : {}),
      ...(filter.appId !== undefined ? { appId: filter.appId } : {}),
      ...(filter.operation !== undefined ? { operation: filter.operation } : {}),
    };
    const found = await findEach(filter.days, (day) => this.entries.find({ day, ...extra }).lean<AuditEntryDocument[]>());
    return found.sort((a, b) => b.at.getTime() - a.at.getTime() || (a._id < b._id ? 1 : -1));
  }

  async removeDay(day: string): Promise<number> {
    const result = await this.entries.deleteMany({ day });
    return result.deletedCount ?? 0;
  }
}
