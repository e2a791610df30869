import { Request, Router } from 'express';
import type { releases } from '@hangar/proto';
import type { CachedUpdateChecks } from '../clients/cached-update-checks';
import type { ServiceClients } from '../clients/service-clients';
import { identifyIfToken } from '../http/authenticate.middleware';
import { publicBaseUrl } from '../http/base-url';
import { queryText, requiredQuery } from '../http/input';
import { sendRevalidated, sendRevalidatedBody } from '../http/revalidated';
import type { RecentlyRefused } from '../limits/refused-addresses';
import { presentUpdateCheck } from '../presenters/release.presenter';

export interface UpdateCheckRouteOptions {
  publicBaseUrl?: string;
  /** Update checks answered from memory while unchanged; absent: each asks the releases service. */
  updateChecks?: CachedUpdateChecks;
  /**
   * Addresses the channel-key limit refused lately: their checks skip the held answers and ask
   * through the limited client, which answers 429 while the limit holds (limits/refused-addresses.ts).
   */
  refused?: RecentlyRefused;
}

/**
 * In-app update checks: what every installed build polls, so it is
 * mounted ahead of the other routers — express tries each router's layers in
 * turn, and walking the ten before it cost a fifth of an update check's CPU.
 */
export function updateCheckRoutes(clients: ServiceClients, options: UpdateCheckRouteOptions): Router {
  const router = Router();
  router.get('/api/apps/update_check', identifyIfToken(clients), async (req: Request, res) => {
    const query = {
      channelKey: requiredQuery(req, 'channel_key'),
      bundleId: queryText(req, 'bundle_id') ?? '',
      releaseVersion: queryText(req, 'release_version') ?? '',
      buildVersion: queryText(req, 'build_version') ?? '',
      releaseHash: queryText(req, 'release_hash') ?? '',
    };
    const view = { baseUrl: publicBaseUrl(req, options.publicBaseUrl), timeZone: req.user?.timezone };
    const present = (answer: releases.UpdateCheck) => presentUpdateCheck(answer, view.baseUrl, view.timeZone);
    if (options.updateChecks && !options.refused?.has(req.ip ?? '')) sendRevalidatedBody(req, res, await options.updateChecks.answer(query, { ...view, present }));
    else sendRevalidated(req, res, present(await clients.releases.checkForUpdate(query)));
  });
  return router;
}
