import { AuditEntryMessage, createEnvelope } from '@hangar/events';
import { InvalidArgument, PermissionDenied } from '@hangar/errors';
import type { AuditEntriesRepository } from '../data/audit-entries.repository';
import type { AuditEntryDocument } from '../data/audit-entry.model';
import { Actor, isAdmin } from './actor';

export interface AuditDeps {
  audit: AuditEntriesRepository;
  onEventsRecorded: () => void;
}

/** UTC `YYYY-MM-DD`. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** At most this many days per query: each is one index-served query. */
export const MAX_AUDIT_DAYS = 31;

/**
 * Stores one entry the gateway reported, with its `audit.recorded` event in
 * the same insert (outbox). Safe to run twice: the entry id is the key.
 */
export async function recordAuditEntry(deps: AuditDeps, entry: AuditEntryMessage): Promise<boolean> {
  const event = createEnvelope(
    'audit.recorded',
    {
      entry_id: entry.id,
      at: new Date(entry.at).toISOString(),
      user_id: entry.user_id,
      token_id: entry.token_id,
      operation: entry.operation,
      method: entry.method,
      path: entry.path,
      resource_ids: entry.resource_ids,
      app_id: entry.app_id,
      fields: entry.fields,
      address: entry.address,
      request_id: entry.request_id,
      status: entry.status,
    },
    'users',
  );
  const stored = await deps.audit.append(
    {
      _id: entry.id,
      at: new Date(entry.at),
      day: utcDay(entry.at),
      userId: entry.user_id,
      tokenId: entry.token_id,
      operation: entry.operation,
      method: entry.method,
      path: entry.path,
      resourceIds: Object.entries(entry.resource_ids).map(([name, value]) => ({ name, value })),
      appId: entry.app_id,
      fields: entry.fields,
      address: entry.address,
      requestId: entry.request_id,
      status: entry.status,
    },
    event,
  );
  if (stored) deps.onEventsRecorded();
  return stored;
}

export interface AuditQuery {
  days: string[];
  userId?: number;
  appId?: number;
  operation?: string;
}

/**
 * Global admins read everything; anyone else only an app's entries, and the
 * gateway has checked they administer that app (apps.CheckPermission) before
 * asking — this service does not know app roles.
 */
export async function listAuditEntries(deps: AuditDeps, actor: Actor, query: AuditQuery, page: number, perPage: number): Promise<{ entries: AuditEntryDocument[]; total: number }> {
  if (!isAdmin(actor) && query.appId === undefined) throw new PermissionDenied('Only admins read the whole audit log; app admins ask for their app (app_id)');
  if (query.days.length === 0 || query.days.length > MAX_AUDIT_DAYS) throw InvalidArgument.field('from', `must span 1 to ${MAX_AUDIT_DAYS} days`);
  const all = await deps.audit.find(query);
  return { entries: all.slice((page - 1) * perPage, page * perPage), total: all.length };
}
