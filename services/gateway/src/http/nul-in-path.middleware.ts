import type { NextFunction, Request, Response } from 'express';
import { NotFound } from '@hangar/errors';
import { sendError } from './error-handler';

/**
 * A path holding an encoded NUL (`%00`) names nothing Hangar can store: PostgreSQL's jsonb, under
 * the default engine, cannot hold the character, so a lookup by it fails in the database instead
 * of finding nothing. Answered here, for every route at once, as what it is — not found.
 * (A raw NUL never gets this far: Node's HTTP parser refuses it.)
 */
export function refuseNulInPath(req: Request, res: Response, next: NextFunction): void {
  // Runs on every request (update checks included): a test on the URL as it is, no copy of it.
  if (NUL_IN_PATH.test(req.url)) return sendError(res, new NotFound('Not found'));
  next();
}

/** `%00` anywhere before the query. */
const NUL_IN_PATH = /^[^?]*%00/i;
