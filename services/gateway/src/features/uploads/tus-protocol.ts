import { NextFunction, Request, Response, Router } from 'express';
import { isDomainError } from '@hangar/errors';
import { sendError } from '../../http/error-handler';
import type { Header, JsonSchema, Parameter } from '../../openapi/schema-types';
import type { ResumableUploads } from '../../uploads/resumable-uploads';
import { CHECKSUM_ALGORITHMS, TUS_EXTENSIONS, TUS_VERSION, TusRefusal, setTusHeaders } from '../../uploads/tus-headers';

const UPLOADS = '/api/uploads';

/**
 * What tus asks of every request under /api/uploads, before its operation: the protocol's headers
 * on every answer, `OPTIONS` answered with the server's extensions and limits, and any request
 * without `Tus-Resumable: 1.0.0` refused (412).
 */
export function tusProtocol(uploads: ResumableUploads): Router {
  const router = Router();
  router.use(UPLOADS, (req, res, next) => {
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
  return router;
}

/**
 * The refusals of tus operations, after them: a protocol refusal with its own status, and any
 * refusal of a request whose body is still coming answered with `Connection: close` (the rest of
 * the body is not read).
 */
export function tusRefusals(): Router {
  const router = Router();
  router.use(UPLOADS, (err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!(err instanceof TusRefusal)) return next(err);
    if (res.headersSent) return next(err);
    // The request may still be sending a body we will not read: close after answering.
    if (!req.complete) res.setHeader('Connection', 'close');
    if (req.method === 'HEAD') return res.status(err.status).end();
    res.status(err.status).json({ error: err.message, ...(err.entry ? { entry: err.entry } : {}) });
  });
  router.use(UPLOADS, (err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (isDomainError(err) && !res.headersSent && !req.complete) {
      res.setHeader('Connection', 'close');
      return sendError(res, err);
    }
    next(err);
  });
  return router;
}

/** tus request headers, as the document describes them; `Tus-Resumable` is on every request but OPTIONS. */
export function tusRequestHeaders(names: string[]): Parameter[] {
  const described: Record<string, string> = {
    'Upload-Length': 'Size of the whole file in bytes (not on a final concatenation)',
    'Upload-Metadata': 'Comma-separated `key base64(value)` pairs: filename, purpose, channel_key',
    'Upload-Concat': '`partial`, or `final;<url> <url>…`',
    'Upload-Checksum': "`sha256 <base64 digest>` of this request's body",
    'Upload-Offset': 'Where this body starts: the offset HEAD answered',
  };
  return [
    { name: 'Tus-Resumable', in: 'header', required: true, description: 'Always `1.0.0`', schema: { type: 'string', enum: ['1.0.0'] } },
    ...names.map((name): Parameter => ({ name, in: 'header', required: name === 'Upload-Offset', description: described[name]!, schema: { type: 'string' } })),
  ];
}
export const TUS_RESUMABLE_HEADER: Header = { schema: { type: 'string', enum: ['1.0.0'] } };
export const UPLOAD_ID: JsonSchema = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' };
