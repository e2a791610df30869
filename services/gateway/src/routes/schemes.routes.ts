import { Router } from 'express';
import { FieldErrors, InvalidArgument } from '@hangar/errors';
import type { ServiceClients } from '../clients/service-clients';
import { actorOf } from '../http/authenticate.middleware';
import { parseId, readTextFields } from '../http/input';
import { presentScheme } from '../presenters/app.presenter';
import { DELETED, appsAuth } from './apps.routes';
import { noteAppOf } from '../audit/audit-note';

/**
 * `new_build_callout` and `retained_builds` as the client wrote them: form
 * text, or a JSON boolean / number turned into the same text. The apps
 * service validates them after its permission check.
 */
export function readSchemeFlags(body: Record<string, unknown> | undefined): { newBuildCalloutText?: string; retainedBuildsText?: string } {
  const entry: FieldErrors = {};
  const read = (field: string, jsonType: 'boolean' | 'number'): string | undefined => {
    const value = body?.[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return value;
    if (typeof value === jsonType) return String(value);
    entry[field] = [jsonType === 'boolean' ? 'must be true or false' : 'must be an integer >= 0'];
    return undefined;
  };
  const newBuildCalloutText = read('new_build_callout', 'boolean');
  const retainedBuildsText = read('retained_builds', 'number');
  if (Object.keys(entry).length > 0) throw new InvalidArgument(`Invalid fields: ${Object.keys(entry).join(', ')}`, entry);
  return { newBuildCalloutText, retainedBuildsText };
}

export function schemesRoutes(clients: ServiceClients): Router {
  const router = Router();
  const auth = appsAuth(clients);

  router.get('/api/apps/:app_id/schemes', auth, async (req, res) => {
    const result = await clients.apps.listSchemes({ actor: actorOf(req), appId: parseId(req.params.app_id, 'app_id') });
    res.json(result.schemes.map(presentScheme));
  });

  router.post('/api/apps/:app_id/schemes', auth, async (req, res) => {
    const appId = parseId(req.params.app_id, 'app_id');
    const { name } = readTextFields(req.body, ['name'] as const);
    const scheme = await clients.apps.createScheme({ actor: actorOf(req), appId, name: name ?? '', ...readSchemeFlags(req.body) });
    res.status(201).json(presentScheme(scheme));
  });

  // Behind the token check of AUTHENTICATED_PATHS (`/api/schemes`).
  router.get('/api/schemes/:id', async (req, res) => {
    res.json(presentScheme(await clients.apps.getScheme({ actor: actorOf(req), id: parseId(req.params.id) })));
  });

  // Fields left out keep their values.
  router.put('/api/schemes/:id', async (req, res) => {
    const id = parseId(req.params.id);
    const { name } = readTextFields(req.body, ['name'] as const);
    await noteAppOf(res, async () => (await clients.apps.getScheme({ actor: actorOf(req), id })).appId);
    const scheme = await clients.apps.updateScheme({ actor: actorOf(req), id, name, ...readSchemeFlags(req.body) });
    res.json(presentScheme(scheme));
  });

  router.delete('/api/schemes/:id', async (req, res) => {
    const id = parseId(req.params.id);
    await noteAppOf(res, async () => (await clients.apps.getScheme({ actor: actorOf(req), id })).appId);
    await clients.apps.deleteScheme({ actor: actorOf(req), id });
    res.json(DELETED);
  });

  return router;
}
