import { NextFunction, Request, Response, Router } from 'express';
import { InvalidArgument, PermissionDenied, isDomainError } from '@hangar/errors';
import type { ServiceClients } from '../clients/service-clients';
import { actorOf, authenticate, currentUser } from '../http/authenticate.middleware';
import { publicBaseUrl } from '../http/base-url';
import { sendError } from '../http/error-handler';
import { sanitizeFileName } from '../http/streamed-upload';
import type { ResumableUploads } from './resumable-uploads';
import {
  CHECKSUM_ALGORITHMS,
  TUS_EXTENSIONS,
  TUS_VERSION,
  TusRefusal,
  formatUploadMetadata,
  parseByteCount,
  parseUploadChecksum,
  parseUploadConcat,
  parseUploadMetadata,
  setTusHeaders,
} from './tus-headers';
import type { UploadPurpose, UploadRecord } from './upload-records';

const PURPOSES: readonly UploadPurpose[] = ['package', 'debug_file'];
const OCTETS = 'application/offset+octet-stream';

const hasBody = (req: Request) => (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() === OCTETS;

/**
 * Resumable uploads over tus 1.0 at /api/uploads: any tus client (tus-js-client, TUSKit,
 * tus-java-client, the hangar CLI) can send a build in pieces and resume after a lost
 * connection. The token, and the channel (or the right to create an app), are checked when
 * the upload is created, before its first byte. A complete upload becomes a build through the
 * usual finishing calls, `POST /api/apps/upload` or `/api/debug_files/upload` with `upload_id`.
 */
export function tusRoutes(clients: ServiceClients, uploads: ResumableUploads, options: { publicBaseUrl?: string }): Router {
  const router = Router();
  const uploadUrl = (req: Request, id: string) => `${publicBaseUrl(req, options.publicBaseUrl)}/api/uploads/${id}`;

  router.use('/api/uploads', (req, res, next) => {
    setTusHeaders(res);
    if (req.method === 'OPTIONS') {
      res.setHeader('Tus-Version', TUS_VERSION);
      res.setHeader('Tus-Extension', TUS_EXTENSIONS.join(','));
      res.setHeader('Tus-Max-Size', String(uploads.maxBytes));
      res.setHeader('Tus-Checksum-Algorithm', CHECKSUM_ALGORITHMS.join(','));
      res.status(204).end();
      return;
    }
    if (req.headers['tus-resumable'] !== TUS_VERSION) {
      res.setHeader('Tus-Version', TUS_VERSION);
      throw new TusRefusal(412, `Send Tus-Resumable: ${TUS_VERSION}`);
    }
    next();
  });

  router.post('/api/uploads', authenticate(clients), async (req, res) => {
    const metadata = parseUploadMetadata(header(req, 'upload-metadata'));
    const purpose = (metadata.purpose ?? 'package') as UploadPurpose;
    if (!PURPOSES.includes(purpose)) throw new TusRefusal(400, `Upload-Metadata purpose must be one of ${PURPOSES.join(', ')}`);
    const channelKey = (metadata.channel_key ?? '').trim();
    const fileName = sanitizeFileName(metadata.filename ?? metadata.name);
    const concat = parseUploadConcat(header(req, 'upload-concat'));
    // A partial of a parallel upload may come without the final's metadata (tus-js-client's
    // default): its token is checked now, its channel when the final joins it.
    if (concat?.kind !== 'partial' || channelKey) await checkRightToUpload(req, purpose, channelKey);
    const owner = { ownerId: currentUser(req).id, purpose, channelKey, fileName };

    if (concat?.kind === 'final') {
      if (header(req, 'upload-length') !== undefined) throw new TusRefusal(400, 'A final concatenation has no Upload-Length of its own');
      const { record } = await uploads.concatenate(owner, concat.partIds);
      res.setHeader('Location', uploadUrl(req, record.id));
      res.setHeader('Upload-Offset', String(record.offset));
      res.status(201).end();
      return;
    }
    if (header(req, 'upload-defer-length') !== undefined) throw new TusRefusal(400, 'Upload-Defer-Length is not supported: send Upload-Length');
    const length = parseByteCount('Upload-Length', header(req, 'upload-length'));
    if (length === undefined) throw new TusRefusal(400, 'Send Upload-Length');
    // Before the body is read: a bad checksum header refuses the request before anything is made.
    const checksum = hasBody(req) ? parseUploadChecksum(header(req, 'upload-checksum')) : undefined;
    let { record } = await uploads.create({ ...owner, length, ...(concat ? { concat: 'partial' as const } : {}) });
    res.setHeader('Location', uploadUrl(req, record.id));
    if (hasBody(req)) record = await uploads.append(record.id, owner.ownerId, 0, req, checksum);
    res.setHeader('Upload-Offset', String(record.offset));
    expiresHeader(res, record);
    res.status(201).end();
  });

  router.head('/api/uploads/:id', authenticate(clients), async (req, res) => {
    const { record } = await uploads.find(String(req.params.id), currentUser(req).id);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Upload-Offset', String(record.offset));
    res.setHeader('Upload-Length', String(record.length));
    res.setHeader('Upload-Metadata', formatUploadMetadata({ filename: record.fileName, purpose: record.purpose, ...(record.channelKey ? { channel_key: record.channelKey } : {}) }));
    if (record.concat === 'partial') res.setHeader('Upload-Concat', 'partial');
    expiresHeader(res, record);
    res.status(200).end();
  });

  router.patch('/api/uploads/:id', authenticate(clients), async (req, res) => {
    if (!hasBody(req)) throw new TusRefusal(415, `Send the bytes as Content-Type: ${OCTETS}`);
    const offset = parseByteCount('Upload-Offset', header(req, 'upload-offset'));
    if (offset === undefined) throw new TusRefusal(400, 'Send Upload-Offset');
    const checksum = parseUploadChecksum(header(req, 'upload-checksum'));
    const record = await uploads.append(String(req.params.id), currentUser(req).id, offset, req, checksum);
    res.setHeader('Upload-Offset', String(record.offset));
    expiresHeader(res, record);
    res.status(204).end();
  });

  router.delete('/api/uploads/:id', authenticate(clients), async (req, res) => {
    await uploads.terminate(String(req.params.id), currentUser(req).id);
    res.status(204).end();
  });

  router.use('/api/uploads', (err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!(err instanceof TusRefusal)) return next(err);
    if (res.headersSent) return next(err);
    // The request may still be sending a body we will not read: close after answering.
    if (!req.complete) res.setHeader('Connection', 'close');
    if (req.method === 'HEAD') return res.status(err.status).end();
    res.status(err.status).json({ error: err.message, ...(err.entry ? { entry: err.entry } : {}) });
  });
  router.use('/api/uploads', (err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (isDomainError(err) && !res.headersSent && !req.complete) {
      res.setHeader('Connection', 'close');
      return sendError(res, err);
    }
    next(err);
  });
  return router;

  async function checkRightToUpload(req: Request, purpose: UploadPurpose, channelKey: string): Promise<void> {
    if (channelKey) {
      const context = await clients.apps.resolveChannel({ channelKey, channelId: 0 });
      await clients.apps.checkPermission({ actor: actorOf(req), appId: context.app!.id, action: 'releases.upload' });
      return;
    }
    if (purpose === 'debug_file') throw InvalidArgument.field('channel_key', "can't be blank: send it in Upload-Metadata");
    // Without a channel the build's app is found or made from the package (PRODUCT §3): only
    // those who may create apps upload that way.
    if (currentUser(req).role === 'member') {
      throw new PermissionDenied('Members cannot create apps: send channel_key in Upload-Metadata to upload into a channel');
    }
  }
}

function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

function expiresHeader(res: Response, record: UploadRecord): void {
  if (record.offset < record.length) res.setHeader('Upload-Expires', new Date(record.expiresAt).toUTCString());
}
