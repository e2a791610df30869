import { Type } from '@sinclair/typebox';
import { MANAGE, READ } from '../../auth/token-scopes';
import { noteAppOf } from '../../audit/audit-note';
import type { ServiceClients } from '../../clients/service-clients';
import { actorOf } from '../../http/authenticate.middleware';
import { DELETED as DELETED_RESPONSE, READ_WITH_TOKEN, WRITE_WITH_TOKEN, arrayOf, errors, ok, ref } from '../../openapi/openapi-parts';
import { idParam, operation } from '../../operations/declare';
import { presentChannel } from '../../presenters/app.presenter';
import { DELETED_ANSWER } from '../../operations/answers';

/** A channel's fields, all text; the apps service judges the values (a device type in any case, a slug's form). */
const CHANNEL_FIELDS = {
  name: Type.String(),
  device_type: Type.String({ enum: ['ios', 'android', 'macos', 'windows', 'linux'] }),
  slug: Type.String({ description: 'Random when omitted.' }),
  bundle_id: Type.String(),
  git_url: Type.String({ description: 'Empty clears it.' }),
  password: Type.String({ description: 'Sets the visit password; empty clears it.' }),
  min_supported_version: Type.String({ description: 'Installs with an older release version must update; empty clears it.' }),
};

type ChannelBody = { name?: string; device_type?: string; slug?: string; bundle_id?: string; git_url?: string; password?: string };

function channelInput(body: ChannelBody) {
  return { name: body.name, deviceType: body.device_type, slug: body.slug, bundleId: body.bundle_id, gitUrl: body.git_url, password: body.password };
}

/** A channel's app, for its audit entries (the path names only the channel). */
export async function appOfChannel(clients: ServiceClients, channelId: number): Promise<number | undefined> {
  return (await clients.apps.resolveChannel({ channelKey: '', channelId })).app?.id;
}

const schemeId = { scheme_id: idParam('Scheme id') };
const channelId = { id: idParam('Channel id') };

export const channelOperations = [
  operation({
    method: 'get',
    path: '/api/schemes/{scheme_id}/channels',
    operationId: 'listChannels',
    tag: 'Channels',
    summary: "A scheme's channels",
    scopes: READ,
    params: schemeId,
    responses: { '200': ok('Channels', arrayOf(ref('Channel'))), ...errors(...READ_WITH_TOKEN) },
    async handle({ params, clients, req, res }) {
      const result = await clients.apps.listChannels({ actor: actorOf(req), schemeId: params.scheme_id });
      res.json(result.channels.map(presentChannel));
    },
  }),
  operation({
    method: 'post',
    path: '/api/schemes/{scheme_id}/channels',
    operationId: 'createChannel',
    tag: 'Channels',
    summary: 'Create a channel',
    scopes: MANAGE,
    params: schemeId,
    body: { fields: CHANNEL_FIELDS, required: ['name', 'device_type'] },
    responses: { '201': ok('Created', ref('Channel')), ...errors(...WRITE_WITH_TOKEN) },
    async handle({ params, body, clients, req, res }) {
      const input = channelInput(body);
      await noteAppOf(res, async () => (await clients.apps.getScheme({ actor: actorOf(req), id: params.scheme_id })).appId);
      const channel = await clients.apps.createChannel({ actor: actorOf(req), schemeId: params.scheme_id, ...input, name: input.name ?? '', deviceType: input.deviceType ?? '' });
      res.status(201).json(presentChannel(channel));
    },
  }),
  operation({
    method: 'get',
    path: '/api/channels/{id}',
    operationId: 'getChannel',
    tag: 'Channels',
    summary: 'Get a channel',
    scopes: READ,
    params: channelId,
    responses: { '200': ok('The channel', ref('Channel')), ...errors(...READ_WITH_TOKEN) },
    async handle({ params, clients, req, res }) {
      res.json(presentChannel(await clients.apps.getChannel({ actor: actorOf(req), id: params.id })));
    },
  }),
  operation({
    method: 'put',
    path: '/api/channels/{id}',
    operationId: 'updateChannel',
    tag: 'Channels',
    summary: 'Update a channel (fields left out keep their values)',
    scopes: MANAGE,
    params: channelId,
    body: { fields: CHANNEL_FIELDS },
    responses: { '200': ok('Updated', ref('Channel')), ...errors(...WRITE_WITH_TOKEN) },
    // An empty password or git_url clears it.
    async handle({ params, body, clients, req, res }) {
      await noteAppOf(res, () => appOfChannel(clients, params.id));
      const channel = await clients.apps.updateChannel({ actor: actorOf(req), id: params.id, ...channelInput(body), minSupportedVersion: body.min_supported_version });
      res.json(presentChannel(channel));
    },
  }),
  operation({
    method: 'delete',
    path: '/api/channels/{id}',
    operationId: 'deleteChannel',
    tag: 'Channels',
    summary: 'Delete a channel with its releases',
    scopes: MANAGE,
    params: channelId,
    responses: { '200': DELETED_RESPONSE, ...errors(...READ_WITH_TOKEN) },
    async handle({ params, clients, req, res }) {
      await noteAppOf(res, () => appOfChannel(clients, params.id));
      await clients.apps.deleteChannel({ actor: actorOf(req), id: params.id });
      res.json(DELETED_ANSWER);
    },
  }),
];
