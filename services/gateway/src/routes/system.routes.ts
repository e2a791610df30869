import { Router } from 'express';
import type { ServiceClients } from '../clients/service-clients';

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
  router.get('/api/health', async (_req, res) => {
    const services = await clients.health();
    const healthy = Object.values(services).every(Boolean);
    res.status(healthy ? 200 : 503).json({ healthy, services });
  });
  return router;
}
