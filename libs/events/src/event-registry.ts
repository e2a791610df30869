import { z } from 'zod';

const id = z.number().int().positive();

/** What a debug file's id is: the names symbol servers and crash tools use for them. */
export const DEBUG_ID_TYPES = ['macho_uuid', 'proguard_uuid', 'gnu_build_id', 'breakpad_module_id', 'pdb_guid_age', 'pe_code_id'] as const;

/**
 * Every event Hangar publishes, with its payload schema: the public contract
 * downstream systems subscribe to (docs/events.md). Subjects are
 * `<prefix>.<domain>.<entity>.<event>.v<version>`; within a version, changes
 * are additive only — a breaking change is a new version.
 * Payloads carry ids, never secrets.
 */
export const EVENT_REGISTRY = {
  'user.deleted': {
    domain: 'users',
    version: 1,
    schema: z.object({ user_id: id }),
  },
  'app.deleted': {
    domain: 'apps',
    version: 1,
    schema: z.object({ app_id: id }),
  },
  'scheme.deleted': {
    domain: 'apps',
    version: 1,
    schema: z.object({ app_id: id, scheme_id: id }),
  },
  'channel.deleted': {
    domain: 'apps',
    version: 1,
    schema: z.object({ app_id: id, scheme_id: id, channel_id: id }),
  },
  /**
   * A tester was added to a group (by an admin, or through a join link), or asked a join
   * link to invite them again: the mailer sends them a single-use sign-in link. Ids only:
   * the address and the link are read from the apps service when the mail is made.
   */
  'tester.invited': {
    domain: 'apps',
    version: 1,
    schema: z.object({ tester_id: id, group_id: id, app_id: id }),
  },
  'release.created': {
    domain: 'releases',
    version: 1,
    schema: z.object({
      release_id: id,
      app_id: id,
      scheme_id: id,
      channel_id: id,
      version: id,
      bundle_id: z.string(),
      release_version: z.string(),
      build_version: z.string(),
      platform: z.string(),
      /** Present (false) only when the upload said `notify=false`: no tester is e-mailed of this build. */
      notify: z.boolean().optional(),
    }),
  },
  'release.deleted': {
    domain: 'releases',
    version: 1,
    schema: z.object({ release_id: id, app_id: id, scheme_id: id, channel_id: id }),
  },
  /**
   * Downloads counted, aggregated: at most one per release per
   * minute, carrying the count since the previous one. Zealot's webhook name
   * for it is `download_events` (accepted in a webhook's `events`).
   */
  'release.downloaded': {
    domain: 'releases',
    version: 1,
    schema: z.object({
      release_id: id,
      app_id: id,
      scheme_id: id,
      channel_id: id,
      /** Downloads and iOS manifest fetches since the previous release.downloaded of this release. */
      count: id,
      /** All time, as counted when the event was made. */
      total: id,
    }),
  },
  'debug_file.created': {
    domain: 'debug_files',
    version: 1,
    schema: z.object({
      debug_file_id: id,
      app_id: id,
      channel_id: id,
      release_version: z.string(),
      build_version: z.string(),
      uuids: z.array(z.string()),
      // Added with the symbol servers; optional so events recorded before still pass.
      /** dsym | proguard | elf | breakpad | pdb | pe */
      kind: z.string().optional(),
      /** Each id with what it is, as symbol servers are asked by it. */
      debug_ids: z.array(z.object({ type: z.enum(DEBUG_ID_TYPES), id: z.string() })).optional(),
    }),
  },
  'debug_file.deleted': {
    domain: 'debug_files',
    version: 1,
    schema: z.object({ debug_file_id: id, app_id: id, channel_id: id }),
  },
  /**
   * A write through the HTTP API, allowed or refused, once stored in the
   * audit log: for a SIEM. Never a secret: redacted fields say
   * `[redacted]`.
   */
  'audit.recorded': {
    domain: 'users',
    version: 1,
    schema: z.object({
      entry_id: z.string(),
      at: z.string(),
      user_id: id.nullable(),
      token_id: id.nullable(),
      operation: z.string(),
      method: z.string(),
      path: z.string(),
      resource_ids: z.record(z.string(), z.string()),
      app_id: id.nullable(),
      fields: z.array(z.object({ name: z.string(), value: z.string() })),
      address: z.string(),
      request_id: z.string(),
      status: z.number().int(),
    }),
  },
} as const;

export type EventType = keyof typeof EVENT_REGISTRY;
export type EventData<T extends EventType> = z.infer<(typeof EVENT_REGISTRY)[T]['schema']>;

export const DEFAULT_SUBJECT_PREFIX = 'hangar';

/** `hangar.users.user.deleted.v1` for `user.deleted`. */
export function subjectOf(type: EventType, prefix = DEFAULT_SUBJECT_PREFIX): string {
  const { domain, version } = EVENT_REGISTRY[type];
  return `${prefix}.${domain}.${type}.v${version}`;
}

export function isEventType(value: string): value is EventType {
  return Object.prototype.hasOwnProperty.call(EVENT_REGISTRY, value);
}
