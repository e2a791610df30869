import type { Request, Response } from 'express';

/**
 * Small immutable files (release icons, QR codes) kept in memory, least
 * recently used first out. A release's icon never changes — its storage key
 * is unique to the upload — and a QR code is a pure function of the URL it
 * encodes: an install burst (one build, a thousand testers) reads each once.
 */
export class ImmutableBytes {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly capacityBytes: number) {}

  async get(key: string, produce: () => Promise<Buffer>): Promise<Buffer> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const value = await produce();
    if (value.length <= this.capacityBytes / 16) {
      this.entries.set(key, value);
      this.bytes += value.length;
      for (const [oldest, old] of this.entries) {
        if (this.bytes <= this.capacityBytes) break;
        this.entries.delete(oldest);
        this.bytes -= old.length;
      }
    }
    return value;
  }
}

/**
 * Headers of content that never changes at its URL: browsers keep it a year
 * without asking again (unless `cacheControl` says otherwise), and a client
 * that does ask with the ETag gets a 304.
 * Answers true when the 304 was sent.
 */
export function answeredNotModified(req: Request, res: Response, etag: string, cacheControl = 'public, max-age=31536000, immutable'): boolean {
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', cacheControl);
  const asked = req.headers['if-none-match'];
  if (asked && asked.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
    res.status(304).end();
    return true;
  }
  return false;
}
