import type { users } from '@hangar/proto';
import { formatTimestamp } from '../http/timestamps';

/** An audit entry; secrets were redacted before it was ever stored. */
export function presentAuditEntry(entry: users.AuditEntry, viewerTimeZone?: string) {
  return {
    id: entry.id,
    at: formatTimestamp(entry.atMs, viewerTimeZone),
    user_id: entry.userId || null,
    token_id: entry.tokenId || null,
    operation: entry.operation,
    method: entry.method,
    path: entry.path,
    resource_ids: Object.fromEntries(entry.resourceIds.map(({ name, value }) => [name, value])),
    app_id: entry.appId || null,
    fields: Object.fromEntries(entry.fields.map(({ name, value }) => [name, value])),
    address: entry.address,
    request_id: entry.requestId,
    status: entry.status,
  };
}
