import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

/**
 * A JSON answer clients poll (in-app update checks): an ETag of its bytes,
 * and `Cache-Control: no-cache` so every poll revalidates — an app must see
 * a mandatory update at its next start, not after a max-age — while an
 * unchanged answer costs a 304 without a body.
 */
export function sendRevalidated(req: Request, res: Response, body: unknown): void {
  sendRevalidatedBody(req, res, revalidatedBody(body));
}

/** An answer's bytes and their ETag, computed once: what a cache of answers keeps. */
export interface RevalidatedBody {
  json: string;
  etag: string;
}

export function revalidatedBody(body: unknown): RevalidatedBody {
  const json = JSON.stringify(body);
  return { json, etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"` };
}

export function sendRevalidatedBody(req: Request, res: Response, { json, etag }: RevalidatedBody): void {
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', 'private, no-cache');
  if (etagMatches(req.get('if-none-match'), etag)) {
    res.status(304).end();
    return;
  }
  res.type('json').send(json);
}

/** Whether an If-None-Match header names this ETag (weak or strong, among others). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  return !!ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
