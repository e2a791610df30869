import type { NextFunction, Request, Response } from 'express';
import { DomainError, NotFound, httpStatusOf, isDomainError } from '@hangar/errors';
import { Logger, boundedJson } from '@hangar/logger';

/**
 * Seconds a client is told to wait after a 503 (a dependency down): the launcher restarts a crashed
 * server after 0.5–2 s, a Kubernetes pod takes longer; clients retry, and a second 503 says the same.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Contract error body: `{"error": "...", "entry": {"field": ["problem"]}}`. */
export function sendError(res: Response, err: DomainError): void {
  const status = httpStatusOf(err);
  // A refusal that ends (failed-attempt limits) says when; so does every dependency failure.
  const retryAfter = (err as { retryAfterSeconds?: unknown }).retryAfterSeconds;
  if (typeof retryAfter === 'number') res.setHeader('Retry-After', String(retryAfter));
  else if (status === 503) res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  res.status(status).json({ error: err.message, ...(err.entry ? { entry: err.entry } : {}) });
}

/** Unknown `/api/*` paths. */
export function apiNotFound(_req: Request, res: Response): void {
  sendError(res, new NotFound('API not found'));
}

/**
 * The gateway edge of the error table. Body-parser failures are the client's
 * (400/413); anything unknown is a bug: logged with its stack, answered 500
 * with nothing internal in it.
 */
export function errorHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    if (isDomainError(err)) {
      // A 503 is a dependency failing (a service down or past its deadline, storage out of
      // reach): the operator's log says which and how — its cause — while the client's answer
      // stays generic. Refusals of the request itself (4xx) are the client's business.
      const status = httpStatusOf(err);
      if (status >= 500) logger.warn({ err, method: req.method, path: req.path, status }, 'answered with a dependency failure');
      return sendError(res, err);
    }
    const parserError = err as { type?: string; status?: number };
    if (parserError.type === 'entity.parse.failed') {
      return res.status(400).json({ error: 'Malformed request body: not valid JSON' });
    }
    if (parserError.type === 'entity.too.large') return res.status(413).json({ error: 'Request body is too large' });
    if (typeof parserError.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
      return res.status(parserError.status).json({ error: 'Malformed request' });
    }
    logger.error({ error: boundedError(err), method: req.method, path: req.path }, 'unhandled error');
    res.status(500).json({ error: 'Internal error' });
  };
}

/**
 * An unknown error as the log keeps it: its type, message, stack and code, cut to size — not the
 * properties it carries, which may hold the caller's input (a parser's raw body, a value nested
 * 20,000 deep) or a secret.
 */
function boundedError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { type: typeof err, message: boundedJson(err, { maxDepth: 2, maxChars: 500 }) };
  const code = (err as { code?: unknown }).code;
  return {
    type: err.name,
    message: err.message.slice(0, 1000),
    ...(err.stack ? { stack: err.stack.slice(0, 4000) } : {}),
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
  };
}
