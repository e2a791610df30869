import { Request, Router } from 'express';
import { InvalidArgument } from '@hangar/errors';
import type { ServiceClients } from '../clients/service-clients';
import { actorOf, authenticate, currentUser } from '../http/authenticate.middleware';
import { publicBaseUrl } from '../http/base-url';
import { parseId, readTextFields } from '../http/input';
import { parsePage, setPageHeaders } from '../http/pagination';
import { presentDelivery, presentWebhook } from '../presenters/webhook.presenter';
import { DELETED, appsAuth } from './apps.routes';
import { noteAppOf } from '../audit/audit-note';

/**
 * `events` as a JSON array of strings, a comma-separated text (forms), or
 * repeated `events[]` form fields; undefined when absent. The webhooks
 * service checks the names.
 */
export function readEvents(body: Record<string, unknown> | undefined): string[] | undefined {
  const value = body?.events ?? body?.['events[]'];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value.split(',').map((e) => e.trim()).filter(Boolean);
  if (Array.isArray(value) && value.every((e) => typeof e === 'string')) return value as string[];
  throw InvalidArgument.field('events', 'must be a list of event names');
}

/** PRODUCT §1 webhooks, served by the webhooks service: app admins only (it asks the apps service). */
export function webhooksRoutes(clients: ServiceClients, options: { publicBaseUrl?: string }): Router {
  const router = Router();
  const appAuth = appsAuth(clients);
  const auth = authenticate(clients);
  const zone = (req: Request) => currentUser(req).timezone;

  router.get('/api/apps/:app_id/webhooks', appAuth, async (req, res) => {
    const result = await clients.webhooks.listWebhooks({ actor: actorOf(req), appId: parseId(req.params.app_id, 'app_id') });
    res.json(result.webhooks.map((w) => presentWebhook(w, zone(req))));
  });

  router.post('/api/apps/:app_id/webhooks', appAuth, async (req, res) => {
    const appId = parseId(req.params.app_id, 'app_id');
    const { url, secret, format } = readTextFields(req.body, ['url', 'secret', 'format'] as const);
    const events = readEvents(req.body) ?? [];
    const created = await clients.webhooks.createWebhook({ actor: actorOf(req), appId, url: url ?? '', secret: secret ?? '', events, format: format ?? '' });
    // The only answer that carries the secret.
    res.status(201).json({ ...presentWebhook(created.webhook!, zone(req)), secret: created.secret });
  });

  router.get('/api/webhooks/:id', auth, async (req, res) => {
    const webhook = await clients.webhooks.getWebhook({ actor: actorOf(req), id: parseId(req.params.id) });
    res.json(presentWebhook(webhook, zone(req)));
  });

  router.put('/api/webhooks/:id', auth, async (req, res) => {
    const id = parseId(req.params.id);
    await noteAppOf(res, async () => (await clients.webhooks.getWebhook({ actor: actorOf(req), id })).appId);
    const { url, secret, format } = readTextFields(req.body, ['url', 'secret', 'format'] as const);
    const events = readEvents(req.body);
    const webhook = await clients.webhooks.updateWebhook({
      actor: actorOf(req),
      id,
      ...(url !== undefined ? { url } : {}),
      ...(secret !== undefined ? { secret } : {}),
      ...(format !== undefined ? { format } : {}),
      events: events ?? [],
      updateEvents: events !== undefined,
    });
    res.json(presentWebhook(webhook, zone(req)));
  });

  router.delete('/api/webhooks/:id', auth, async (req, res) => {
    const id = parseId(req.params.id);
    await noteAppOf(res, async () => (await clients.webhooks.getWebhook({ actor: actorOf(req), id })).appId);
    await clients.webhooks.deleteWebhook({ actor: actorOf(req), id });
    res.json(DELETED);
  });

  router.get('/api/webhooks/:id/deliveries', auth, async (req, res) => {
    const webhookId = parseId(req.params.id);
    const page = parsePage(req);
    const result = await clients.webhooks.listDeliveries({ actor: actorOf(req), webhookId, page });
    setPageHeaders(req, res, page, result.total, publicBaseUrl(req, options.publicBaseUrl));
    res.json(result.deliveries.map((d) => presentDelivery(d, zone(req))));
  });

  router.post('/api/webhooks/:id/test', auth, async (req, res) => {
    const id = parseId(req.params.id);
    await noteAppOf(res, async () => (await clients.webhooks.getWebhook({ actor: actorOf(req), id })).appId);
    const delivery = await clients.webhooks.testWebhook({ actor: actorOf(req), id });
    res.json(presentDelivery(delivery, zone(req)));
  });

  return router;
}
