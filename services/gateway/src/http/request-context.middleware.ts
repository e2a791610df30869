import type { NextFunction, Request, Response } from 'express';
import { Logger, REQUEST_ID_HEADER, acceptRequestId, captureScope, redactUrl } from '@hangar/logger';
import { continueTrace } from '@hangar/telemetry';
import { afterAnswer } from './after-answer';

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
      afterAnswer(res, 'finish', logger, 'access log', () => inRequestScope(() => logAnswered(logger, { requestId, method: req.method, url: req.originalUrl, status: res.statusCode, started })));
      next();
    });
  };
}

/** The access-log line of an answered request, secrets taken out of its URL (also features/update-checks/update-check.fast-path.ts). */
export function logAnswered(logger: Logger, answered: { requestId: string; method: string; url: string; status: number; started: bigint }): void {
  if (!logger.isLevelEnabled('info')) return;
  const { requestId, method, url, status, started } = answered;
  logger.info({ requestId, method, url: redactUrl(url), status, ms: Number((process.hrtime.bigint() - started) / 1_000_000n) }, 'request');
}
