import { grpcTarget, loadConfig, milliseconds, mongoDatabase, mongoUrl, natsReplicas, natsUrl, serviceBase, serviceDatabaseName, z } from '@hangar/config';

const schema = z.object({
  ...serviceBase,
  GRPC_LISTEN: z.string().regex(/^[^\s]*:\d+$/, 'expected host:port').default('0.0.0.0:50051'),
  MONGO_URL: mongoUrl,
  MONGO_DB: mongoDatabase(serviceDatabaseName('webhooks')),
  NATS_URL: natsUrl,
  /** Copies JetStream keeps of each stream and KV bucket this process creates (libs/config `natsReplicas`). */
  NATS_REPLICAS: natsReplicas,
  NATS_SUBJECT_PREFIX: z.string().regex(/^[a-z][a-z0-9_-]*$/).default('hangar'),
  /** Who may manage an app's webhooks, and the app, scheme and channel a webhook body names. */
  APPS_GRPC_TARGET: grpcTarget.default('apps:50051'),
  /** The new-build callout reads the release it announces from the releases service. */
  RELEASES_GRPC_TARGET: grpcTarget.default('releases:50051'),
  /** Deadline of every call to another service. */
  GRPC_DEADLINE_MS: z.coerce.number().int().min(1).default(10_000),
  /**
   * Public origin for the URLs in webhook payloads (release_url, install_url,
   * qrcode_url). Empty: the payload carries paths relative to the gateway.
   */
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * Key (32+ characters) that encrypts webhook secrets at rest (AES-256-GCM).
   * Required in production: when unset, a random key lives only as long as the
   * process, and secrets stored under it cannot sign after a restart. Secrets
   * moved from the apps service open only under the key apps had.
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
  /** The shortest pause between the dispatcher's looks for due deliveries (it looks when the next is due, less often while none is pending). */
  WEBHOOK_POLL_MS: z.coerce.number().int().min(10).default(1_000),
  /** Webhook calls in flight at once per process. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
  /** Finished deliveries and their attempts are removed after this many days. */
  WEBHOOK_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  /**
   * Where e-mail to testers goes: an SMTP server (`smtp://user:pass@host:587`, `smtps://…` for
   * TLS from the start). Unset: to MAILBOX_DIR, or nowhere.
   */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  /** The From of every e-mail. */
  MAIL_FROM: z.string().min(3).default('Hangar <hangar@localhost>'),
  /** New-build e-mails handed to the SMTP server at once. */
  MAIL_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
  /** Without SMTP_URL: each e-mail written as an .eml file in this folder (npm run up sets .hangar/mailbox). */
  MAILBOX_DIR: z.string().optional(),
  /** Wait between tries of the one-time move from the apps service while apps does not answer it yet. */
  MIGRATION_RETRY_MS: milliseconds(2_000),
});

export type WebhooksConfig = z.infer<typeof schema>;

export const loadWebhooksConfig = (env?: Record<string, string | undefined>): WebhooksConfig => loadConfig(schema, env);
