import { grpcTarget, loadConfig, milliseconds, mongoUrl, natsUrl, serviceBase, z } from '@hangar/config';

const schema = z.object({
  ...serviceBase,
  GRPC_LISTEN: z.string().regex(/^[^\s]*:\d+$/, 'expected host:port').default('0.0.0.0:50051'),
  MONGO_URL: mongoUrl,
  MONGO_DB: z.string().default('hangar_apps'),
  NATS_URL: natsUrl,
  NATS_SUBJECT_PREFIX: z.string().regex(/^[a-z][a-z0-9_-]*$/).default('hangar'),
  /** GetApp answers kept in memory (per caller and app) while nothing changed (apps-service.ts); 0 keeps none. */
  APP_VIEW_CACHE_SIZE: z.coerce.number().int().min(0).default(10_000),
  /** The longest a cached answer is used without being read again, whatever the generations say. */
  CACHE_MAX_AGE_MS: milliseconds(60_000),
  /** Collaborators answer with their user's name and email, from the users service. */
  USERS_GRPC_TARGET: grpcTarget.default('users:50051'),
  /** Deadline of every call to the users service. */
  GRPC_DEADLINE_MS: z.coerce.number().int().min(1).default(10_000),
  /** The new-build callout reads the release it announces from the releases service. */
  RELEASES_GRPC_TARGET: grpcTarget.default('releases:50051'),
  /**
   * Public origin for the URLs in webhook payloads (release_url, install_url,
   * qrcode_url). Empty: the payload carries paths relative to the gateway.
   */
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * Key (32+ characters) that encrypts webhook secrets at rest (AES-256-GCM).
   * Required in production: when unset, a random key lives only as long as the
   * process, and secrets stored under it cannot sign after a restart.
   */
  WEBHOOK_SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * Webhook targets allowed although private: comma-separated hosts
   * (`hooks.internal`, `*.corp.example`), addresses or CIDR ranges
   * (`10.0.0.0/8`). Loopback, private, link-local and unique-local addresses
   * are refused unless listed here.
   */
  HANGAR_WEBHOOK_ALLOWED_HOSTS: z.string().default(''),
  /** Time limit of one webhook call (connect, send, answer). */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** Attempts per delivery, the first included. */
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(30).default(8),
  /** Delay before the second attempt; doubled before each later one (30 s … 32 min: ~1 h over 8 attempts). */
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).default(30_000),
  /** How often the dispatcher looks for deliveries that are due. */
  WEBHOOK_POLL_MS: z.coerce.number().int().min(10).default(1_000),
  /** Webhook calls in flight at once per process. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
  /** Finished deliveries and their attempts are removed after this many days. */
  WEBHOOK_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
});

export type AppsConfig = z.infer<typeof schema>;

export const loadAppsConfig = (env?: Record<string, string | undefined>): AppsConfig => loadConfig(schema, env);
