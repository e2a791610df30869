import { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import type { ServiceClients } from '../clients/service-clients';
import { actorOf, authenticate } from '../http/authenticate.middleware';
import { publicBaseUrl } from '../http/base-url';
import { parseId, readTextFields } from '../http/input';
import { parsePage, setPageHeaders } from '../http/pagination';
import { CachedAppPages, renderAppPage } from '../clients/cached-app-pages';
import { presentApp } from '../presenters/app.presenter';

export const DELETED = { mesage: 'OK' };

/**
 * `/api/apps/<name>` paths that belong to other routers (uploads and the
 * channel_key queries, which need no token): `/api/apps/:id` steps aside for
 * them whatever the order the routers are mounted in.
 */
const NOT_AN_APP_ID = new Set(['upload', 'versions', 'latest', 'version_exist']);

/**
 * The token is checked per route under `/api/apps` (not by path prefix) so
 * the channel_key routes beside these stay open; `/api/apps/:id` steps aside
 * (`next('route')`) for the other routers' paths.
 */
export function appsAuth(clients: ServiceClients): RequestHandler {
  const auth = authenticate(clients);
  return (req: Request, res: Response, next: NextFunction) => {
    const id = req.params.id;
    if (typeof id === 'string' && NOT_AN_APP_ID.has(id)) return next('route');
    return auth(req, res, next);
  };
}

/** Apps: the body is read here; the service checks existence, then permission, then the values. */
export function appsRoutes(clients: ServiceClients, options: { publicBaseUrl?: string; appPages?: CachedAppPages }): Router {
  const router = Router();
  const auth = appsAuth(clients);

  router.get('/api/apps', auth, async (req, res) => {
    const page = parsePage(req);
    const actor = actorOf(req);
    const rendered = options.appPages ? await options.appPages.page(actor, page) : await renderAppPage(clients.apps, actor, page);
    setPageHeaders(req, res, page, rendered.total, publicBaseUrl(req, options.publicBaseUrl));
    res.type('json').send(rendered.json);
  });

  router.post('/api/apps', auth, async (req, res) => {
    const { name } = readTextFields(req.body, ['name'] as const);
    const app = await clients.apps.createApp({ actor: actorOf(req), name: name ?? '' });
    res.status(201).json(presentApp(app, { collaborators: true }));
  });

  router.get('/api/apps/:id', auth, async (req, res) => {
    const app = await clients.apps.getApp({ actor: actorOf(req), id: parseId(req.params.id) });
    res.json(presentApp(app, { collaborators: true }));
  });

  router.put('/api/apps/:id', auth, async (req, res) => {
    const id = parseId(req.params.id);
    const { name } = readTextFields(req.body, ['name'] as const);
    const app = await clients.apps.updateApp({ actor: actorOf(req), id, name: name ?? '' });
    res.json(presentApp(app, { collaborators: true }));
  });

  router.delete('/api/apps/:id', auth, async (req, res) => {
    await clients.apps.deleteApp({ actor: actorOf(req), id: parseId(req.params.id) });
    res.json(DELETED);
  });

  return router;
}
