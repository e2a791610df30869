import { grpcTarget, loadConfig, milliseconds, mongoDatabase, mongoUrl, natsReplicas, natsUrl, serviceBase, serviceDatabaseName, z } from '@hangar/config';

const schema = z.object({
  ...serviceBase,
  GRPC_LISTEN: z.string().regex(/^[^\s]*:\d+$/, 'expected host:port').default('0.0.0.0:50051'),
  MONGO_URL: mongoUrl,
  MONGO_DB: mongoDatabase(serviceDatabaseName('apps')),
  NATS_URL: natsUrl,
  /** Copies JetStream keeps of each stream and KV bucket this process creates (libs/config `natsReplicas`). */
  NATS_REPLICAS: natsReplicas,
  NATS_SUBJECT_PREFIX: z.string().regex(/^[a-z][a-z0-9_-]*$/).default('hangar'),
  /** GetApp answers (per caller and app) and ListApps pages (per caller and page, weighing their apps) kept in memory while nothing changed (apps-service.ts); 0 keeps none. */
  APP_VIEW_CACHE_SIZE: z.coerce.number().int().min(0).default(10_000),
  /** The longest a cached answer is used without being read again, whatever the generations say. */
  CACHE_MAX_AGE_MS: milliseconds(60_000),
  /** Collaborators answer with their user's name and email, from the users service. */
  USERS_GRPC_TARGET: grpcTarget.default('users:50051'),
  /** How long the sign-in link an e-mail carries works (single use; a tester asks for a new one with their address). */
  TESTER_SIGN_IN_TTL_MS: milliseconds(24 * 3_600_000),
  /** How long a tester stays signed in after using a sign-in link (removal ends it at once). */
  TESTER_SESSION_TTL_MS: milliseconds(30 * 24 * 3_600_000),
  /** Deadline of every call to the users service. */
  GRPC_DEADLINE_MS: z.coerce.number().int().min(1).default(10_000),
});

export type AppsConfig = z.infer<typeof schema>;

export const loadAppsConfig = (env?: Record<string, string | undefined>): AppsConfig => loadConfig(schema, env);
