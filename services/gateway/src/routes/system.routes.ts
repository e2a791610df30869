import { Router } from 'express';
import { DEPENDENCIES, Dependency } from '@hangar/grpc';
import type { ServiceClients } from '../clients/service-clients';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../http/error-handler';

/** Probes ask often (every replica's readiness, load balancers, monitors): one answer serves them all for this long. */
export const HEALTH_CACHE_MS = 1_000;

type HealthBody = { healthy: boolean; services: Record<string, boolean>; checks: Record<Dependency, 'ok' | 'unavailable'> };

export interface VersionInfo {
  version: string;
  vcs_ref: string;
  build_date: string;
}

/** `/version`, `/api/version` and `/api/health`: no token needed. */
export function systemRoutes(clients: ServiceClients, versionInfo: VersionInfo): Router {
  const router = Router();
  const version = (_req: unknown, res: { json: (b: unknown) => void }) => res.json(versionInfo);
  router.get('/version', version);
  router.get('/api/version', version);
  let cached: { at: number; body: Promise<HealthBody> } | undefined;
  const health = async (): Promise<HealthBody> => {
    const { services, dependencies } = await clients.health();
    // A dependency is ok when every service that uses it reaches it; unavailable when one does not,
    // or when no service could be asked about it.
    const checks = Object.fromEntries(
      DEPENDENCIES.map((dependency) => {
        const seen = dependencies.map((reported) => reported[dependency]).filter((ok) => ok !== undefined);
        return [dependency, seen.length > 0 && seen.every(Boolean) ? 'ok' : 'unavailable'];
      }),
    ) as HealthBody['checks'];
    const healthy = Object.values(services).every(Boolean) && Object.values(checks).every((state) => state === 'ok');
    return { healthy, services, checks };
  };
  router.get('/api/health', async (_req, res) => {
    if (!cached || Date.now() - cached.at > HEALTH_CACHE_MS) cached = { at: Date.now(), body: health() };
    const body = await cached.body;
    if (!body.healthy) res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    res.status(body.healthy ? 200 : 503).json(body);
  });
  return router;
}
