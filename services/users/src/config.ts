import { loadConfig, milliseconds, mongoDatabase, mongoUrl, natsReplicas, natsUrl, serviceBase, serviceDatabaseName, z } from '@hangar/config';

const schema = z.object({
  ...serviceBase,
  GRPC_LISTEN: z.string().regex(/^[^\s]*:\d+$/, 'expected host:port').default('0.0.0.0:50051'),
  MONGO_URL: mongoUrl,
  MONGO_DB: mongoDatabase(serviceDatabaseName('users')),
  NATS_URL: natsUrl,
  /** Copies JetStream keeps of each stream and KV bucket this process creates (libs/config `natsReplicas`). */
  NATS_REPLICAS: natsReplicas,
  NATS_SUBJECT_PREFIX: z.string().regex(/^[a-z][a-z0-9_-]*$/).default('hangar'),
  /** A console session ends this long after sign-in (a new sign-in starts a new one). */
  SESSION_TTL_MS: milliseconds(14 * 24 * 3600 * 1000),
  // Bootstrap admin, created when no admin exists. Missing values get safe random ones.
  HANGAR_ADMIN_EMAIL: z.email().default('admin@hangar.local'),
  HANGAR_ADMIN_PASSWORD: z.string().min(12, 'must be at least 12 characters (docs/operations.md, Passwords)').optional(),
  HANGAR_ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Audit entries older than this many days are removed. */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  /** Time between retention sweeps; 0 turns them off. */
  AUDIT_SWEEP_INTERVAL_MS: milliseconds(3_600_000),
});

export type UsersConfig = z.infer<typeof schema>;

export const loadUsersConfig = (env?: Record<string, string | undefined>): UsersConfig => loadConfig(schema, env);

