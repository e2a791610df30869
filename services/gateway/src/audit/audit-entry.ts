import { randomUUID } from 'node:crypto';
import type { AuditEntryMessage } from '@hangar/events';
import { boundedJson } from '@hangar/logger';

/** Field names whose values are secrets: never in the audit log. */
const SECRET_FIELD = /pass(word)?|token|secret|credential|session|verifier|^code$/i;
const MAX_VALUE = 300;
const MAX_FIELDS = 100;

export interface WriteSeen {
  at: number;
  userId?: number;
  tokenId?: number;
  operationId: string;
  method: string;
  path: string;
  params: Record<string, string>;
  body: unknown;
  /** Added by the route (audit-note.ts): recorded after the body's fields, never redacted away. */
  notes?: Record<string, string>;
  /** The app the route looked up (audit-note.ts), when the path does not name it. */
  appId?: number;
  answer: unknown;
  address: string;
  requestId: string;
  status: number;
}

/** What the gateway saw of a write, as an audit entry: secrets redacted, long values cut. */
export function auditEntryOf(write: WriteSeen): AuditEntryMessage {
  return {
    id: randomUUID(),
    at: write.at,
    user_id: write.userId ?? null,
    token_id: write.tokenId || null,
    operation: write.operationId,
    method: write.method,
    path: cut(write.path, 2000),
    resource_ids: Object.fromEntries(Object.entries(write.params).map(([k, v]) => [k, cut(SECRET_FIELD.test(k) ? '[redacted]' : v, 200)])),
    app_id: appIdOf(write),
    fields: [...fieldsOf(write.body), ...Object.entries(write.notes ?? {}).map(([name, value]) => ({ name, value: cut(value, MAX_VALUE) }))],
    address: cut(write.address, 100),
    request_id: cut(write.requestId, 200),
    status: write.status,
  };
}

function fieldsOf(body: unknown): AuditEntryMessage['fields'] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [];
  return Object.entries(body as Record<string, unknown>)
    .slice(0, MAX_FIELDS)
    .map(([name, value]) => ({
      name: cut(name, 100),
      value: SECRET_FIELD.test(name) ? '[redacted]' : cut(typeof value === 'string' ? value : boundedJson(value, { maxDepth: 4, maxEntries: 20, maxChars: MAX_VALUE }), MAX_VALUE),
    }));
}

/**
 * The app a write concerned: from the path (`/api/apps/{id}`, `{app_id}`), else the one the route
 * looked up (a channel, scheme, webhook or debug file by id), else from the answer (`app_id`, `app.id`).
 */
function appIdOf(write: WriteSeen): number | null {
  const fromPath = write.params.app_id ?? (write.path.startsWith('/api/apps/') ? write.params.id : undefined);
  const answer = write.answer as { app_id?: unknown; app?: { id?: unknown } } | undefined;
  const candidate = fromPath !== undefined ? Number(fromPath) : (write.appId ?? answer?.app_id ?? answer?.app?.id);
  return typeof candidate === 'number' && Number.isSafeInteger(candidate) && candidate > 0 ? candidate : null;
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
