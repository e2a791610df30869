import { Router } from 'express';
import type { ServiceClients } from '../clients/service-clients';
import { actorOf } from '../http/authenticate.middleware';
import { parseId, readTextFields } from '../http/input';
import { presentChannel } from '../presenters/app.presenter';
import { DELETED } from './apps.routes';
import { noteAppOf } from '../audit/audit-note';

const CHANNEL_FIELDS = ['name', 'device_type', 'slug', 'bundle_id', 'git_url', 'password'] as const;

function channelInput(body: Record<string, unknown> | undefined) {
  const f = readTextFields(body, CHANNEL_FIELDS);
  return { name: f.name, deviceType: f.device_type, slug: f.slug, bundleId: f.bundle_id, gitUrl: f.git_url, password: f.password };
}

/** A channel's app, for its audit entries (the path names only the channel). */
export async function appOfChannel(clients: ServiceClients, channelId: number): Promise<number | undefined> {
  return (await clients.apps.resolveChannel({ channelKey: '', channelId })).app?.id;
}

/** Channels; behind the token check of AUTHENTICATED_PATHS (`/api/schemes`, `/api/channels`). */
export function channelsRoutes(clients: ServiceClients): Router {
  const router = Router();

  router.get('/api/schemes/:scheme_id/channels', async (req, res) => {
    const result = await clients.apps.listChannels({ actor: actorOf(req), schemeId: parseId(req.params.scheme_id, 'scheme_id') });
    res.json(result.channels.map(presentChannel));
  });

  router.post('/api/schemes/:scheme_id/channels', async (req, res) => {
    const schemeId = parseId(req.params.scheme_id, 'scheme_id');
    const input = channelInput(req.body);
    await noteAppOf(res, async () => (await clients.apps.getScheme({ actor: actorOf(req), id: schemeId })).appId);
    const channel = await clients.apps.createChannel({ actor: actorOf(req), schemeId, ...input, name: input.name ?? '', deviceType: input.deviceType ?? '' });
    res.status(201).json(presentChannel(channel));
  });

  router.get('/api/channels/:id', async (req, res) => {
    res.json(presentChannel(await clients.apps.getChannel({ actor: actorOf(req), id: parseId(req.params.id) })));
  });

  // Fields left out keep their values; an empty password or git_url clears it.
  router.put('/api/channels/:id', async (req, res) => {
    const id = parseId(req.params.id);
    const { min_supported_version } = readTextFields(req.body, ['min_supported_version'] as const);
    await noteAppOf(res, () => appOfChannel(clients, id));
    const channel = await clients.apps.updateChannel({ actor: actorOf(req), id, ...channelInput(req.body), minSupportedVersion: min_supported_version });
    res.json(presentChannel(channel));
  });

  router.delete('/api/channels/:id', async (req, res) => {
    const id = parseId(req.params.id);
    await noteAppOf(res, () => appOfChannel(clients, id));
    await clients.apps.deleteChannel({ actor: actorOf(req), id });
    res.json(DELETED);
  });

  return router;
}
