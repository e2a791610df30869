import type { Response } from 'express';

/** tus 1.0 (https://tus.io/protocols/resumable-upload): the version and extensions Hangar speaks. */
export const TUS_VERSION = '1.0.0';
export const TUS_EXTENSIONS = ['creation', 'creation-with-upload', 'checksum', 'termination', 'expiration', 'concatenation'];
export const CHECKSUM_ALGORITHMS = ['sha256'];

/**
 * A refusal with the status the tus protocol names for it (409 stale offset, 410 gone,
 * 412 wrong version, 415 wrong content type, 460 checksum mismatch…), answered in the
 * contract's `{"error"}` shape with the tus headers.
 */
export class TusRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly entry?: Record<string, string[]>,
  ) {
    super(message);
  }
}

export function setTusHeaders(res: Response): void {
  res.setHeader('Tus-Resumable', TUS_VERSION);
  // Browser clients (the console, tus-js-client) must be able to read these across origins.
  res.setHeader('Access-Control-Expose-Headers', 'Upload-Offset, Upload-Length, Upload-Metadata, Upload-Expires, Upload-Concat, Location, Tus-Resumable');
}

/**
 * `Upload-Metadata`: comma-separated `key base64value` pairs (a key alone means an empty value).
 * Keys are ASCII without spaces or commas and appear once.
 */
export function parseUploadMetadata(header: string | undefined): Record<string, string> {
  const metadata: Record<string, string> = {};
  if (!header || !header.trim()) return metadata;
  for (const pair of header.split(',')) {
    const [key, value, extra] = pair.trim().split(' ');
    if (!key || extra !== undefined || !/^[\x21-\x7e]+$/.test(key) || key in metadata) {
      throw new TusRefusal(400, 'Upload-Metadata must be comma-separated "key base64value" pairs with distinct keys');
    }
    if (value !== undefined && !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) throw new TusRefusal(400, `Upload-Metadata ${key} is not base64`);
    const text = value === undefined ? '' : Buffer.from(value, 'base64').toString('utf8');
    if (text.includes('\0')) throw new TusRefusal(400, `Upload-Metadata ${key} must not contain NUL characters`);
    metadata[key] = text;
  }
  return metadata;
}

export function formatUploadMetadata(metadata: Record<string, string>): string {
  return Object.entries(metadata)
    .map(([key, value]) => `${key} ${Buffer.from(value, 'utf8').toString('base64')}`)
    .join(',');
}

/** `Upload-Checksum: sha256 <base64 digest>`: the digest of this request's body. */
export function parseUploadChecksum(header: string | undefined): Buffer | undefined {
  if (header === undefined) return undefined;
  const [algorithm, digest, extra] = header.trim().split(' ');
  if (!algorithm || !digest || extra !== undefined) throw new TusRefusal(400, 'Upload-Checksum must be "<algorithm> <base64 digest>"');
  if (!CHECKSUM_ALGORITHMS.includes(algorithm.toLowerCase())) {
    throw new TusRefusal(400, `Upload-Checksum algorithm ${algorithm} is not supported: use ${CHECKSUM_ALGORITHMS.join(', ')}`);
  }
  const bytes = /^[A-Za-z0-9+/]+={0,2}$/.test(digest) ? Buffer.from(digest, 'base64') : Buffer.alloc(0);
  if (bytes.length !== 32) throw new TusRefusal(400, 'Upload-Checksum sha256 digest must be 32 bytes in base64');
  return bytes;
}

export type UploadConcat = { kind: 'partial' } | { kind: 'final'; partIds: string[] };

/**
 * `Upload-Concat: partial` or `final;<url> <url>…`. Part URLs may be absolute or paths; the
 * upload id is their last path segment under /api/uploads/.
 */
export function parseUploadConcat(header: string | undefined): UploadConcat | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (value === 'partial') return { kind: 'partial' };
  if (!value.startsWith('final;')) throw new TusRefusal(400, 'Upload-Concat must be "partial" or "final;<url> <url>…"');
  const partIds = value
    .slice('final;'.length)
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((url) => {
      const match = /\/api\/uploads\/([A-Za-z0-9_-]{1,64})\/?$/.exec(url.split('?')[0]!);
      if (!match) throw new TusRefusal(400, `Upload-Concat part ${url.slice(0, 200)} is not an upload URL of this server`);
      return match[1]!;
    });
  if (partIds.length === 0) throw new TusRefusal(400, 'Upload-Concat final names no partial uploads');
  if (partIds.length > 10_000) throw new TusRefusal(400, 'Upload-Concat final names more than 10000 partial uploads');
  return { kind: 'final', partIds };
}

/** A non-negative integer header (Upload-Length, Upload-Offset); undefined when absent. */
export function parseByteCount(name: string, header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  if (!/^\d{1,16}$/.test(header.trim())) throw new TusRefusal(400, `${name} must be a non-negative integer`);
  const value = Number(header.trim());
  if (!Number.isSafeInteger(value)) throw new TusRefusal(400, `${name} is too large`);
  return value;
}
