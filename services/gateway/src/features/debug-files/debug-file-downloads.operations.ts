import type { Request } from 'express';
import { InvalidArgument } from '@hangar/errors';
import { READ } from '../../auth/token-scopes';
import { queryText, readTextFields } from '../../http/input';
import { OPTIONAL_TOKEN, READ_WITH_KEY, downloadResponses, errors, formBody, ok, param, query, ref, str } from '../../openapi/openapi-parts';
import { idParam, operation } from '../../operations/declare';
import { sendStoredFile } from '../releases/stored-files';

/** A query value that must be there, trimmed. */
function trimmedQuery(req: Request, name: string): string {
  const value = queryText(req, name);
  if (!value?.trim()) throw InvalidArgument.field(name, "can't be blank");
  return value.trim();
}

/** Downloads and retrace of debug files (PRODUCT §5): the channel key is the credential, as crash tools hold it; a token, when sent, is checked. */
export const debugFileDownloadOperations = [
  operation({
    method: 'get',
    path: '/api/debug_files/download',
    operationId: 'downloadDebugFile',
    tag: 'Debug files',
    summary: 'Download a debug file by version',
    scopes: READ,
    caller: 'optional',
    params: {},
    responses: { ...downloadResponses('the archive', 'application/zip'), ...errors(...READ_WITH_KEY) },
    openApi: {
      security: OPTIONAL_TOKEN,
      description: '`build_version` picks that build; otherwise `order=version` the highest build of the release version, `order=upload_date` the newest upload.',
      parameters: [
        param('channel_key'),
        query('release_version', 'Release version (ignored for iOS)'),
        query('build_version', 'Build version'),
        query('order', 'When build_version is omitted', false, { type: 'string', enum: ['version', 'upload_date'] }),
      ],
    },
    async handle({ clients, files, req, res }) {
      const download = await clients.debugFiles.findDownload({
        channelKey: trimmedQuery(req, 'channel_key'),
        releaseVersion: queryText(req, 'release_version') ?? '',
        buildVersion: queryText(req, 'build_version') ?? '',
        order: queryText(req, 'order') ?? '',
        id: 0,
        expiresInSeconds: 300,
      });
      await sendStoredFile(res, { ...download, contentType: 'application/zip' }, files);
    },
  }),
  operation({
    method: 'get',
    path: '/api/debug_files/{id}/download',
    operationId: 'downloadDebugFileById',
    tag: 'Debug files',
    summary: 'Download this debug file (its `file_url`)',
    scopes: READ,
    caller: 'optional',
    params: { id: idParam('Debug file id') },
    responses: { ...downloadResponses('the archive', 'application/zip'), ...errors(...READ_WITH_KEY) },
    openApi: { security: OPTIONAL_TOKEN, parameters: [param('channel_key')] },
    // A file_url: this exact file, still only with its channel's key.
    async handle({ clients, files, params, req, res }) {
      const download = await clients.debugFiles.findDownload({ channelKey: trimmedQuery(req, 'channel_key'), releaseVersion: '', buildVersion: '', order: '', id: params.id, expiresInSeconds: 300 });
      await sendStoredFile(res, { ...download, contentType: 'application/zip' }, files);
    },
  }),
  operation({
    method: 'post',
    path: '/api/debug_files/retrace',
    operationId: 'retraceStackTrace',
    tag: 'Debug files',
    summary: 'Deobfuscate an Android stack trace',
    scopes: READ,
    caller: 'optional',
    params: {},
    responses: { '200': ok('The trace as ProGuard ReTrace 6.2.2 prints it', ref('Retraced')), ...errors(400, 401, 404, 413, 422, 503) },
    openApi: {
      security: OPTIONAL_TOKEN,
      description:
        "With the ProGuard/R8 mapping of that build in the channel (its newest upload). The body is bounded by the gateway's MAX_BODY_BYTES (413 above it); no mapping for the build: 404.",
      requestBody: formBody(
        {
          channel_key: str('The credential: the channel whose mapping is used.'),
          release_version: str(),
          build_version: str(),
          stack_trace: str('The obfuscated trace, as the crash reporter sent it.'),
        },
        ['channel_key', 'release_version', 'build_version', 'stack_trace'],
      ),
    },
    // Android retrace: the body is bounded by MAX_BODY_BYTES before it reaches here: a larger one is 413, unread.
    async handle({ clients, req, res }) {
      const fields = readTextFields(req.body, ['channel_key', 'release_version', 'build_version', 'stack_trace'] as const);
      const result = await clients.debugFiles.retrace({ channelKey: fields.channel_key ?? '', releaseVersion: fields.release_version ?? '', buildVersion: fields.build_version ?? '', stackTrace: fields.stack_trace ?? '' });
      res.json({ stack_trace: result.stackTrace, debug_file_id: result.debugFileId });
    },
  }),
];
