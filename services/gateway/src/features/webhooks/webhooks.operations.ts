import { Type } from '@sinclair/typebox';
import { InvalidArgument } from '@hangar/errors';
import { MANAGE, READ } from '../../auth/token-scopes';
import { noteAppOf } from '../../audit/audit-note';
import { actorOf, currentUser } from '../../http/authenticate.middleware';
import { publicBaseUrl } from '../../http/base-url';
import { parsePage, setPageHeaders } from '../../http/pagination';
import { DELETED as DELETED_RESPONSE, PAGE_HEADERS, READ_WITH_TOKEN, WEBHOOK_FORMATS, WRITE_WITH_TOKEN, arrayOf, errors, ok, param, ref, str } from '../../openapi/openapi-parts';
import { REFUSAL } from '../../operations/body-check';
import { CallContext, idParam, operation } from '../../operations/declare';
import { presentDelivery, presentWebhook } from '../../presenters/webhook.presenter';
import { DELETED_ANSWER } from '../../operations/answers';

/** In a request the service, not the schema, refuses another format: 422 in the error shape, naming `format`. */
const FORMAT = Type.String({ description: `One of ${WEBHOOK_FORMATS.join(', ')}; left out: generic on create, unchanged on update; anything else: 422 naming format.` });
const EVENTS_REFUSAL = { [REFUSAL]: 'must be a list of event names' };

const CREATE_FIELDS = {
  url: Type.String({ format: 'uri' }),
  secret: Type.String({ description: 'Generated when empty.' }),
  events: Type.Unsafe<string[] | string>({ type: ['array', 'string'], items: str(), description: 'A JSON array, comma-separated text, or repeated `events[]` fields; empty: every event.', ...EVENTS_REFUSAL }),
  format: FORMAT,
};
const UPDATE_FIELDS = {
  url: Type.String({ format: 'uri' }),
  secret: Type.String(),
  events: Type.Unsafe<string[] | string>({ type: ['array', 'string'], items: str(), ...EVENTS_REFUSAL }),
  format: FORMAT,
};

/**
 * The event names: a JSON array, a comma-separated text (forms), or repeated `events[]` form
 * fields (read from the raw body: the name is not a declared field); undefined when absent. The
 * webhooks service checks the names.
 */
function eventsOf(events: string[] | string | undefined, { req }: CallContext): string[] | undefined {
  const value = events ?? (req.body as Record<string, unknown> | undefined)?.['events[]'] ?? undefined;
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value.split(',').map((e) => e.trim()).filter(Boolean);
  if (Array.isArray(value) && value.every((e) => typeof e === 'string')) return value;
  throw InvalidArgument.field('events', EVENTS_REFUSAL[REFUSAL]);
}

const zone = ({ req }: CallContext) => currentUser(req).timezone;

/** A webhook's app, for the audit entry of a write to it (the path names only the webhook). */
const noteAppOfWebhook = (call: CallContext, id: number) =>
  noteAppOf(call.res, async () => (await call.clients.webhooks.getWebhook({ actor: actorOf(call.req), id })).appId);

const appId = { app_id: idParam('App id') };
const webhookId = { id: idParam('Webhook id') };

/** PRODUCT §1 webhooks, served by the webhooks service: app admins only (it asks the apps service). */
export const webhookOperations = [
  operation({
    method: 'get',
    path: '/api/apps/{app_id}/webhooks',
    operationId: 'listWebhooks',
    tag: 'Webhooks',
    summary: "An app's webhooks (app admins)",
    scopes: READ,
    params: appId,
    responses: { '200': ok('Webhooks', arrayOf(ref('Webhook'))), ...errors(...READ_WITH_TOKEN) },
    async handle(call) {
      const result = await call.clients.webhooks.listWebhooks({ actor: actorOf(call.req), appId: call.params.app_id });
      call.res.json(result.webhooks.map((w) => presentWebhook(w, zone(call))));
    },
  }),
  operation({
    method: 'post',
    path: '/api/apps/{app_id}/webhooks',
    operationId: 'createWebhook',
    tag: 'Webhooks',
    summary: 'Create a webhook (app admins)',
    scopes: MANAGE,
    params: appId,
    body: { fields: CREATE_FIELDS, required: ['url'] },
    responses: { '201': ok('Created, with its secret this once', ref('CreatedWebhook')), ...errors(...WRITE_WITH_TOKEN) },
    async handle(call) {
      const { url, secret, format, events } = call.body;
      const created = await call.clients.webhooks.createWebhook({
        actor: actorOf(call.req),
        appId: call.params.app_id,
        url: url ?? '',
        secret: secret ?? '',
        events: eventsOf(events, call) ?? [],
        format: format ?? '',
      });
      // The only answer that carries the secret.
      call.res.status(201).json({ ...presentWebhook(created.webhook!, zone(call)), secret: created.secret });
    },
  }),
  operation({
    method: 'get',
    path: '/api/webhooks/{id}',
    operationId: 'getWebhook',
    tag: 'Webhooks',
    summary: 'Get a webhook',
    scopes: READ,
    params: webhookId,
    responses: { '200': ok('The webhook', ref('Webhook')), ...errors(...READ_WITH_TOKEN) },
    async handle(call) {
      call.res.json(presentWebhook(await call.clients.webhooks.getWebhook({ actor: actorOf(call.req), id: call.params.id }), zone(call)));
    },
  }),
  operation({
    method: 'put',
    path: '/api/webhooks/{id}',
    operationId: 'updateWebhook',
    tag: 'Webhooks',
    summary: 'Update a webhook (fields left out keep their values)',
    scopes: MANAGE,
    params: webhookId,
    body: { fields: UPDATE_FIELDS },
    responses: { '200': ok('Updated', ref('Webhook')), ...errors(...WRITE_WITH_TOKEN) },
    async handle(call) {
      const { id } = call.params;
      await noteAppOfWebhook(call, id);
      const { url, secret, format } = call.body;
      const events = eventsOf(call.body.events, call);
      const webhook = await call.clients.webhooks.updateWebhook({
        actor: actorOf(call.req),
        id,
        ...(url !== undefined ? { url } : {}),
        ...(secret !== undefined ? { secret } : {}),
        ...(format !== undefined ? { format } : {}),
        events: events ?? [],
        updateEvents: events !== undefined,
      });
      call.res.json(presentWebhook(webhook, zone(call)));
    },
  }),
  operation({
    method: 'delete',
    path: '/api/webhooks/{id}',
    operationId: 'deleteWebhook',
    tag: 'Webhooks',
    summary: 'Delete a webhook',
    scopes: MANAGE,
    params: webhookId,
    responses: { '200': DELETED_RESPONSE, ...errors(...READ_WITH_TOKEN) },
    async handle(call) {
      await noteAppOfWebhook(call, call.params.id);
      await call.clients.webhooks.deleteWebhook({ actor: actorOf(call.req), id: call.params.id });
      call.res.json(DELETED_ANSWER);
    },
  }),
  operation({
    method: 'get',
    path: '/api/webhooks/{id}/deliveries',
    operationId: 'listDeliveries',
    tag: 'Webhooks',
    summary: "A webhook's delivery log",
    scopes: READ,
    params: webhookId,
    responses: { '200': ok('Delivery attempts', arrayOf(ref('Delivery')), PAGE_HEADERS), ...errors(...READ_WITH_TOKEN) },
    openApi: { parameters: [param('page'), param('per_page')] },
    async handle(call) {
      const page = parsePage(call.req);
      const result = await call.clients.webhooks.listDeliveries({ actor: actorOf(call.req), webhookId: call.params.id, page });
      setPageHeaders(call.req, call.res, page, result.total, publicBaseUrl(call.req, call.publicBaseUrl));
      call.res.json(result.deliveries.map((d) => presentDelivery(d, zone(call))));
    },
  }),
  operation({
    method: 'post',
    path: '/api/webhooks/{id}/test',
    operationId: 'testWebhook',
    tag: 'Webhooks',
    summary: 'Send a test delivery now',
    scopes: MANAGE,
    params: webhookId,
    responses: { '200': ok('The attempt', ref('Delivery')), ...errors(...WRITE_WITH_TOKEN) },
    async handle(call) {
      await noteAppOfWebhook(call, call.params.id);
      const delivery = await call.clients.webhooks.testWebhook({ actor: actorOf(call.req), id: call.params.id });
      call.res.json(presentDelivery(delivery, zone(call)));
    },
  }),
];
