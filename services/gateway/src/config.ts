import { MAX_ATTEMPT_WINDOW_MS } from './limits/attempt-rule';
import { compileTrustedProxies, parseTrustedProxies } from './http/trusted-proxies';
import path from 'node:path';
import { booleanFlag, bytes, grpcTarget, loadConfig, milliseconds, natsReplicas, natsUrl, port, serviceBase, storageFields, z } from '@hangar/config';

const schema = z.object({
  ...serviceBase,
  // Uploads stream from the socket straight into object storage.
  ...storageFields,
  HTTP_HOST: z.string().default('0.0.0.0'),
  HANGAR_PORT: port(8080),
  USERS_GRPC_TARGET: grpcTarget.default('users:50051'),
  APPS_GRPC_TARGET: grpcTarget.default('apps:50051'),
  RELEASES_GRPC_TARGET: grpcTarget.default('releases:50051'),
  DEBUG_FILES_GRPC_TARGET: grpcTarget.default('debug-files:50051'),
  WEBHOOKS_GRPC_TARGET: grpcTarget.default('webhooks:50051'),
  /** NATS holds the generations that keep the gateway's token cache exact (libs/cache). */
  NATS_URL: natsUrl,
  /** Copies JetStream keeps of each stream and KV bucket this process creates (libs/config `natsReplicas`). */
  NATS_REPLICAS: natsReplicas,
  NATS_SUBJECT_PREFIX: z.string().regex(/^[a-z][a-z0-9_-]*$/).default('hangar'),
  /** Tokens remembered per gateway (SHA-256 digests → their user), and the longest one is kept. */
  AUTH_CACHE_SIZE: z.coerce.number().int().min(0).default(10_000),
  AUTH_CACHE_MAX_AGE_MS: milliseconds(60_000),
  /** In-app update-check answers remembered per gateway (0: each asks the releases service); they live as long as tokens. */
  UPDATE_CHECK_CACHE_SIZE: z.coerce.number().int().min(0).default(10_000),
  /** Rendered pages of the apps list remembered per gateway, weighed by their apps as the apps service's (0: each is asked of it). */
  APP_VIEW_CACHE_SIZE: z.coerce.number().int().min(0).default(10_000),
  /**
   * Where this gateway keeps the audit entries JetStream has not yet acknowledged, so that a
   * killed gateway sends them when it starts again (audit/audit-spool.ts): one folder per
   * gateway process, surviving its restarts (a pod's emptyDir). Unset: in memory only.
   */
  AUDIT_SPOOL_DIR: z.string().min(1).optional(),
  /** Deadline of every call to a service: past it the client gets a 503, never a hang. */
  GRPC_DEADLINE_MS: milliseconds(10_000),
  HANGAR_VCS_REF: z.string().default('unknown'),
  HANGAR_BUILD_DATE: z.string().default(new Date(0).toISOString()),
  /** Largest JSON or urlencoded body; multipart fields have their own limits. */
  MAX_BODY_BYTES: bytes(1024 * 1024),
  /** Public origin for absolute URLs (Link headers, install pages); else taken from the request. */
  PUBLIC_BASE_URL: z.url().optional(),
  /**
   * Peers whose X-Forwarded-For, -Proto and -Host are believed (addresses, CIDRs, or
   * `loopback` / `linklocal` / `uniquelocal`; commas between): the ingress in front of the
   * gateway. Empty (the default): nobody's — the client is the socket's peer, limits,
   * the audit log and `last_used_address` use it, absolute URLs its Host.
   */
  TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform(parseTrustedProxies)
    .refine((list) => {
      try {
        compileTrustedProxies(list);
        return true;
      } catch {
        return false;
      }
    }, 'expected IP addresses or CIDRs (or loopback, linklocal, uniquelocal) separated by commas'),
  /** Largest package or debug file accepted; past it: 413 and the partial object removed. */
  MAX_UPLOAD_BYTES: bytes(4 * 1024 * 1024 * 1024),
  /**
   * Largest package stored before its sender is known (a `token` field after the file part, as
   * Zealot allows): past it 413; a missing or wrong token that follows removes it (401).
   */
  UPLOAD_MAX_BYTES_BEFORE_TOKEN: bytes(64 * 1024 * 1024),
  /**
   * A resumable upload not finished by then is refused (410) and its parts left to the owning
   * service's storage janitor, whose STORAGE_JANITOR_GRACE_MS (24 h) must not be shorter.
   */
  RESUMABLE_UPLOAD_EXPIRY_MS: milliseconds(24 * 3600 * 1000),
  /** An upload waits for parsing: longer than ordinary calls. */
  UPLOAD_DEADLINE_MS: milliseconds(180_000),
  /**
   * Longest a whole request may take. Node's default (5 min) cut large uploads
   * off on ordinary links: 4 GiB at 10 MB/s takes 7. Stalled clients are ended
   * by HTTP_IDLE_TIMEOUT_MS instead, whatever their size.
   */
  HTTP_REQUEST_TIMEOUT_MS: milliseconds(6 * 3600 * 1000),
  /**
   * A connection with no bytes in either direction for this long is closed: a
   * client that stopped sending mid-upload does not hold its socket and part
   * buffers forever. Longer than UPLOAD_DEADLINE_MS, during which an upload
   * whose body has arrived waits silently for parsing.
   */
  HTTP_IDLE_TIMEOUT_MS: milliseconds(300_000),
  /** Downloads redirect to presigned storage URLs; off: the gateway streams them (storage not reachable by clients). */
  DOWNLOAD_REDIRECT: booleanFlag(true),
  /** Count downloads and iOS manifest fetches, off the request path. */
  DOWNLOAD_COUNTING: booleanFlag(true),
  /** Downloads are added up this long before one NATS message reports them (a killed gateway loses at most this much). */
  DOWNLOAD_FLUSH_MS: milliseconds(1000),
  /**
   * Signs install-page unlock cookies and download links; set the same value
   * on every replica. Unset: a random one per process (unlocks end at restart).
   */
  INSTALL_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * The `/udid` profile (iOS device registration) is signed with this certificate (PEM file: the
   * certificate, then its chain) and key (PEM file), so iOS shows it as verified; unset, it is
   * unsigned ("Not Verified", and it works the same).
   */
  UDID_PROFILE_CERT: z.string().min(1).optional(),
  UDID_PROFILE_KEY: z.string().min(1).optional(),
  /** The organisation iOS names on the `/udid` profile. */
  UDID_PROFILE_ORGANISATION: z.string().min(1).max(100).default('Hangar'),
  /**
   * Console sign-in attempts allowed per email and per client address in one window,
   * counted in NATS KV across replicas; past them 429 with Retry-After.
   */
  SIGN_IN_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(10),
  SIGN_IN_MAX_ATTEMPTS_PER_ADDRESS: z.coerce.number().int().min(1).default(100),
  SIGN_IN_WINDOW_MS: milliseconds(15 * 60 * 1000),
  /** The console's build (clients/console/dist, made by `npm run build`), served at `/`. */
  CONSOLE_DIR: z.string().default(path.resolve(__dirname, '..', '..', '..', 'clients', 'console', 'dist')),
  UNLOCK_TTL_SECONDS: z.coerce.number().int().min(60).max(30 * 24 * 3600).default(12 * 3600),
  /**
   * Failed-attempt limits, counted in NATS KV by all replicas together: within
   * ATTEMPT_WINDOW_MS, UNLOCK_MAX_FAILURES wrong visit passwords per address and
   * channel, TOKEN_MAX_FAILURES unknown access tokens and CHANNEL_KEY_MAX_FAILURES unknown
   * channel keys per address; past them 429.
   */
  ATTEMPT_WINDOW_MS: milliseconds(10 * 60 * 1000).refine((ms) => ms > 0 && ms <= MAX_ATTEMPT_WINDOW_MS, 'must be more than 0 and at most a day'),
  UNLOCK_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  TOKEN_MAX_FAILURES: z.coerce.number().int().min(1).default(50),
  /** Unknown channel keys per address (any route that takes a key: API, debug files, symbol servers, install pages); past them 429. */
  CHANNEL_KEY_MAX_FAILURES: z.coerce.number().int().min(1).default(20),
  /** Android retraces per address within RETRACE_WINDOW_MS, right keys and wrong ones alike (limits/retrace-limit.ts); past them 429. */
  RETRACE_MAX_CALLS: z.coerce.number().int().min(1).default(120),
  RETRACE_WINDOW_MS: milliseconds(60 * 1000).refine((ms) => ms > 0 && ms <= MAX_ATTEMPT_WINDOW_MS, 'must be more than 0 and at most a day'),
  /**
   * OpenID Connect sign-in for the console (docs/operations.md, Single
   * sign-on): on when issuer, client id and secret are all set. The provider's
   * redirect URI to register is `<OIDC_REDIRECT_BASE_URL>/api/sessions/oidc/callback`.
   */
  OIDC_ISSUER_URL: z.url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  /** The name on the console's button: "Sign in with <name>". */
  OIDC_PROVIDER_NAME: z.string().min(1).max(60).default('single sign-on'),
  /** Public origin the provider sends browsers back to; unset: PUBLIC_BASE_URL, else the request's. */
  OIDC_REDIRECT_BASE_URL: z.url().optional(),
  /** Scopes asked for; `openid` and `email` are needed. */
  OIDC_SCOPES: z.string().regex(/(^|\s)openid(\s|$)/, 'must include openid').default('openid email profile'),
  /** Global role of a user created by their first sign-in (`user` means member, as everywhere). */
  OIDC_DEFAULT_ROLE: z.enum(['member', 'user', 'developer', 'admin']).default('member').transform((r) => (r === 'user' ? 'member' : r)),
  /** Comma-separated email domains allowed to sign in (`example.com`, subdomains not included); empty: any. */
  OIDC_ALLOWED_DOMAINS: z
    .string()
    .default('')
    .transform((list) => list.split(',').map((d) => d.trim().toLowerCase()).filter(Boolean))
    .refine((domains) => domains.every((d) => /^[a-z0-9.-]+\.[a-z0-9-]+$/.test(d)), 'expected domains separated by commas'),
  /** Single sign-on only: password sign-in refused except for global admins (break-glass, audited). */
  OIDC_SSO_ONLY: booleanFlag(false),
  /** How long a started sign-in may take at the provider before its state expires (400). */
  OIDC_STATE_TTL_MS: milliseconds(10 * 60 * 1000).refine((ms) => ms >= 1000 && ms <= 3600 * 1000, 'must be 1 s to 1 h'),
  /** An http:// issuer (a provider inside the cluster, tests); https is required otherwise. */
  OIDC_ALLOW_HTTP_ISSUER: booleanFlag(false),
}).refine((c) => [c.OIDC_ISSUER_URL, c.OIDC_CLIENT_ID, c.OIDC_CLIENT_SECRET].every((v) => v === undefined) || [c.OIDC_ISSUER_URL, c.OIDC_CLIENT_ID, c.OIDC_CLIENT_SECRET].every((v) => v !== undefined), {
  path: ['OIDC_ISSUER_URL'],
  message: 'OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together: set all three or none',
}).refine((c) => !c.OIDC_SSO_ONLY || c.OIDC_ISSUER_URL !== undefined, {
  path: ['OIDC_SSO_ONLY'],
  message: 'needs an identity provider (OIDC_ISSUER_URL, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET)',
}).refine((c) => c.OIDC_ALLOW_HTTP_ISSUER || !c.OIDC_ISSUER_URL || c.OIDC_ISSUER_URL.startsWith('https://'), {
  path: ['OIDC_ISSUER_URL'],
  message: 'must be https:// (or set OIDC_ALLOW_HTTP_ISSUER=true)',
}).refine((c) => c.HTTP_IDLE_TIMEOUT_MS === 0 || c.HTTP_IDLE_TIMEOUT_MS > c.UPLOAD_DEADLINE_MS, {
  path: ['HTTP_IDLE_TIMEOUT_MS'],
  message: 'must be longer than UPLOAD_DEADLINE_MS (an upload waits silently for parsing), or 0 for none',
});

export type GatewayConfig = z.infer<typeof schema>;

export const loadGatewayConfig = (env?: Record<string, string | undefined>): GatewayConfig => loadConfig(schema, env);
