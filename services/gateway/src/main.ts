import { telemetry } from './telemetry';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { handleShutdown } from '@hangar/grpc';
import { createLogger } from '@hangar/logger';
import { Metrics, serveMetrics, uploadBytesCounter, uploadJoinsCounter } from '@hangar/metrics';
import { openStorage } from '@hangar/storage';
import { createApp } from './app';
import { openGenerations } from '@hangar/cache';
import { CachedAppPages } from './clients/cached-app-pages';
import { CachedUpdateChecks } from './clients/cached-update-checks';
import { withUpdateCheckFastPath } from './features/update-checks/update-check.fast-path';
import { connectEventBus, ensureAuditStream } from '@hangar/events';
import { AuditPublisher } from './audit/audit-publisher';
import { AuditSpool } from './audit/audit-spool';
import { cachingAuthentication } from './clients/cached-authentication';
import { createServiceClients } from './clients/service-clients';
import { loadGatewayConfig } from './config';
import { ResumableUploads } from './uploads/resumable-uploads';
import { UploadRecords } from './uploads/upload-records';
import { DailySalt } from './downloads/daily-salt';
import { SignInLimiter } from './http/sign-in-limiter';
import { builtConsole } from './http/console-static';
import { downloadCounter } from './downloads/download-counter';
import { guardingScopes } from './auth/scope-guard';
import { limitingFailedTokens } from './limits/failed-token-limit';
import { limitingFailedChannelKeys } from './limits/failed-channel-key-limit';
import { RecentlyRefused } from './limits/refused-addresses';
import { limitingRetraces } from './limits/retrace-limit';
import { SharedAttempts } from './limits/shared-attempts';
import { compileTrustedProxies } from './http/trusted-proxies';
import { singleSignOnOf } from './oidc/single-sign-on';
import { profileSignerFrom } from './features/devices/device-enrolment';
import { SignedTokens } from './install/signed-tokens';

async function main(): Promise<void> {
  const config = loadGatewayConfig();
  const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL });
  const metrics = new Metrics();
  const metricsServer = await serveMetrics(metrics, { port: config.METRICS_PORT });
  if (metricsServer.port) logger.info({ port: metricsServer.port }, 'metrics at /metrics');
  const uploadBytes = uploadBytesCounter(metrics);
  const uploadJoins = uploadJoinsCounter(metrics);
  const clients = createServiceClients(
    {
      users: config.USERS_GRPC_TARGET,
      apps: config.APPS_GRPC_TARGET,
      releases: config.RELEASES_GRPC_TARGET,
      debugFiles: config.DEBUG_FILES_GRPC_TARGET,
      webhooks: config.WEBHOOKS_GRPC_TARGET,
    },
    config.GRPC_DEADLINE_MS,
    metrics,
  );
  const bus = await connectEventBus(config.NATS_URL, 'gateway', logger, { replicas: config.NATS_REPLICAS });
  const generations = await openGenerations(bus.nc, config.NATS_SUBJECT_PREFIX);
  if (config.AUTH_CACHE_SIZE > 0) {
    clients.users = cachingAuthentication(clients.users, generations, { capacity: config.AUTH_CACHE_SIZE, maxAgeMs: config.AUTH_CACHE_MAX_AGE_MS });
  }
  // Outside the token cache: scopes are judged per request, and only tokens
  // the users service refused are counted.
  const attempts = await SharedAttempts.open(bus.nc, config.NATS_SUBJECT_PREFIX, logger);
  clients.users = guardingScopes(clients.users);
  clients.users = limitingFailedTokens(clients.users, attempts, { name: 'token', maxFailures: config.TOKEN_MAX_FAILURES, windowMs: config.ATTEMPT_WINDOW_MS });
  const refusedChannelKeys = new RecentlyRefused();
  Object.assign(clients, limitingFailedChannelKeys(clients, attempts, { name: 'channel-key', maxFailures: config.CHANNEL_KEY_MAX_FAILURES, windowMs: config.ATTEMPT_WINDOW_MS }, refusedChannelKeys));
  Object.assign(clients, limitingRetraces(clients, attempts, { name: 'retrace', maxFailures: config.RETRACE_MAX_CALLS, windowMs: config.RETRACE_WINDOW_MS }));
  await ensureAuditStream(bus.jsm, config.NATS_SUBJECT_PREFIX);
  const auditPublisher = new AuditPublisher(bus.js, config.NATS_SUBJECT_PREFIX, logger, {
    nc: bus.nc,
    spool: config.AUDIT_SPOOL_DIR ? AuditSpool.open(config.AUDIT_SPOOL_DIR, logger) : undefined,
  });
  if (!config.INSTALL_SECRET) logger.warn('INSTALL_SECRET is not set: install-page unlocks end when this process restarts and do not carry across replicas');
  const installSecret = config.INSTALL_SECRET ?? randomBytes(32).toString('base64url');
  // A certificate that does not load stops the start, as any bad setting does: better than a profile iOS calls unverified.
  const profileSigner = await profileSignerFrom(config.UDID_PROFILE_CERT, config.UDID_PROFILE_KEY);
  const storage = await openStorage(config, metrics);
  // Records stay a day past expiry, so late requests are told 410 Gone rather than 404.
  const uploadRecords = await UploadRecords.open(bus.nc, config.NATS_SUBJECT_PREFIX, config.RESUMABLE_UPLOAD_EXPIRY_MS + 24 * 3600 * 1000);
  const uploads = new ResumableUploads(uploadRecords, storage, {
    expiryMs: config.RESUMABLE_UPLOAD_EXPIRY_MS,
    maxBytes: config.MAX_UPLOAD_BYTES,
    onBytes: (purpose, bytes) => uploadBytes.inc({ kind: purpose === 'package' ? 'package' : 'debug_file' }, bytes),
    onJoin: (how) => uploadJoins.inc({ how }),
  });
  const downloads = config.DOWNLOAD_COUNTING
    ? downloadCounter(bus.nc, await DailySalt.open(bus.nc, config.NATS_SUBJECT_PREFIX), { prefix: config.NATS_SUBJECT_PREFIX, logger, flushMs: config.DOWNLOAD_FLUSH_MS })
    : undefined;
  const signInLimiter = await SignInLimiter.open(bus.nc, config.NATS_SUBJECT_PREFIX, {
    perEmail: config.SIGN_IN_MAX_ATTEMPTS,
    perAddress: config.SIGN_IN_MAX_ATTEMPTS_PER_ADDRESS,
    windowMs: config.SIGN_IN_WINDOW_MS,
  });
  const singleSignOn = await singleSignOnOf(config, bus.nc);
  if (singleSignOn) logger.info({ issuer: config.OIDC_ISSUER_URL, ssoOnly: config.OIDC_SSO_ONLY }, 'single sign-on through OpenID Connect');
  if (!builtConsole(config.CONSOLE_DIR)) logger.warn({ dir: config.CONSOLE_DIR }, 'the console is not built here: / answers 404 (npm run build builds it)');
  const updateChecks =
    config.UPDATE_CHECK_CACHE_SIZE > 0
      ? new CachedUpdateChecks(clients.releases, generations, { capacity: config.UPDATE_CHECK_CACHE_SIZE, maxAgeMs: config.AUTH_CACHE_MAX_AGE_MS })
      : undefined;
  const appPages =
    config.APP_VIEW_CACHE_SIZE > 0 ? new CachedAppPages(clients.apps, generations, { capacity: config.APP_VIEW_CACHE_SIZE, maxAgeMs: config.AUTH_CACHE_MAX_AGE_MS }) : undefined;
  const app = createApp({
    clients,
    ...(appPages ? { appPages } : {}),
    logger,
    versionInfo: { version: config.HANGAR_VERSION, vcs_ref: config.HANGAR_VCS_REF, build_date: config.HANGAR_BUILD_DATE },
    maxBodyBytes: config.MAX_BODY_BYTES,
    publicBaseUrl: config.PUBLIC_BASE_URL,
    trustedProxies: config.TRUSTED_PROXIES,
    releases: {
      storage,
      maxUploadBytes: config.MAX_UPLOAD_BYTES,
      maxBytesBeforeToken: config.UPLOAD_MAX_BYTES_BEFORE_TOKEN,
      uploadDeadlineMs: config.UPLOAD_DEADLINE_MS,
      downloadRedirect: config.DOWNLOAD_REDIRECT,
      uploads,
      uploadUrlTtlMs: config.RESUMABLE_UPLOAD_EXPIRY_MS,
      onUploadBytes: (kind, bytes) => uploadBytes.inc({ kind }, bytes),
      ...(updateChecks ? { updateChecks } : {}),
      refused: refusedChannelKeys,
    },
    audit: { publisher: auditPublisher },
    install: {
      secret: installSecret,
      unlockTtlSeconds: config.UNLOCK_TTL_SECONDS,
      countDownload: downloads?.count,
      unlockAttempts: { counter: attempts, rule: { name: 'unlock', maxFailures: config.UNLOCK_MAX_FAILURES, windowMs: config.ATTEMPT_WINDOW_MS } },
    },
    devices: {
      tokens: new SignedTokens(installSecret),
      organisation: config.UDID_PROFILE_ORGANISATION,
      ...(profileSigner ? { profileSigner } : {}),
    },
    signInLimiter,
    singleSignOn,
    consoleDir: builtConsole(config.CONSOLE_DIR),
    metrics,
  });
  // Held update checks are answered before express (features/update-checks/update-check.fast-path.ts).
  const server = createServer(updateChecks ? withUpdateCheckFastPath(app, { updateChecks, logger, publicBaseUrl: config.PUBLIC_BASE_URL, trustProxy: compileTrustedProxies(config.TRUSTED_PROXIES), metrics, refused: refusedChannelKeys }) : app);
  // Idle keep-alive connections outlive the clients' own idle timeouts (and a
  // load balancer's 60 s), so a client never writes into a socket the server
  // is closing at that moment (EPIPE / "other side closed").
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = config.HTTP_REQUEST_TIMEOUT_MS;
  // Inactivity, not duration: a slow upload that keeps sending is never cut by this.
  server.setTimeout(config.HTTP_IDLE_TIMEOUT_MS, (socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(config.HANGAR_PORT, config.HTTP_HOST, resolve));
  logger.info({ host: config.HTTP_HOST, port: config.HANGAR_PORT }, 'gateway listening');

  handleShutdown(
    [
      {
        name: 'http',
        run: () =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeIdleConnections();
          }),
      },
      { name: 'metrics', run: () => metricsServer.stop() },
      { name: 'audit', run: () => auditPublisher.stop() },
      { name: 'downloads', run: async () => downloads?.close() },
      { name: 'nats', run: () => bus.nc.drain() },
      { name: 'telemetry', run: () => telemetry.shutdown() },
    ],
    { logger, timeoutMs: config.SHUTDOWN_TIMEOUT_MS },
  );
}

main().catch((err) => {
  process.stderr.write(`gateway failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
