import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

/**
 * A JSON answer clients poll (in-app update checks): an ETag of its bytes,
 * and `Cache-Control: no-cache` so every poll revalidates — an app must see
 * a mandatory update at its next start, not after a max-age — while an
 * unchanged answer costs a 304 without a body.
 */
export function sendRevalidated(req: Request, res: Response, body: unknown): void {
  const json = JSON.stringify(body);
  const etag = `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', 'private, no-cache');
  const asked = req.get('if-none-match');
  if (asked && asked.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
    res.status(304).end();
    return;
  }
  res.type('json').send(json);
}
