import type { NextFunction, Request, Response } from 'express';
import { Logger, REQUEST_ID_HEADER, acceptRequestId, captureScope, redactUrl } from '@hangar/logger';
import { continueTrace } from '@hangar/telemetry';

const firstValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * Gives every request an id (the caller's X-Request-Id when sane), answers it
 * in the response, runs the rest of the request inside its context (so gRPC
 * metadata and log lines carry it, and the caller's traceparent is continued)
 * and writes one access-log line with secrets taken out of the URL.
 */
export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const requestId = acceptRequestId(req.headers[REQUEST_ID_HEADER]);
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    continueTrace(`${req.method} request`, (key) => firstValue(req.headers[key]), { requestId }, () => {
      // Captured here, so the access-log line is written inside the request's context (its trace ids).
      const inRequestScope = captureScope();
      res.once('finish', () =>
        inRequestScope(() => {
          const ms = Number((process.hrtime.bigint() - started) / 1_000_000n);
          logger.info({ requestId, method: req.method, url: redactUrl(req.originalUrl), status: res.statusCode, ms }, 'request');
        }),
      );
      next();
    });
  };
}
