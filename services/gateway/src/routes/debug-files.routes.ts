import { NextFunction, Request, Response, Router } from 'express';
import { InvalidArgument, isRefusal } from '@hangar/errors';
import type { debugFiles } from '@hangar/proto';
import { linksIfAvailable, releasesOfDebugFiles } from '../clients/build-links';
import type { ServiceClients } from '../clients/service-clients';
import { actorOf, authenticate, currentUser, authenticateTokenOrSession, identifyIfToken, readToken } from '../http/authenticate.middleware';
import { publicBaseUrl } from '../http/base-url';
import { parseId, queryText, readTextFields } from '../http/input';
import { StreamedUpload, beforeTokenLimit, lingerAfterEarlyResponse, receiveUpload } from '../http/streamed-upload';
import { readSessionCookie } from '../http/session-cookie';
import { presentDebugFile } from '../presenters/debug-file.presenter';
import type { ReleasesRouteOptions } from './releases.routes';
import { finishUpload } from '../uploads/finish-upload';
import { noteForAudit } from '../audit/audit-note';

/** Same storage, limits and download mode as builds. */
export type DebugFilesRouteOptions = ReleasesRouteOptions;

const UPLOAD_FIELDS = ['channel_key', 'release_version', 'build_version'] as const;

const isMultipart = (req: Request) => /^multipart\/form-data/i.test(req.headers['content-type'] ?? '');

/** Only multipart bodies stream; anything else goes on to the body parsers and `debugFilesRoutes`. */
const multipartOnly = (req: Request, _res: Response, next: NextFunction) => (isMultipart(req) ? next() : next('route'));

/**
 * Upload and replace, which stream the archive from the socket into storage.
 * Mounted before the body parsers: `PUT /api/debug_files/:id` has no fixed
 * path the parsers could be told to skip.
 */
export function debugFileUploadRoutes(clients: ServiceClients, options: DebugFilesRouteOptions): Router {
  const router = Router();
  const base = (req: Request) => publicBaseUrl(req, options.publicBaseUrl);
  const lateToken = beforeTokenLimit(options.maxBytesBeforeToken);

  // The token, the channel and the right to write to it are checked before a
  // byte is stored, from the header or query or from form fields sent before
  // the file part (Zealot clients send `token` and `channel_key` first). A key
  // sent only after the file is checked by the service, and the file removed;
  // a token sent only after it (curl -F file=@… -F token=…) is checked once the
  // form is read, the file held meanwhile up to UPLOAD_MAX_BYTES_BEFORE_TOKEN.
  // The fields are read as every field is (text, no NUL): a key that cannot be looked up is a 422 here.
  async function checkBeforeStoring(req: Request, raw: Record<string, unknown>): Promise<void> {
    const fields = readTextFields(raw, ['token', 'channel_key'] as const);
    await authenticateTokenOrSession(clients, req, readToken(req) ?? fields.token, 'Missing access token: send Authorization: Bearer <token>, ?token=, or a token field before the file');
    const channelKey = channelKeyOf(req, fields);
    if (channelKey) {
      const context = await clients.apps.resolveChannel({ channelKey, channelId: 0 });
      await clients.apps.checkPermission({ actor: actorOf(req), appId: context.app!.id, action: 'debug_files.manage' });
    }
  }

  async function receive(req: Request, res: Response): Promise<StreamedUpload & { file: NonNullable<StreamedUpload['file']> }> {
    const upload = await receiveOrFinish(req, res);
    if (!upload.file) throw InvalidArgument.field('file', "can't be blank");
    return { ...upload, file: upload.file };
  }

  /** A multipart body with the archive, or with `upload_id` naming a finished resumable upload instead. */
  async function receiveOrFinish(req: Request, res: Response): Promise<StreamedUpload> {
    lingerAfterEarlyResponse(req, res);
    const upload = await receiveUpload(req, {
      storage: options.storage,
      maxBytes: options.maxUploadBytes,
      keyPrefix: 'debug-files',
      onBytes: (bytes) => options.onUploadBytes?.('debug_file', bytes),
      beforeFile: async (fields) => {
        if (!readToken(req) && fields.token === undefined && !readSessionCookie(req)) return lateToken;
        await checkBeforeStoring(req, fields);
      },
    });
    if (upload.file?.beforeToken) {
      try {
        await checkBeforeStoring(req, upload.fields);
      } catch (err) {
        await options.storage.delete(upload.file.objectKey).catch(() => undefined);
        throw err;
      }
    }
    if (!upload.file) {
      await checkBeforeStoring(req, upload.fields);
      if (upload.fields.upload_id === undefined) throw InvalidArgument.field('file', "can't be blank");
    }
    return upload;
  }

  /**
   * Runs the checks and the service call; whatever they refuse, the stored archive is removed.
   * A call without a known outcome (deadline, service gone mid-call) may still have recorded
   * it: the archive is left to the debug-files orphan janitor, which removes it unless a
   * debug file refers to it.
   */
  async function storeOrRemove<T>(objectKey: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (isRefusal(err)) await options.storage.delete(objectKey).catch(() => undefined);
      throw err;
    }
  }

  router.post('/api/debug_files/upload', multipartOnly, async (req, res) => {
    const upload = await receiveOrFinish(req, res);
    if (!upload.file) return finishResumableDebugFile(clients, options, req, res, upload.fields);
    const { objectKey, size, fileName, sha256 } = upload.file;
    const { file, channelKey } = await storeOrRemove(objectKey, async () => {
      const fields = readUploadFields(req, upload.fields);
      const created = await clients.debugFiles.createDebugFile(
        // sha256: the service refuses content the app holds before it fetches or inflates anything.
        { actor: actorOf(req), channelKey: fields.channelKey, objectKey, size, fileName, releaseVersion: fields.releaseVersion, buildVersion: fields.buildVersion, sha256 },
        { deadline: options.uploadDeadlineMs },
      );
      return { file: created, channelKey: fields.channelKey };
    });
    noteForAudit(res, { appId: file.appId });
    // The seed answers 200 for this upload (builds answer 201).
    const linked = await linksIfAvailable(releasesOfDebugFiles(clients, [file]));
    res.status(200).json(presentDebugFile(file, linked?.get(file.id), base(req), channelKey, currentUser(req).timezone));
  });

  router.put('/api/debug_files/:id', multipartOnly, async (req, res) => {
    const id = parseId(req.params.id);
    const upload = await receive(req, res);
    const { objectKey, size, fileName } = upload.file;
    const { file, channelKey } = await storeOrRemove(objectKey, async () => {
      const fields = readUploadFields(req, upload.fields);
      const updated = await clients.debugFiles.updateDebugFile(
        { actor: actorOf(req), channelKey: fields.channelKey, id, objectKey, size, fileName, releaseVersion: fields.releaseVersion, buildVersion: fields.buildVersion },
        { deadline: options.uploadDeadlineMs },
      );
      return { file: updated, channelKey: fields.channelKey };
    });
    noteForAudit(res, { appId: file.appId });
    const linked = await linksIfAvailable(releasesOfDebugFiles(clients, [file]));
    res.json(presentDebugFile(file, linked?.get(file.id), base(req), channelKey, currentUser(req).timezone));
  });

  return router;
}

/** Downloads and retrace of debug files (PRODUCT §5); uploads without a multipart body end here too. Listing, reading and deleting one are declared operations (features/debug-files/). */
export function debugFilesRoutes(clients: ServiceClients, options: DebugFilesRouteOptions): Router {
  const router = Router();
  const base = (req: Request) => publicBaseUrl(req, options.publicBaseUrl);

  // An upload needs the archive as a multipart file part; say so after the
  // token is known to be good, so a bad token is still a 401, and after the
  // right to write to the channel, when there is a key to check it against:
  // the right comes before the values (docs/auth-matrix.md).
  const noFile = async (req: Request, res: Response) => {
    if (req.method === 'PUT') parseId(req.params.id);
    currentUser(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (req.method === 'POST' && body.upload_id !== undefined) return finishResumableDebugFile(clients, options, req, res, body);
    const channelKey = (queryText(req, 'channel_key') ?? readTextFields(req.body, ['channel_key'] as const).channel_key ?? '').trim();
    if (channelKey) {
      const context = await clients.apps.resolveChannel({ channelKey, channelId: 0 });
      await clients.apps.checkPermission({ actor: actorOf(req), appId: context.app!.id, action: 'debug_files.manage' });
    }
    throw InvalidArgument.field('file', "can't be blank: send the zip as multipart/form-data");
  };
  router.post('/api/debug_files/upload', authenticate(clients), noFile);
  router.put('/api/debug_files/:id', authenticate(clients), noFile);

  // Before /:id. No token needed: the channel key is the credential (seed).
  router.get('/api/debug_files/download', identifyIfToken(clients), async (req, res) => {
    const download = await clients.debugFiles.findDownload({
      channelKey: requiredQuery(req, 'channel_key'),
      releaseVersion: queryText(req, 'release_version') ?? '',
      buildVersion: queryText(req, 'build_version') ?? '',
      order: queryText(req, 'order') ?? '',
      id: 0,
      expiresInSeconds: 300,
    });
    await sendFile(res, download);
  });

  // A file_url: this exact file, still only with its channel's key.
  router.get('/api/debug_files/:id/download', identifyIfToken(clients), async (req, res) => {
    const id = parseId(req.params.id);
    const download = await clients.debugFiles.findDownload({
      channelKey: requiredQuery(req, 'channel_key'),
      releaseVersion: '',
      buildVersion: '',
      order: '',
      id,
      expiresInSeconds: 300,
    });
    await sendFile(res, download);
  });

  // Android retrace: the channel key is the credential, as for downloads (a crash tool holds it).
  // The body is bounded by MAX_BODY_BYTES before it reaches here: a larger one is 413, unread.
  router.post('/api/debug_files/retrace', identifyIfToken(clients), async (req, res) => {
    const fields = readTextFields(req.body, ['channel_key', 'release_version', 'build_version', 'stack_trace'] as const);
    const result = await clients.debugFiles.retrace({
      channelKey: fields.channel_key ?? '',
      releaseVersion: fields.release_version ?? '',
      buildVersion: fields.build_version ?? '',
      stackTrace: fields.stack_trace ?? '',
    });
    res.json({ stack_trace: result.stackTrace, debug_file_id: result.debugFileId });
  });

  async function sendFile(res: Response, download: debugFiles.DebugFileDownload): Promise<void> {
    if (options.downloadRedirect) {
      res.redirect(302, download.url);
      return;
    }
    // Storage not reachable by clients: stream it through the gateway.
    const stream = await options.storage.getStream(download.objectKey);
    res.setHeader('Content-Type', 'application/zip');
    if (download.size) res.setHeader('Content-Length', String(download.size));
    if (download.fileName) res.attachment(download.fileName);
    stream.pipe(res);
  }

  return router;
}

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

function requiredQuery(req: Request, name: string): string {
  const value = queryText(req, name);
  if (!value?.trim()) throw InvalidArgument.field(name, "can't be blank");
  return value.trim();
}

/** `upload_id` in place of the archive: a complete resumable upload becomes one debug file. */
async function finishResumableDebugFile(clients: ServiceClients, options: DebugFilesRouteOptions, req: Request, res: Response, body: Record<string, unknown>): Promise<void> {
  const text = readTextFields(body, ['upload_id', 'sha256'] as const);
  const fields = readUploadFields(req, body as Record<string, string>);
  if (!options.uploads) throw InvalidArgument.field('upload_id', 'resumable uploads are not enabled on this server');
  const { result } = await finishUpload(
    { ownerId: currentUser(req).id, purpose: 'debug_file', uploadId: (text.upload_id ?? '').trim(), ...(text.sha256 ? { sha256: text.sha256.trim() } : {}), waitMs: options.uploadDeadlineMs },
    options.uploads,
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
          { deadline: options.uploadDeadlineMs },
        );
        return { id: file.id, result: file };
      },
      existing: (id) => clients.debugFiles.getDebugFile({ actor: actorOf(req), channelKey: fields.channelKey, id }),
    },
  );
  noteForAudit(res, { appId: result.appId });
  const linked = await linksIfAvailable(releasesOfDebugFiles(clients, [result]));
  res.status(200).json(presentDebugFile(result, linked?.get(result.id), publicBaseUrl(req, options.publicBaseUrl), fields.channelKey, currentUser(req).timezone));
}
