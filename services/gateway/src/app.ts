import express, { Express } from 'express';
import type { DeviceEnrolment } from './features/devices/device-enrolment';
import type { Logger } from '@hangar/logger';
import type { Metrics } from '@hangar/metrics';
import type { ServiceClients } from './clients/service-clients';
import { parseBodies } from './http/body-parser.middleware';
import { apiNotFound, errorHandler } from './http/error-handler';
import { refuseNulInPath } from './http/nul-in-path.middleware';
import { httpMetrics } from './http/metrics.middleware';
import { requestContext } from './http/request-context.middleware';
import { rememberCaller } from './http/caller-context';
import type { AuditPublisher } from './audit/audit-publisher';
import { recordWrites } from './audit/record-writes.middleware';
import type { OperationIndex } from './auth/operation-of';
import { openApiRoutes } from './routes/openapi.routes';
import type { CachedAppPages } from './clients/cached-app-pages';
import { InstallRouteOptions, installRoutes } from './routes/install.routes';
import { ReleasesRouteOptions, releasesRoutes } from './routes/releases.routes';
import { debugFileUploadRoutes, debugFilesRoutes } from './routes/debug-files.routes';
import { SingleSignOn, oidcRoutes } from './oidc/oidc.routes';
import type { SignInLimiter } from './http/sign-in-limiter';
import { VersionInfo, systemRoutes } from './routes/system.routes';
import { symbolsRoutes } from './routes/symbols.routes';
import { teardownRoutes } from './routes/teardown.routes';
import { tusRoutes } from './uploads/tus.routes';
import { UpdateCheckRouteOptions, updateCheckRoutes } from './routes/update-check.routes';
import { consoleRoutes } from './http/console-static';
import { directUploadRoutes } from './uploads/direct.routes';
import { DECLARED_OPERATIONS } from './operations/catalogue';
import { mountOperations } from './operations/mount';


export interface AppOptions {
  clients: ServiceClients;
  logger: Logger;
  versionInfo: VersionInfo;
  maxBodyBytes: number;
  publicBaseUrl?: string;
  /** `TRUSTED_PROXIES`: the peers whose X-Forwarded-* are believed (none when empty). */
  trustedProxies?: string[];
  /** Uploads, downloads and their storage. */
  releases: Omit<ReleasesRouteOptions, 'publicBaseUrl'> & Pick<UpdateCheckRouteOptions, 'updateChecks' | 'refused'>;
  install: Pick<InstallRouteOptions, 'secret' | 'unlockTtlSeconds' | 'countDownload' | 'unlockAttempts'>;
  /** The console's built files, served at `/`; absent: only the API and install pages. */
  consoleDir?: string;
  /** Counts console sign-in attempts across replicas. */
  signInLimiter: SignInLimiter;
  /** OpenID Connect sign-in, when an identity provider is configured. */
  singleSignOn?: SingleSignOn;
  /** Request counts and latency per route (served by the metrics port, not here). */
  metrics?: Metrics;
  /** Pages of the apps list kept rendered (absent: each is asked of the apps service). */
  appPages?: CachedAppPages;
  /** Every write through the API to the audit log (absent: not recorded, as in tests without NATS). */
  audit?: { publisher: AuditPublisher; operations: OperationIndex };
  /** iOS device registration (`/udid`): the challenge's signer and the profile's, when configured. */
  devices?: DeviceEnrolment;
}

/** The HTTP edge: request context, bodies, token auth, routes, one error handler. */
export function createApp({ clients, logger, versionInfo, maxBodyBytes, publicBaseUrl, trustedProxies = [], releases, install, signInLimiter, singleSignOn, consoleDir, metrics, audit, appPages, devices }: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  // req.ip, req.protocol and req.host read X-Forwarded-* only from a trusted proxy (proxy-addr's
  // rules: the first address from the right that is not trusted is the client); nobody by default.
  app.set('trust proxy', trustedProxies.length > 0 ? trustedProxies : false);

  if (metrics) app.use(httpMetrics(metrics));
  app.use(requestContext(logger));
  app.use(rememberCaller);
  app.use(refuseNulInPath);
  if (audit) app.use(recordWrites(audit.publisher, audit.operations));
  // The route every installed build polls: first, so no other router is walked for it.
  app.use(updateCheckRoutes(clients, { publicBaseUrl, updateChecks: releases.updateChecks, refused: releases.refused }));
  app.use(systemRoutes(clients, versionInfo));
  app.use(openApiRoutes(versionInfo.version));
  // Streams the archives of uploads and replacements: before the body parsers.
  app.use(debugFileUploadRoutes(clients, { ...releases, publicBaseUrl }));
  // Resumable uploads read their own bodies (tus), so they come before the body parsers too.
  if (releases.uploads) app.use(tusRoutes(clients, releases.uploads, { publicBaseUrl }));
  app.use('/api', parseBodies({ maxBodyBytes, streamingPaths: new Set(['/apps/upload', '/debug_files/upload', '/teardown']) }));

  // Before the apps routes: its static paths (upload, versions, latest,
  // version_exist) must not be taken for an app id. It checks tokens per route.
  app.use(installRoutes(clients, { ...install, storage: releases.storage, downloadRedirect: releases.downloadRedirect, publicBaseUrl }));
  app.use(releasesRoutes(clients, { ...releases, publicBaseUrl }));
  if (releases.uploads) app.use(directUploadRoutes(clients, releases.uploads, { urlTtlSeconds: Math.ceil((releases.uploadUrlTtlMs ?? 24 * 3600 * 1000) / 1000) }));
  app.use(teardownRoutes(clients, { ...releases, publicBaseUrl }));
  app.use(debugFilesRoutes(clients, { ...releases, publicBaseUrl }));
  app.use(symbolsRoutes(clients, releases));
  app.use(oidcRoutes(clients, singleSignOn, { publicBaseUrl }));
  // The operations declared once (operations/catalogue.ts), each with its own token check.
  app.use(mountOperations(DECLARED_OPERATIONS, { clients, publicBaseUrl, signInLimiter, ssoOnly: singleSignOn?.ssoOnly === true, ...(appPages ? { appPages } : {}), ...(devices ? { devices } : {}) }));

  app.use('/api', apiNotFound);
  // Last: every path nothing above answered is a page of the console.
  if (consoleDir) app.use(consoleRoutes(consoleDir));
  app.use(apiNotFound);
  app.use(errorHandler(logger));
  return app;
}
