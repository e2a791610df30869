import { Router } from 'express';
import { InvalidArgument, PermissionDenied } from '@hangar/errors';
import type { ServiceClients } from '../clients/service-clients';
import { actorOf, authenticate, currentUser } from '../http/authenticate.middleware';
import { readTextFields } from '../http/input';
import { sanitizeFileName } from '../http/streamed-upload';
import type { ResumableUploads } from './resumable-uploads';
import { TusRefusal } from './tus-headers';
import type { UploadPurpose } from './upload-records';

/**
 * Direct uploads, when clients can reach S3 (`S3_PUBLIC_ENDPOINT`): the gateway checks the
 * token and the channel, begins an S3 multipart upload and hands out one presigned URL per
 * part; the client PUTs the parts (in parallel, retrying any) straight to S3; the usual
 * finishing call with `upload_id` completes it. The bytes never cross the gateway.
 */
export function directUploadRoutes(clients: ServiceClients, uploads: ResumableUploads, options: { urlTtlSeconds: number }): Router {
  const router = Router();

  router.post('/api/direct_uploads', authenticate(clients), async (req, res) => {
    const fields = readTextFields(req.body, ['filename', 'length', 'purpose', 'channel_key'] as const);
    const purpose = (fields.purpose ?? 'package') as UploadPurpose;
    if (purpose !== 'package' && purpose !== 'debug_file') throw InvalidArgument.field('purpose', 'must be package or debug_file');
    const length = Number(fields.length);
    if (!fields.length || !/^\d{1,16}$/.test(fields.length) || !Number.isSafeInteger(length) || length < 1) {
      throw InvalidArgument.field('length', 'must be the file size in bytes, at least 1');
    }
    const channelKey = (fields.channel_key ?? '').trim();
    if (channelKey) {
      const context = await clients.apps.resolveChannel({ channelKey, channelId: 0 });
      await clients.apps.checkPermission({ actor: actorOf(req), appId: context.app!.id, action: 'releases.upload' });
    } else if (purpose === 'debug_file') {
      throw InvalidArgument.field('channel_key', "can't be blank");
    } else if (currentUser(req).role === 'member') {
      throw new PermissionDenied('Members cannot create apps: send channel_key to upload into a channel');
    }
    try {
      const { record, partUrls } = await uploads.createDirect(
        { ownerId: currentUser(req).id, purpose, channelKey, fileName: sanitizeFileName(fields.filename), length },
        options.urlTtlSeconds,
      );
      res.status(201).json({
        upload_id: record.id,
        part_size: record.direct!.partSize,
        expires_at: new Date(record.expiresAt).toISOString(),
        parts: partUrls.map((p) => ({ part_number: p.part, offset: p.offset, length: p.length, url: p.url })),
      });
    } catch (err) {
      // The refusals of the upload layer, in this route's contract shape.
      if (err instanceof TusRefusal) {
        res.status(err.status === 400 ? 422 : err.status).json({ error: err.message, ...(err.status === 400 ? { entry: { length: [err.message] } } : {}) });
        return;
      }
      throw err;
    }
  });
  return router;
}
