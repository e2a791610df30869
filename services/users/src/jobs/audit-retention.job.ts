import type { Connection } from 'mongoose';
import type { Logger } from '@hangar/logger';
import { claimTurn } from '@hangar/mongo';
import type { AuditEntriesRepository } from '../data/audit-entries.repository';
import { utcDay } from '../domain/audit-log';

const DAY_MS = 24 * 3600 * 1000;
/** Days past the retention each sweep looks at: a sweep missed for up to this long still catches up. */
const CATCH_UP_DAYS = 60;

export interface AuditRetentionOptions {
  retentionDays: number;
  intervalMs: number;
  logger: Logger;
}

/**
 * Removes audit entries older than AUDIT_RETENTION_DAYS. Entries carry their
 * UTC day and each sweep removes the days just past the retention by
 * equality (FerretDB serves no range from an index), one replica per turn.
 */
export async function sweepAuditEntries(audit: AuditEntriesRepository, retentionDays: number, now = Date.now()): Promise<number> {
  let removed = 0;
  for (let age = retentionDays + 1; age <= retentionDays + CATCH_UP_DAYS; age++) removed += await audit.removeDay(utcDay(now - age * DAY_MS));
  return removed;
}

export function startAuditRetention(connection: Connection, audit: AuditEntriesRepository, options: AuditRetentionOptions): { stop(): void } {
  if (options.intervalMs === 0) return { stop: () => undefined };
  const run = async () => {
    const turn = Math.floor(Date.now() / options.intervalMs);
    if (!(await claimTurn(connection, 'audit-retention', turn))) return;
    const removed = await sweepAuditEntries(audit, options.retentionDays);
    if (removed > 0) options.logger.info({ removed }, 'audit entries past retention removed');
  };
  const timer = setInterval(() => void run().catch((err: unknown) => options.logger.warn({ err }, 'audit retention sweep failed')), options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
