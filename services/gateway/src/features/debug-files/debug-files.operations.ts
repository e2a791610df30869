import type { Request } from 'express';
import { InvalidArgument } from '@hangar/errors';
import { noteAppOf, noteForAudit } from '../../audit/audit-note';
import { MANAGE, READ } from '../../auth/token-scopes';
import { linksIfAvailable, releasesOfDebugFiles } from '../../clients/build-links';
import { actorOf } from '../../http/authenticate.middleware';
import { publicBaseUrl } from '../../http/base-url';
import { queryText, readTextFields, requiredQuery } from '../../http/input';
import { parsePage, setPageHeaders } from '../../http/pagination';
import { DELETED as DELETED_RESPONSE, PAGE_HEADERS, READ_WITH_TOKEN, arrayOf, errors, ok, param, query, ref } from '../../openapi/openapi-parts';
import { DELETED_ANSWER } from '../../operations/answers';
import { idParam, operation } from '../../operations/declare';
import { presentDebugFile } from '../../presenters/debug-file.presenter';

const zone = (req: Request) => req.user?.timezone;
const debugFileId = { id: idParam('Debug file id') };

/** A channel's debug files as records: listed, read, deleted (uploads stream: debug-file-uploads.operations.ts; downloads and retrace: debug-file-downloads.operations.ts). */
export const debugFileOperations = [
  operation({
    method: 'get',
    path: '/api/debug_files',
    operationId: 'listDebugFiles',
    tag: 'Debug files',
    summary: "A channel's debug files",
    scopes: READ,
    params: {},
    responses: { '200': ok('Debug files', arrayOf(ref('DebugFile')), PAGE_HEADERS), ...errors(...READ_WITH_TOKEN) },
    openApi: { parameters: [param('channel_key'), query('uuid', 'Only the file with a slice of this UUID'), param('page'), param('per_page')] },
    async handle({ clients, publicBaseUrl: base, req, res }) {
      const page = parsePage(req);
      const channelKey = requiredQuery(req, 'channel_key');
      const list = await clients.debugFiles.listDebugFiles({ actor: actorOf(req), channelKey, page, uuid: queryText(req, 'uuid') ?? '' });
      setPageHeaders(req, res, page, list.total, publicBaseUrl(req, base));
      const linked = await linksIfAvailable(releasesOfDebugFiles(clients, list.debugFiles));
      res.json(list.debugFiles.map((f) => presentDebugFile(f, linked && (linked.get(f.id) ?? []), publicBaseUrl(req, base), channelKey, zone(req))));
    },
  }),
  operation({
    method: 'get',
    path: '/api/debug_files/{id}',
    operationId: 'getDebugFile',
    tag: 'Debug files',
    summary: 'Get a debug file',
    scopes: READ,
    params: debugFileId,
    responses: { '200': ok('The debug file', ref('DebugFile')), ...errors(...READ_WITH_TOKEN) },
    openApi: { parameters: [param('channel_key')] },
    async handle({ params, clients, publicBaseUrl: base, req, res }) {
      const channelKey = requiredQuery(req, 'channel_key');
      const file = await clients.debugFiles.getDebugFile({ actor: actorOf(req), channelKey, id: params.id });
      noteForAudit(res, { appId: file.appId });
      const linked = await linksIfAvailable(releasesOfDebugFiles(clients, [file]));
      res.json(presentDebugFile(file, linked && (linked.get(file.id) ?? []), publicBaseUrl(req, base), channelKey, zone(req)));
    },
  }),
  operation({
    method: 'delete',
    path: '/api/debug_files/{id}',
    operationId: 'deleteDebugFile',
    tag: 'Debug files',
    summary: 'Delete a debug file',
    scopes: MANAGE,
    params: debugFileId,
    responses: { '200': DELETED_RESPONSE, ...errors(...READ_WITH_TOKEN) },
    openApi: { parameters: [query('channel_key', 'The channel key (also accepted as a body field)')] },
    async handle({ params, clients, req, res }) {
      const channelKey = queryText(req, 'channel_key') ?? readTextFields(req.body, ['channel_key'] as const).channel_key ?? '';
      if (!channelKey.trim()) throw InvalidArgument.field('channel_key', "can't be blank");
      await noteAppOf(res, async () => (await clients.apps.resolveChannel({ channelKey: channelKey.trim(), channelId: 0 })).app?.id);
      await clients.debugFiles.deleteDebugFile({ actor: actorOf(req), channelKey: channelKey.trim(), id: params.id });
      res.json(DELETED_ANSWER);
    },
  }),
];
