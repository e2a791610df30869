import { Request, Router } from 'express';
import { PermissionDenied } from '@hangar/errors';
import { readAuditQuery } from '../audit/audit-query';
import type { ServiceClients } from '../clients/service-clients';
import { publicBaseUrl } from '../http/base-url';
import { actorOf, authenticate, currentUser } from '../http/authenticate.middleware';
import { queryText } from '../http/input';
import { parsePage, setPageHeaders } from '../http/pagination';
import { presentAuditEntry } from '../presenters/audit.presenter';

/**
 * The audit log, read only: no route writes or removes an entry.
 * Global admins read it all; an app's admins read that app's entries
 * (`app_id` required), checked by the apps service first.
 */
export function auditRoutes(clients: ServiceClients, options: { publicBaseUrl?: string }): Router {
  const router = Router();

  router.get('/api/audit', authenticate(clients), async (req: Request, res) => {
    const actor = actorOf(req);
    const text = (name: string) => queryText(req, name);
    const appIdText = text('app_id');
    // The right before the values (PRODUCT §2): a non-admin without an app is refused whatever else is asked.
    const wholeLog = actor.role === 'admin' && !actor.appLimit;
    if (!wholeLog && !appIdText) throw new PermissionDenied('Only admins read the whole audit log; app admins ask for their app with app_id');
    const query = readAuditQuery({ day: text('day'), from: text('from'), to: text('to'), user_id: text('user_id'), app_id: appIdText, operation: text('operation') });
    if (!wholeLog) await clients.apps.checkPermission({ actor, appId: query.appId!, action: 'audit.read' });
    const page = parsePage(req);
    const result = await clients.users.listAuditEntries({ actor, ...query, page });
    setPageHeaders(req, res, page, result.total, publicBaseUrl(req, options.publicBaseUrl));
    res.json(result.entries.map((e) => presentAuditEntry(e, currentUser(req).timezone)));
  });

  return router;
}
