import type { Request } from 'express';
import { InvalidArgument, isRefusal } from '@hangar/errors';
import { noteForAudit } from '../../audit/audit-note';
import { MANAGE, UPLOAD } from '../../auth/token-scopes';
import { linksIfAvailable, releasesOfDebugFiles } from '../../clients/build-links';
import { actorOf, authenticateTokenOrSession, currentUser, readToken } from '../../http/authenticate.middleware';
import { publicBaseUrl } from '../../http/base-url';
import { queryText, readTextFields } from '../../http/input';
import { type StreamedUpload, lingerAfterEarlyResponse } from '../../http/streamed-upload';
import { receiveCheckedUpload } from '../uploads/checked-upload';
import { UPLOAD_WITH_TOKEN, errors, ok, ref, str, uploadBody } from '../../openapi/openapi-parts';
import { type CallContext, idParam, operation } from '../../operations/declare';
import { presentDebugFile } from '../../presenters/debug-file.presenter';
import { finishUpload } from '../../uploads/finish-upload';

const UPLOAD_FIELDS = ['channel_key', 'release_version', 'build_version'] as const;

const isMultipart = (req: Request) => /^multipart\/form-data/i.test(req.headers['content-type'] ?? '');

/** The key from the form, or the query (curl scripts put it there). */
function channelKeyOf(req: Request, fields: Record<string, string | undefined>): string {
  return (fields.channel_key ?? queryText(req, 'channel_key') ?? '').trim();
}

/** The upload's text fields; the channel key is required (seed). */
function readUploadFields(req: Request, raw: Record<string, string>) {
  const fields = readTextFields(raw, UPLOAD_FIELDS);
  const channelKey = channelKeyOf(req, fields);
  if (!channelKey) throw InvalidArgument.field('channel_key', "can't be blank");
  return { channelKey, releaseVersion: fields.release_version?.trim() ?? '', buildVersion: fields.build_version?.trim() ?? '' };
}

/** The right to write the channel's debug files (where a key names one): before anything is stored or refused for its values. */
async function checkChannelRight(call: CallContext, channelKey: string): Promise<void> {
  if (!channelKey) return;
  const context = await call.clients.apps.resolveChannel({ channelKey, channelId: 0 });
  await call.clients.apps.checkPermission({ actor: actorOf(call.req), appId: context.app!.id, action: 'debug_files.manage' });
}

/**
 * The token, the channel and the right to write to it are checked before a byte is stored, from
 * the header or query or from form fields sent before the file part (Zealot clients send `token`
 * and `channel_key` first). A key sent only after the file is checked by the service, and the
 * file removed; a token sent only after it (curl -F file=@… -F token=…) is checked once the form
 * is read, the file held meanwhile up to UPLOAD_MAX_BYTES_BEFORE_TOKEN. The fields are read as
 * every field is (text, no NUL): a key that cannot be looked up is a 422 here.
 */
async function checkBeforeStoring(call: CallContext, raw: Record<string, unknown>): Promise<void> {
  const fields = readTextFields(raw, ['token', 'channel_key'] as const);
  await authenticateTokenOrSession(call.clients, call.req, readToken(call.req) ?? fields.token, 'Missing access token: send Authorization: Bearer <token>, ?token=, or a token field before the file');
  await checkChannelRight(call, channelKeyOf(call.req, fields));
}

/** A multipart body with the archive, or with `upload_id` naming a finished resumable upload instead. */
async function receiveOrFinish(call: CallContext): Promise<StreamedUpload> {
  lingerAfterEarlyResponse(call.req, call.res);
  const upload = await receiveCheckedUpload(call, { keyPrefix: 'debug-files', kind: 'debug_file', check: (fields) => checkBeforeStoring(call, fields) });
  if (!upload.file) {
    await checkBeforeStoring(call, upload.fields);
    if (upload.fields.upload_id === undefined) throw InvalidArgument.field('file', "can't be blank");
  }
  return upload;
}

/**
 * An upload without a multipart body (JSON or urlencoded, parsed): `upload_id` finishing a
 * resumable upload, else a refusal that says the archive must be a file part — after the token is
 * known to be good, so a bad token is still a 401, and after the right to write to the channel,
 * when there is a key to check it against: the right comes before the values (docs/auth-matrix.md).
 */
async function withoutFilePart(call: CallContext, finishing: boolean): Promise<void> {
  const { clients, req } = call;
  await authenticateTokenOrSession(clients, req, readToken(req), 'Missing access token: send Authorization: Bearer <token> or ?token=');
  const body = (req.body ?? {}) as Record<string, unknown>;
  if (finishing && body.upload_id !== undefined) return finishResumable(call, body);
  await checkChannelRight(call, (queryText(req, 'channel_key') ?? readTextFields(req.body, ['channel_key'] as const).channel_key ?? '').trim());
  throw InvalidArgument.field('file', "can't be blank: send the zip as multipart/form-data");
}

/**
 * Runs the checks and the service call; whatever they refuse, the stored archive is removed.
 * A call without a known outcome (deadline, service gone mid-call) may still have recorded
 * it: the archive is left to the debug-files orphan janitor, which removes it unless a
 * debug file refers to it.
 */
async function storeOrRemove<T>(call: CallContext, objectKey: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isRefusal(err)) await call.files.storage.delete(objectKey).catch(() => undefined);
    throw err;
  }
}

/** The debug file as uploads answer it, with the builds it belongs to when the releases service answers. */
async function answer(call: CallContext, file: Parameters<typeof presentDebugFile>[0], channelKey: string, status: number): Promise<void> {
  const { clients, req, res } = call;
  noteForAudit(res, { appId: file.appId });
  const linked = await linksIfAvailable(releasesOfDebugFiles(clients, [file]));
  res.status(status).json(presentDebugFile(file, linked?.get(file.id), publicBaseUrl(req, call.publicBaseUrl), channelKey, currentUser(req).timezone));
}

/** `upload_id` in place of the archive: a complete resumable upload becomes one debug file. */
async function finishResumable(call: CallContext, body: Record<string, unknown>): Promise<void> {
  const { clients, files, req } = call;
  const text = readTextFields(body, ['upload_id', 'sha256'] as const);
  const fields = readUploadFields(req, body as Record<string, string>);
  if (!files.uploads) throw InvalidArgument.field('upload_id', 'resumable uploads are not enabled on this server');
  const { result } = await finishUpload(
    { ownerId: currentUser(req).id, purpose: 'debug_file', uploadId: (text.upload_id ?? '').trim(), ...(text.sha256 ? { sha256: text.sha256.trim() } : {}), waitMs: files.uploadDeadlineMs },
    files.uploads,
    {
      make: async (record) => {
        const file = await clients.debugFiles.createDebugFile(
          {
            actor: actorOf(req),
            channelKey: fields.channelKey,
            objectKey: record.objectKey,
            size: record.length,
            fileName: record.fileName,
            releaseVersion: fields.releaseVersion,
            buildVersion: fields.buildVersion,
            sha256: record.sha256 ?? '',
          },
          { deadline: files.uploadDeadlineMs },
        );
        return { id: file.id, result: file };
      },
      existing: (id) => clients.debugFiles.getDebugFile({ actor: actorOf(req), channelKey: fields.channelKey, id }),
    },
  );
  // The seed answers 200 for this upload (builds answer 201).
  await answer(call, result, fields.channelKey, 200);
}

/**
 * Upload and replace, which stream the archive from the socket into storage (`streams`: the body
 * parsers leave a multipart body to them); a body of another type is read by the parsers first.
 */
export const debugFileUploadOperations = [
  operation({
    method: 'post',
    path: '/api/debug_files/upload',
    operationId: 'uploadDebugFile',
    tag: 'Debug files',
    summary: 'Upload a dSYM zip or an Android mapping zip',
    scopes: UPLOAD,
    caller: 'handler',
    streams: true,
    params: {},
    responses: { '200': ok('The debug file (the seed answers 200 here)', ref('DebugFile')), ...errors(...UPLOAD_WITH_TOKEN) },
    openApi: {
      requestBody: uploadBody(
        { channel_key: str(), release_version: str('Required for Android; iOS takes it from the dSYM.'), build_version: str('Required for Android; iOS takes it from the dSYM.') },
        ['channel_key'],
        'multipart/form-data; `token` and `channel_key` before the file are checked before anything is stored. A `token` after the file is taken too: the file is then held only up to UPLOAD_MAX_BYTES_BEFORE_TOKEN (413 past it) and removed unless the token is good (401).',
      ),
    },
    async handle(call) {
      const { clients, files, req } = call;
      if (!isMultipart(req)) return withoutFilePart(call, true);
      const upload = await receiveOrFinish(call);
      if (!upload.file) return finishResumable(call, upload.fields);
      const { objectKey, size, fileName, sha256 } = upload.file;
      const { file, channelKey } = await storeOrRemove(call, objectKey, async () => {
        const fields = readUploadFields(req, upload.fields);
        const created = await clients.debugFiles.createDebugFile(
          // sha256: the service refuses content the app holds before it fetches or inflates anything.
          { actor: actorOf(req), channelKey: fields.channelKey, objectKey, size, fileName, releaseVersion: fields.releaseVersion, buildVersion: fields.buildVersion, sha256 },
          { deadline: files.uploadDeadlineMs },
        );
        return { file: created, channelKey: fields.channelKey };
      });
      // The seed answers 200 for this upload (builds answer 201).
      await answer(call, file, channelKey, 200);
    },
  }),
  operation({
    method: 'put',
    path: '/api/debug_files/{id}',
    operationId: 'replaceDebugFile',
    tag: 'Debug files',
    summary: 'Replace the archive of a debug file',
    scopes: MANAGE,
    caller: 'handler',
    streams: true,
    params: { id: idParam('Debug file id') },
    responses: { '200': ok('Updated', ref('DebugFile')), ...errors(...UPLOAD_WITH_TOKEN) },
    openApi: { requestBody: uploadBody({ channel_key: str(), release_version: str(), build_version: str() }, ['channel_key'], 'multipart/form-data, as the upload.') },
    async handle(call) {
      const { clients, files, params, req } = call;
      if (!isMultipart(req)) return withoutFilePart(call, false);
      const upload = await receiveOrFinish(call);
      if (!upload.file) throw InvalidArgument.field('file', "can't be blank");
      const { objectKey, size, fileName } = upload.file;
      const { file, channelKey } = await storeOrRemove(call, objectKey, async () => {
        const fields = readUploadFields(req, upload.fields);
        const updated = await clients.debugFiles.updateDebugFile(
          { actor: actorOf(req), channelKey: fields.channelKey, id: params.id, objectKey, size, fileName, releaseVersion: fields.releaseVersion, buildVersion: fields.buildVersion },
          { deadline: files.uploadDeadlineMs },
        );
        return { file: updated, channelKey: fields.channelKey };
      });
      await answer(call, file, channelKey, 200);
    },
  }),
];
