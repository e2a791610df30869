import { Type } from '@sinclair/typebox';
import { MANAGE, READ } from '../../auth/token-scopes';
import { renderAppPage } from '../../clients/cached-app-pages';
import { actorOf } from '../../http/authenticate.middleware';
import { publicBaseUrl } from '../../http/base-url';
import { parsePage, setPageHeaders } from '../../http/pagination';
import { DELETED as DELETED_RESPONSE, PAGE_HEADERS, READ_WITH_TOKEN, WRITE_WITH_TOKEN, arrayOf, errors, ok, param, ref } from '../../openapi/openapi-parts';
import { DELETED_ANSWER } from '../../operations/answers';
import { idParam, operation } from '../../operations/declare';
import { presentApp } from '../../presenters/app.presenter';

/**
 * `/api/apps/<name>` paths of other operations (uploads and the channel_key queries, which need
 * no token): `/api/apps/{id}` steps aside for them whatever the order the routes are mounted in.
 */
const NOT_AN_APP_ID = new Set(['upload', 'versions', 'latest', 'version_exist']);

const APP_FIELDS = { name: Type.String() };
const appId = { id: idParam('App id', NOT_AN_APP_ID) };

/** Apps: the service checks existence, then permission, then the values. */
export const appOperations = [
  operation({
    method: 'get',
    path: '/api/apps',
    operationId: 'listApps',
    tag: 'Apps',
    summary: 'Apps the caller can see, newest first',
    scopes: READ,
    params: {},
    responses: { '200': ok('Apps, without collaborators', arrayOf(ref('App')), PAGE_HEADERS), ...errors(401, 422, 503) },
    openApi: { parameters: [param('page'), param('per_page')] },
    async handle({ clients, appPages, publicBaseUrl: base, req, res }) {
      const page = parsePage(req);
      const actor = actorOf(req);
      const rendered = appPages ? await appPages.page(actor, page) : await renderAppPage(clients.apps, actor, page);
      setPageHeaders(req, res, page, rendered.total, publicBaseUrl(req, base));
      res.type('json').send(rendered.json);
    },
  }),
  operation({
    method: 'post',
    path: '/api/apps',
    operationId: 'createApp',
    tag: 'Apps',
    summary: 'Create an app (admin or developer)',
    scopes: MANAGE,
    params: {},
    body: { fields: APP_FIELDS, required: ['name'] },
    responses: { '201': ok('Created; the caller is its admin', ref('App')), ...errors(...WRITE_WITH_TOKEN) },
    async handle({ body, clients, req, res }) {
      const app = await clients.apps.createApp({ actor: actorOf(req), name: body.name ?? '' });
      res.status(201).json(presentApp(app, { collaborators: true }));
    },
  }),
  operation({
    method: 'get',
    path: '/api/apps/{id}',
    operationId: 'getApp',
    tag: 'Apps',
    summary: 'Get an app',
    scopes: READ,
    params: appId,
    responses: { '200': ok('The app', ref('App')), ...errors(...READ_WITH_TOKEN) },
    async handle({ params, clients, req, res }) {
      res.json(presentApp(await clients.apps.getApp({ actor: actorOf(req), id: params.id }), { collaborators: true }));
    },
  }),
  operation({
    method: 'put',
    path: '/api/apps/{id}',
    operationId: 'updateApp',
    tag: 'Apps',
    summary: 'Rename an app',
    scopes: MANAGE,
    params: appId,
    body: { fields: APP_FIELDS, required: ['name'] },
    responses: { '200': ok('Updated', ref('App')), ...errors(...WRITE_WITH_TOKEN) },
    async handle({ params, body, clients, req, res }) {
      const app = await clients.apps.updateApp({ actor: actorOf(req), id: params.id, name: body.name ?? '' });
      res.json(presentApp(app, { collaborators: true }));
    },
  }),
  operation({
    method: 'delete',
    path: '/api/apps/{id}',
    operationId: 'deleteApp',
    tag: 'Apps',
    summary: 'Delete an app with everything under it, files included',
    scopes: MANAGE,
    params: appId,
    responses: { '200': DELETED_RESPONSE, ...errors(...READ_WITH_TOKEN) },
    async handle({ params, clients, req, res }) {
      await clients.apps.deleteApp({ actor: actorOf(req), id: params.id });
      res.json(DELETED_ANSWER);
    },
  }),
];
