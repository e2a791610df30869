import { z } from 'zod';

/** Reusable environment fields, so every service spells them the same way. */

export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

export const milliseconds = (fallback: number) => z.coerce.number().int().min(0).default(fallback);

export const bytes = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

export const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');

export const booleanFlag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .transform((v) => v === 'true' || v === '1' || v === 'yes')
    .default(fallback);

/**
 * A gRPC target: one `host:port` such as `users:50051` (a name that may
 * resolve to every replica), or a comma-separated list of IPv4 `ip:port`
 * addresses, one per replica (`npm run up` with `HANGAR_REPLICAS`): calls are
 * spread over all of them (libs/grpc `createServiceChannel`).
 */
export const grpcTarget = z
  .string()
  .regex(/^(?:[^\s:,]+:\d+|\d{1,3}(?:\.\d{1,3}){3}:\d+(?:,\d{1,3}(?:\.\d{1,3}){3}:\d+)+)$/, 'expected host:port, or a comma-separated list of IPv4 ip:port');

export const mongoUrl = z.string().regex(/^mongodb(\+srv)?:\/\//, 'expected a mongodb:// URL');

/** The names FerretDB 1.24's PostgreSQL backend skips when it loads its databases (`LIKE 'pg_%'`). */
export const FERRETDB_HIDDEN_NAME = /^pg./;

/**
 * A service's database name. Not one FerretDB on PostgreSQL (the default engine) would lose:
 * FerretDB 1.24 finds its databases at start by listing schemas `NOT LIKE 'pg_%'`, whose `_`
 * matches any character, so a database named `pg` + anything (`pgurl_apps`) is not found
 * again once FerretDB restarts, and the next write into it fails for good with
 * `relation "_ferretdb_database_metadata" already exists`. Refused here, before any data is
 * written. Checked on this machine: a restart keeps `PGx_apps` and `hangar_apps`, not `pgx_apps`.
 */
export const mongoDatabase = (fallback: string) =>
  z
    .string()
    .min(1)
    .refine((name) => !FERRETDB_HIDDEN_NAME.test(name), {
      message: "must not begin with 'pg': FerretDB on PostgreSQL does not find such a database again after it restarts",
    })
    .default(fallback);

/**
 * One NATS server, or several of one cluster with commas between
 * (`nats://nats-0:4222,nats://nats-1:4222`): the client starts with any it can reach and
 * learns the rest of the cluster from it (libs/events `connectEventBus`).
 */
export const natsUrl = z.string().regex(/^(?:nats|tls):\/\/[^\s,]+(?:,\s*(?:nats|tls):\/\/[^\s,]+)*$/, 'expected a nats:// URL, or several with commas between');

/**
 * Copies JetStream keeps of each stream, consumer and KV bucket Hangar creates (libs/events
 * `ensureStream`, `openKvBucket`): 1 for a single server; 3 on a cluster of three or more, so
 * losing a node loses no event and no KV value. JetStream allows at most 5, and no more than
 * the cluster has nodes (a create asking for more is refused).
 */
export const natsReplicas = z.coerce.number().int().min(1).max(5).default(1);

/**
 * OpenTelemetry's standard variables that Hangar's deployments set. libs/telemetry
 * reads them itself (the SDK starts before the config is loaded); declared here
 * so a wrong value stops the start with the others, and the deploy tests know them.
 */
function telemetryFields() {
  return {
    /** OTLP/HTTP collector origin (`/v1/traces` is appended); empty or unset: no exporter runs. */
    OTEL_EXPORTER_OTLP_ENDPOINT: z.union([z.literal(''), z.url()]).optional(),
    OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(['http/protobuf', 'http/json']).optional(),
    /** Overrides the per-process default (`hangar-<service>`, `hangar-parse-workers`). */
    OTEL_SERVICE_NAME: z.string().min(1).optional(),
  };
}

/** Settings every Hangar service process shares. */
export const serviceBase = {
  LOG_LEVEL: logLevel,
  /** Time allowed for in-flight work at shutdown before the process exits anyway. */
  SHUTDOWN_TIMEOUT_MS: milliseconds(10_000),
  HANGAR_VERSION: z.string().default('0.0.0-dev'),
  /** Prometheus metrics at `GET /metrics` on this port, apart from the service's own; 0 turns them off. */
  METRICS_PORT: port(9464),
  /** Tests only: record every query shape here for the plan check (libs/mongo query-log.ts). */
  HANGAR_QUERY_LOG_DIR: z.string().min(1).optional(),
  ...telemetryFields(),
};

/** S3-compatible object storage (MinIO, versitygw, AWS). */
export const storageFields = {
  S3_ENDPOINT: z.url(),
  S3_ACCESS_KEY: z.string().min(1),
  S3_SECRET_KEY: z.string().min(1),
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'expected an S3 bucket name').default('hangar'),
  S3_REGION: z.string().default('us-east-1'),
  /**
   * The S3 origin as clients reach it, when they can: presigned URLs (download redirects, and
   * the parts of direct uploads, whose bytes then never cross the gateway) are signed for it.
   */
  S3_PUBLIC_ENDPOINT: z.url().optional(),
  /**
   * Parts of multipart uploads signed with UNSIGNED-PAYLOAD (over http too; over https they
   * always are): no second SHA-256 pass over every uploaded byte. `false` where S3 is reached
   * over plain http across a link someone could alter bytes on.
   */
  S3_UNSIGNED_PARTS: booleanFlag(true),
  /**
   * Part buffers of all uploads of one process together (8 MiB each): bounds its memory under
   * uploads; more lets more parts fill and go up at once.
   */
  UPLOAD_MEMORY_BYTES: bytes(32 * 1024 * 1024),
};

/**
 * The orphan-object janitor of the services that own objects in storage (releases,
 * debug-files; docs/operations.md). The grace period must exceed the longest an upload can
 * take from its first byte to its record — the gateway's UPLOAD_DEADLINE_MS plus the time to
 * send the largest file — so an upload in progress is never touched.
 */
export const storageJanitorFields = {
  /** Objects and unfinished multipart uploads younger than this are never removed. */
  STORAGE_JANITOR_GRACE_MS: z.coerce.number().int().min(1_000).default(24 * 3600 * 1000),
  /** Time between sweeps; 0 turns the janitor off. */
  STORAGE_JANITOR_INTERVAL_MS: milliseconds(3600 * 1000),
  /**
   * The most of a prefix's objects one sweep may move to trash/ (but always up to
   * STORAGE_JANITOR_MIN_REMOVALS): more orphans than that, and the prefix is left alone, logged
   * and counted (hangar_storage_janitor_refused_total).
   */
  STORAGE_JANITOR_MAX_SHARE: z.coerce.number().gt(0).max(1).default(0.1),
  STORAGE_JANITOR_MIN_REMOVALS: z.coerce.number().int().min(0).default(10),
  /**
   * The installation id of the bucket, to be recorded in this database in place of what it holds
   * (docs/operations.md, Installation id): set for one start, on purpose, never by default.
   */
  HANGAR_ADOPT_BUCKET: z.string().optional(),
};
