import express, { Express } from 'express';
import type { DeviceEnrolment } from './features/devices/device-enrolment';
import type { Logger } from '@hangar/logger';
import type { Metrics } from '@hangar/metrics';
import type { ServiceClients } from './clients/service-clients';
import { apiNotFound, errorHandler } from './http/error-handler';
import { refuseNulInPath } from './http/nul-in-path.middleware';
import { httpMetrics } from './http/metrics.middleware';
import { requestContext } from './http/request-context.middleware';
import { rememberCaller } from './http/caller-context';
import type { AuditPublisher } from './audit/audit-publisher';
import { recordWrites } from './audit/record-writes.middleware';
import { openApiDocument } from './openapi/openapi';
import type { CachedAppPages } from './clients/cached-app-pages';
import { installAssets } from './http/install-assets';
import { InstallAccess, type InstallSettings } from './features/install/install-access';
import type { StoredFiles } from './features/releases/stored-files';
import type { SingleSignOn } from './oidc/single-sign-on';
import type { SignInLimiter } from './http/sign-in-limiter';
import { HealthProbe } from './features/system/health-probe';
import type { VersionInfo } from './features/system/system.operations';
import { symbolServerFallbacks } from './features/symbols/symbol-server-fallbacks';
import { tusProtocol, tusRefusals } from './features/uploads/tus-protocol';
import { consoleRoutes } from './http/console-static';
import { DECLARED_OPERATIONS, FIRST_MOUNTED } from './operations/catalogue';
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
  releases: StoredFiles;
  install: InstallSettings;
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
  audit?: { publisher: AuditPublisher };
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
  if (audit) app.use(recordWrites(audit.publisher));
  const system = { versionInfo, health: new HealthProbe(clients), openApiJson: JSON.stringify(openApiDocument(versionInfo.version)) };
  const operationDependencies = { clients, system, files: releases, install: new InstallAccess(clients, install), publicBaseUrl, signInLimiter, ssoOnly: singleSignOn?.ssoOnly === true, ...(singleSignOn ? { singleSignOn } : {}), ...(appPages ? { appPages } : {}), ...(devices ? { devices } : {}) };
  // The route every installed build polls: first, so no other router is walked for it.
  app.use(mountOperations(FIRST_MOUNTED, operationDependencies, { maxBodyBytes }));
  // tus's headers on every answer under /api/uploads, and its OPTIONS.
  if (releases.uploads) app.use(tusProtocol(releases.uploads));

  app.use(installAssets());
  // The operations declared once (operations/catalogue.ts), each with its own token check.
  app.use(mountOperations(DECLARED_OPERATIONS.filter((declared) => !FIRST_MOUNTED.includes(declared)), operationDependencies, { maxBodyBytes }));
  app.use(symbolServerFallbacks());
  app.use('/api/uploads', ...tusRefusals);

  app.use('/api', apiNotFound);
  // Last: every path nothing above answered is a page of the console.
  if (consoleDir) app.use(consoleRoutes(consoleDir));
  app.use(apiNotFound);
  app.use(errorHandler(logger));
  return app;
}
