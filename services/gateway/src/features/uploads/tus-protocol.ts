import { ErrorRequestHandler, RequestHandler, Router } from 'express';
import { isDomainError } from '@hangar/errors';
import { sendError } from '../../http/error-handler';
import type { Header, JsonSchema, Parameter } from '../../openapi/schema-types';
import type { ResumableUploads } from '../../uploads/resumable-uploads';
import { CHECKSUM_ALGORITHMS, TUS_EXTENSIONS, TUS_VERSION, TusRefusal, setTusHeaders } from '../../uploads/tus-headers';

const UPLOADS = '/api/uploads';

/**
 * What tus asks of every request under /api/uploads, before its operation: the protocol's headers
 * on every answer, and `OPTIONS` answered with the server's extensions and limits.
 */
export function tusProtocol(uploads: ResumableUploads): Router {
  const router = Router();
  router.use(UPLOADS, (req, res, next) => {
    setTusHeaders(res);
    if (req.method !== 'OPTIONS') return next();
    res.setHeader('Tus-Version', TUS_VERSION);
    res.setHeader('Tus-Extension', TUS_EXTENSIONS.join(','));
    res.setHeader('Tus-Max-Size', String(uploads.maxBytes));
    res.setHeader('Tus-Checksum-Algorithm', CHECKSUM_ALGORITHMS.join(','));
    res.status(204).end();
  });
  return router;
}

/** A tus operation's first check (`before`, ahead of its token's): a request without `Tus-Resumable: 1.0.0` is refused (412). */
export const requireTusVersion: RequestHandler = (req, res, next) => {
  if (req.headers['tus-resumable'] === TUS_VERSION) return next();
  res.setHeader('Tus-Version', TUS_VERSION);
  next(new TusRefusal(412, `Send Tus-Resumable: ${TUS_VERSION}`));
};

/**
 * The refusals of tus operations, after them (error handlers, app.ts mounts them at
 * /api/uploads): a protocol refusal with its own status, and any refusal of a request whose body
 * is still coming answered with `Connection: close` (the rest of the body is not read).
 */
export const tusRefusals: ErrorRequestHandler[] = [
  (err, req, res, next) => {
    if (!(err instanceof TusRefusal)) return next(err);
    if (res.headersSent) return next(err);
    // The request may still be sending a body we will not read: close after answering.
    if (!req.complete) res.setHeader('Connection', 'close');
    if (req.method === 'HEAD') return res.status(err.status).end();
    res.status(err.status).json({ error: err.message, ...(err.entry ? { entry: err.entry } : {}) });
  },
  (err, req, res, next) => {
    if (isDomainError(err) && !res.headersSent && !req.complete) {
      res.setHeader('Connection', 'close');
      return sendError(res, err);
    }
    next(err);
  },
];

/** tus request headers, as the document describes them; `Tus-Resumable` is on every request but OPTIONS. */
export function tusRequestHeaders(names: string[]): Parameter[] {
  const described: Record<string, string> = {
    'Upload-Length': 'Size of the whole file in bytes (not on a final concatenation)',
    'Upload-Metadata': 'Comma-separated `key base64(value)` pairs: filename, purpose, channel_key',
    'Upload-Concat': '`partial`, or `final;<url> <url>…`',
    'Upload-Checksum': "`sha256 <base64 digest>` of this request's body",
    'Upload-Offset': 'Where this body starts: the offset HEAD answered',
    'Hangar-Partial-Start':
      "Where a partial's bytes start in the whole file, when its `Upload-Metadata` names its parallel upload (`parallel_upload`, and the file's size in `parallel_size`): " +
      'its bytes then go straight into the whole file, and the final joins the parts without copying them. Without it a partial is joined by a copy, ' +
      'as is one whose place another upload of the same `parallel_upload` name holds already (name each file\'s parallel upload uniquely)',
  };
  return [
    { name: 'Tus-Resumable', in: 'header', required: true, description: 'Always `1.0.0`', schema: { type: 'string', enum: ['1.0.0'] } },
    ...names.map((name): Parameter => ({ name, in: 'header', required: name === 'Upload-Offset', description: described[name]!, schema: { type: 'string' } })),
  ];
}
export const TUS_RESUMABLE_HEADER: Header = { schema: { type: 'string', enum: ['1.0.0'] } };
export const UPLOAD_ID: JsonSchema = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' };
