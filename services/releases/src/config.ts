import { booleanFlag, grpcTarget, loadConfig, milliseconds, mongoDatabase, mongoUrl, natsReplicas, natsUrl, serviceBase, serviceDatabaseName, storageFields, storageJanitorFields, z } from '@hangar/config';

/**
 * `all`: the releases service (gRPC, event consumers, janitor, and parsing
 * workers unless PARSE_WORKER_ENABLED=false). `parse-workers`: only the
 * package-parsing workers and /metrics + /healthz, so parsing scales as its
 * own Deployment (deploy/k8s/base/parse-workers.yaml); it needs NATS and S3,
 * not MongoDB.
 */
export const RELEASES_MODES = ['all', 'parse-workers'] as const;

const fields = z.object({
  ...serviceBase,
  RELEASES_MODE: z.enum(RELEASES_MODES).default('all'),
  ...storageFields,
  ...storageJanitorFields,
  GRPC_LISTEN: z.string().regex(/^[^\s]*:\d+$/, 'expected host:port').default('0.0.0.0:50051'),
  MONGO_URL: mongoUrl.optional(),
  MONGO_DB: mongoDatabase(serviceDatabaseName('releases')),
  NATS_URL: natsUrl,
  /** Copies JetStream keeps of each stream and KV bucket this process creates (libs/config `natsReplicas`). */
  NATS_REPLICAS: natsReplicas,
  NATS_SUBJECT_PREFIX: z.string().regex(/^[a-z][a-z0-9_-]*$/).default('hangar'),
  APPS_GRPC_TARGET: grpcTarget.default('apps:50051'),
  /** Deadline of every call to apps: past it the upload gets a 503, never a hang. */
  GRPC_DEADLINE_MS: milliseconds(10_000),
  /** Run package-parsing workers in this process (scale parsing by scaling this service). */
  PARSE_WORKER_ENABLED: booleanFlag(true),
  PARSE_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  /** Releases kept in memory for the version queries, over all channels (domain/channel-releases.ts); 0 keeps none. */
  RELEASES_CACHE_MAX_DOCS: z.coerce.number().int().min(0).default(20_000),
  /** Channel contexts (key or id → channel, scheme, app) kept in memory (clients/cached-apps-client.ts). */
  CHANNEL_CACHE_SIZE: z.coerce.number().int().min(0).default(10_000),
  /** The longest a cached copy is used without being read again, whatever the generations say. */
  CACHE_MAX_AGE_MS: milliseconds(60_000),
  /** At most one release.downloaded per release per this interval (a minute). */
  DOWNLOAD_NOTICE_INTERVAL_MS: milliseconds(60_000),
  /** How long an upload waits for a worker's answer. */
  PARSE_TIMEOUT_MS: milliseconds(120_000),
  /** Days a teardown (POST /api/teardown) and its file are kept; fractions allowed (tests use seconds' worth). */
  TEARDOWN_RETENTION_DAYS: z.coerce.number().positive().max(3650).default(7),
  /** Time between sweeps of expired teardowns; 0 turns the sweep off. */
  TEARDOWN_SWEEP_INTERVAL_MS: milliseconds(3600 * 1000),
});

const schema = fields.superRefine((config, ctx) => {
  if (config.RELEASES_MODE === 'all' && !config.MONGO_URL) ctx.addIssue({ code: 'custom', path: ['MONGO_URL'], message: 'required (only the parse-workers mode runs without a database)' });
});

export type ReleasesConfig = z.infer<typeof schema>;

export const loadReleasesConfig = (env?: Record<string, string | undefined>): ReleasesConfig => loadConfig(schema, env);
