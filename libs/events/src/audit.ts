import { JetStreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { z } from 'zod';
import { DEFAULT_SUBJECT_PREFIX } from './event-registry';
import { ensureStream } from './jetstream-setup';

/**
 * One write through the HTTP API, as the gateway saw it: who, what,
 * when, from where, and how it ended — never a secret (the gateway redacts
 * password, token and secret fields before this is made). Internal: the
 * gateway publishes it to the audit stream, the users service stores it and
 * announces it as the public `audit.recorded` (docs/events.md).
 */
export const auditEntrySchema = z.object({
  /** Random id, also the JetStream message id: a retried publish is dropped as a duplicate. */
  id: z.string().min(8).max(64),
  /** When the answer was sent, ms since the epoch. */
  at: z.number().int().positive(),
  /** The authenticated user; null when the write was refused before anyone was known (401). */
  user_id: z.number().int().positive().nullable(),
  /** The personal access token used; null without one. */
  token_id: z.number().int().positive().nullable(),
  /** The OpenAPI operationId. */
  operation: z.string().min(1).max(100),
  method: z.string().min(1).max(10),
  path: z.string().max(2000),
  /** Path parameters by name (`id`, `app_id`, …). */
  resource_ids: z.record(z.string(), z.string().max(200)),
  /** The app concerned when known (a path's app id, or an app id in the answer). */
  app_id: z.number().int().positive().nullable(),
  /** Body fields sent, secrets as `[redacted]`, long values cut. */
  fields: z.array(z.object({ name: z.string().max(100), value: z.string().max(300) })).max(100),
  address: z.string().max(100),
  request_id: z.string().max(200),
  /** The HTTP status answered. */
  status: z.number().int().min(100).max(599),
});

export type AuditEntryMessage = z.infer<typeof auditEntrySchema>;

const token = (prefix: string) => prefix.replace(/[^A-Za-z0-9_-]/g, '_');

export function auditSubject(prefix = DEFAULT_SUBJECT_PREFIX): string {
  return `${token(prefix)}-internal.audit.v1`;
}

export function auditStreamName(prefix = DEFAULT_SUBJECT_PREFIX): string {
  return `${token(prefix).toUpperCase()}_AUDIT`;
}

const SEVEN_DAYS_NS = 7 * 24 * 60 * 60 * 1e9;

/**
 * Creates the audit stream when missing (the gateway and the users service,
 * at start: whichever starts first). It keeps entries a week, so a users
 * service down for days still stores every one; the message id deduplicates
 * a gateway's retried publishes within the default two-minute window.
 */
export async function ensureAuditStream(jsm: JetStreamManager, prefix = DEFAULT_SUBJECT_PREFIX): Promise<string> {
  const name = auditStreamName(prefix);
  return ensureStream(jsm, { name, subjects: [auditSubject(prefix)], retention: RetentionPolicy.Limits, storage: StorageType.File, max_age: SEVEN_DAYS_NS });
}
