import type { Request, Response } from 'express';
import { InvalidArgument, NotFound, PermissionDenied } from '@hangar/errors';
import { UPLOAD } from '../../auth/token-scopes';
import { actorOf, currentUser } from '../../http/authenticate.middleware';
import { publicBaseUrl } from '../../http/base-url';
import { readTextFields } from '../../http/input';
import { sanitizeFileName } from '../../http/streamed-upload';
import { errors, str } from '../../openapi/openapi-parts';
import { type CallContext, operation, textParam } from '../../operations/declare';
import type { ResumableUploads } from '../../uploads/resumable-uploads';
import { TusRefusal, formatUploadMetadata, parseByteCount, parseUploadChecksum, parseUploadConcat, parseUploadMetadata } from '../../uploads/tus-headers';
import type { UploadPurpose, UploadRecord } from '../../uploads/upload-records';
import { TUS_RESUMABLE_HEADER, UPLOAD_ID, requireTusVersion, tusRequestHeaders } from './tus-protocol';

const TAG = 'Resumable uploads';
const PURPOSES: readonly UploadPurpose[] = ['package', 'debug_file'];
const OCTETS = 'application/offset+octet-stream';
const OCTET_BODY = (required: boolean) => ({ required, content: { [OCTETS]: { schema: { type: 'string' as const, format: 'binary' } } } });
const uploadId = { id: textParam('The upload, the last segment of its URL', UPLOAD_ID) };

const hasBody = (req: Request) => (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() === OCTETS;

function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** Where a partial's bytes start in the whole file: sent by a client whose partials name their parallel upload. */
const PARTIAL_START = 'Hangar-Partial-Start';

/**
 * A partial's `parallel_upload` (the client's name for the whole upload) and `parallel_size` (the
 * whole file's bytes): with them its bytes go straight into the whole file's S3 multipart upload.
 */
function parallelUpload(metadata: Record<string, string>, length: number): { name: string; size: number } | undefined {
  const name = metadata.parallel_upload;
  if (name === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,128}$/.test(name)) throw new TusRefusal(400, 'Upload-Metadata parallel_upload must be 1 to 128 visible ASCII characters');
  const size = parseByteCount('Upload-Metadata parallel_size', metadata.parallel_size ?? '');
  if (size === undefined || size < length) throw new TusRefusal(400, "Upload-Metadata parallel_size must be the whole file's size in bytes, at least Upload-Length");
  return { name, size };
}

function expiresHeader(res: Response, record: UploadRecord): void {
  if (record.offset < record.length) res.setHeader('Upload-Expires', new Date(record.expiresAt).toUTCString());
}

/** The resumable uploads of this gateway; a gateway built without them (some tests) has no such operations to answer. */
function uploadsOf({ files }: CallContext): ResumableUploads {
  if (!files.uploads) throw new NotFound('Resumable uploads are not enabled on this server');
  return files.uploads;
}

/**
 * The channel an upload goes into and the right to upload there; without one, the build's app is
 * found or made from the package (PRODUCT §3): only those who may create apps upload that way.
 * Debug files always name their channel.
 */
async function checkRightToUpload(call: CallContext, purpose: UploadPurpose, channelKey: string, viaTus: boolean): Promise<void> {
  if (channelKey) {
    const context = await call.clients.apps.resolveChannel({ channelKey, channelId: 0 });
    await call.clients.apps.checkPermission({ actor: actorOf(call.req), appId: context.app!.id, action: 'releases.upload' });
    return;
  }
  if (purpose === 'debug_file') throw InvalidArgument.field('channel_key', viaTus ? "can't be blank: send it in Upload-Metadata" : "can't be blank");
  if (currentUser(call.req).role === 'member') {
    throw new PermissionDenied(`Members cannot create apps: send channel_key${viaTus ? ' in Upload-Metadata' : ''} to upload into a channel`);
  }
}

/**
 * Resumable uploads over tus 1.0 at /api/uploads: any tus client (tus-js-client, TUSKit,
 * tus-java-client, the hangar CLI) can send a build in pieces and resume after a lost connection
 * (the protocol's checks and refusals: tus-protocol.ts). The token, and the channel (or the right to
 * create an app), are checked when the upload is created, before its first byte. A complete
 * upload becomes a build through the usual finishing calls, `POST /api/apps/upload` or
 * `/api/debug_files/upload` with `upload_id`. Direct uploads hand out presigned part URLs
 * instead, when clients can reach S3: the bytes never cross the gateway.
 */
export const resumableUploadOperations = [
  operation({
    method: 'post',
    path: '/api/direct_uploads',
    operationId: 'createDirectUpload',
    tag: TAG,
    summary: 'Begin an upload whose parts go straight to S3 (presigned part URLs)',
    scopes: UPLOAD,
    params: {},
    responses: {
      '201': {
        description: 'The upload and one presigned PUT URL per part',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['upload_id', 'part_size', 'expires_at', 'parts'],
              properties: {
                upload_id: { type: 'string' },
                part_size: { type: 'integer', minimum: 1 },
                expires_at: { type: 'string', format: 'date-time' },
                parts: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['part_number', 'offset', 'length', 'url'],
                    properties: { part_number: { type: 'integer', minimum: 1 }, offset: { type: 'integer', minimum: 0 }, length: { type: 'integer', minimum: 1 }, url: { type: 'string', format: 'uri' } },
                  },
                },
              },
            },
          },
        },
      },
      ...errors(401, 403, 404, 413, 422, 503),
    },
    openApi: {
      description:
        "Only when the server has `S3_PUBLIC_ENDPOINT` (else 404): the client PUTs bytes `offset`…`offset+length` of the file to each part's URL, in any order and in " +
        'parallel, then finishes with `POST /api/apps/upload` (or `/api/debug_files/upload`) and `upload_id`, which checks every part, joins them and hashes the file.',
      requestBody: {
        required: true,
        content: Object.fromEntries(
          ['application/json', 'application/x-www-form-urlencoded'].map((type) => [
            type,
            {
              schema: {
                type: 'object',
                required: ['length'],
                properties: { filename: str(), length: str('File size in bytes'), purpose: str('`package` (default) or `debug_file`'), channel_key: str('Required for debug files; else the right to create apps is needed') },
              },
            },
          ]),
        ),
      },
    },
    async handle(call) {
      const { files, req, res } = call;
      const uploads = uploadsOf(call);
      const fields = readTextFields(req.body, ['filename', 'length', 'purpose', 'channel_key'] as const);
      const purpose = (fields.purpose ?? 'package') as UploadPurpose;
      if (!PURPOSES.includes(purpose)) throw InvalidArgument.field('purpose', 'must be package or debug_file');
      const length = Number(fields.length);
      if (!fields.length || !/^\d{1,16}$/.test(fields.length) || !Number.isSafeInteger(length) || length < 1) {
        throw InvalidArgument.field('length', 'must be the file size in bytes, at least 1');
      }
      const channelKey = (fields.channel_key ?? '').trim();
      await checkRightToUpload(call, purpose, channelKey, false);
      try {
        const { record, partUrls } = await uploads.createDirect(
          { ownerId: currentUser(req).id, purpose, channelKey, fileName: sanitizeFileName(fields.filename), length },
          Math.ceil((files.uploadUrlTtlMs ?? 24 * 3600 * 1000) / 1000),
        );
        res.status(201).json({
          upload_id: record.id,
          part_size: record.direct!.partSize,
          expires_at: new Date(record.expiresAt).toISOString(),
          parts: partUrls.map((p) => ({ part_number: p.part, offset: p.offset, length: p.length, url: p.url })),
        });
      } catch (err) {
        // The refusals of the upload layer, in this operation's contract shape.
        if (err instanceof TusRefusal) {
          res.status(err.status === 400 ? 422 : err.status).json({ error: err.message, ...(err.status === 400 ? { entry: { length: [err.message] } } : {}) });
          return;
        }
        throw err;
      }
    },
  }),
  operation({
    method: 'post',
    path: '/api/uploads',
    operationId: 'createUpload',
    tag: TAG,
    summary: 'Begin a resumable upload (tus 1.0 creation)',
    scopes: UPLOAD,
    before: [requireTusVersion],
    params: {},
    responses: {
      '201': {
        description: "Created; `Location` is the upload's URL. With a body (creation-with-upload), `Upload-Offset` says how much of it was kept.",
        headers: {
          Location: { required: true, schema: { type: 'string', format: 'uri' } },
          'Upload-Offset': { schema: { type: 'integer', minimum: 0 } },
          'Upload-Expires': { schema: { type: 'string' } },
          'Tus-Resumable': TUS_RESUMABLE_HEADER,
        },
      },
      ...errors(400, 401, 403, 404, 409, 412, 413, 422, 460, 503, 507),
    },
    openApi: {
      description:
        'The tus 1.0 protocol (https://tus.io/protocols/resumable-upload) with the creation, creation-with-upload, checksum (sha256), termination, expiration and ' +
        'concatenation extensions; `OPTIONS /api/uploads` names them. The token, and the channel (`channel_key` in `Upload-Metadata`) or the right to create apps, are ' +
        'checked here, before any byte is taken. `Upload-Metadata` keys: `filename`, `purpose` (`package`, default, or `debug_file`), `channel_key` (required for ' +
        "debug files). `Upload-Concat: partial` makes a part of a parallel upload; `final;<url> <url>` joins the caller's complete parts. A partial whose metadata " +
        'names its parallel upload (`parallel_upload`, `parallel_size`) and whose first bytes say where they start (`Hangar-Partial-Start`) is written into the whole file as it arrives. A complete upload becomes a ' +
        'build through `POST /api/apps/upload` or `POST /api/debug_files/upload` with `upload_id`. Unfinished uploads expire after `RESUMABLE_UPLOAD_EXPIRY_MS` (24 h).',
      parameters: tusRequestHeaders(['Upload-Length', 'Upload-Metadata', 'Upload-Concat', 'Upload-Checksum', 'Hangar-Partial-Start']),
      requestBody: OCTET_BODY(false),
    },
    async handle(call) {
      const { req, res } = call;
      const uploads = uploadsOf(call);
      const uploadUrl = (id: string) => `${publicBaseUrl(req, call.publicBaseUrl)}/api/uploads/${id}`;
      const metadata = parseUploadMetadata(header(req, 'upload-metadata'));
      const purpose = (metadata.purpose ?? 'package') as UploadPurpose;
      if (!PURPOSES.includes(purpose)) throw new TusRefusal(400, `Upload-Metadata purpose must be one of ${PURPOSES.join(', ')}`);
      const channelKey = (metadata.channel_key ?? '').trim();
      const fileName = sanitizeFileName(metadata.filename ?? metadata.name);
      const concat = parseUploadConcat(header(req, 'upload-concat'));
      // A partial of a parallel upload may come without the final's metadata (tus-js-client's
      // default): its token is checked now, its channel when the final joins it.
      if (concat?.kind !== 'partial' || channelKey) await checkRightToUpload(call, purpose, channelKey, true);
      const owner = { ownerId: currentUser(req).id, purpose, channelKey, fileName };

      if (concat?.kind === 'final') {
        if (header(req, 'upload-length') !== undefined) throw new TusRefusal(400, 'A final concatenation has no Upload-Length of its own');
        const { record } = await uploads.concatenate(owner, concat.partIds);
        res.setHeader('Location', uploadUrl(record.id));
        res.setHeader('Upload-Offset', String(record.offset));
        res.status(201).end();
        return;
      }
      if (header(req, 'upload-defer-length') !== undefined) throw new TusRefusal(400, 'Upload-Defer-Length is not supported: send Upload-Length');
      const length = parseByteCount('Upload-Length', header(req, 'upload-length'));
      if (length === undefined) throw new TusRefusal(400, 'Send Upload-Length');
      // Before the body is read: a bad checksum header refuses the request before anything is made.
      const checksum = hasBody(req) ? parseUploadChecksum(header(req, 'upload-checksum')) : undefined;
      const joins = concat ? parallelUpload(metadata, length) : undefined;
      const partialStart = parseByteCount(PARTIAL_START, header(req, PARTIAL_START.toLowerCase()));
      let { record } = await uploads.create({ ...owner, length, ...(concat ? { concat: 'partial' as const } : {}), ...(joins ? { joins } : {}) });
      res.setHeader('Location', uploadUrl(record.id));
      if (hasBody(req)) record = await uploads.append(record.id, owner.ownerId, 0, req, checksum, partialStart);
      res.setHeader('Upload-Offset', String(record.offset));
      expiresHeader(res, record);
      res.status(201).end();
    },
  }),
  operation({
    method: 'head',
    path: '/api/uploads/{id}',
    operationId: 'getUploadOffset',
    tag: TAG,
    summary: 'How much of an upload the server has (tus HEAD)',
    scopes: UPLOAD,
    before: [requireTusVersion],
    params: uploadId,
    responses: {
      '200': {
        description: 'The offset to resume from',
        headers: {
          'Upload-Offset': { required: true, schema: { type: 'integer', minimum: 0 } },
          'Upload-Length': { required: true, schema: { type: 'integer', minimum: 0 } },
          'Upload-Metadata': { schema: { type: 'string' } },
          'Cache-Control': { schema: { type: 'string' } },
        },
      },
      ...errors(401, 404, 410, 412, 503),
    },
    openApi: { parameters: tusRequestHeaders([]) },
    async handle(call) {
      const { params, req, res } = call;
      const { record } = await uploadsOf(call).find(params.id, currentUser(req).id);
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Upload-Offset', String(record.offset));
      res.setHeader('Upload-Length', String(record.length));
      res.setHeader('Upload-Metadata', formatUploadMetadata({ filename: record.fileName, purpose: record.purpose, ...(record.channelKey ? { channel_key: record.channelKey } : {}) }));
      if (record.concat === 'partial') res.setHeader('Upload-Concat', 'partial');
      expiresHeader(res, record);
      res.status(200).end();
    },
  }),
  operation({
    method: 'patch',
    path: '/api/uploads/{id}',
    operationId: 'appendUpload',
    tag: TAG,
    summary: "Send bytes at the upload's offset (tus PATCH)",
    scopes: UPLOAD,
    before: [requireTusVersion],
    params: uploadId,
    responses: {
      '204': { description: 'Kept; `Upload-Offset` is the new offset', headers: { 'Upload-Offset': { required: true, schema: { type: 'integer', minimum: 0 } } } },
      ...errors(400, 401, 403, 404, 409, 410, 412, 413, 415, 423, 460, 503, 507),
    },
    openApi: {
      description: "Only the upload's creator may write to it; for anyone else it does not exist (404). A body cut short keeps what arrived (without `Upload-Checksum`).",
      parameters: tusRequestHeaders(['Upload-Offset', 'Upload-Checksum', 'Hangar-Partial-Start']),
      requestBody: OCTET_BODY(true),
    },
    async handle(call) {
      const { params, req, res } = call;
      const uploads = uploadsOf(call);
      if (!hasBody(req)) throw new TusRefusal(415, `Send the bytes as Content-Type: ${OCTETS}`);
      const offset = parseByteCount('Upload-Offset', header(req, 'upload-offset'));
      if (offset === undefined) throw new TusRefusal(400, 'Send Upload-Offset');
      const checksum = parseUploadChecksum(header(req, 'upload-checksum'));
      const partialStart = parseByteCount(PARTIAL_START, header(req, PARTIAL_START.toLowerCase()));
      const record = await uploads.append(params.id, currentUser(req).id, offset, req, checksum, partialStart);
      res.setHeader('Upload-Offset', String(record.offset));
      expiresHeader(res, record);
      res.status(204).end();
    },
  }),
  operation({
    method: 'delete',
    path: '/api/uploads/{id}',
    operationId: 'terminateUpload',
    tag: TAG,
    summary: 'Abandon an upload and remove its bytes (tus termination)',
    scopes: UPLOAD,
    before: [requireTusVersion],
    params: uploadId,
    responses: { '204': { description: 'Terminated' }, ...errors(401, 404, 410, 412, 503) },
    openApi: { parameters: tusRequestHeaders([]) },
    async handle(call) {
      await uploadsOf(call).terminate(call.params.id, currentUser(call.req).id);
      call.res.status(204).end();
    },
  }),
];
