import { createHash } from 'node:crypto';
import { randomBase62 } from '@hangar/secrets';

export { hashPassword, randomBase62, verifyPassword } from '@hangar/secrets';

/** Personal access token: 40 base62 characters ≈ 238 bits, with a recognisable prefix. */
export function generateToken(): string {
  return `hgr_${randomBase62(40)}`;
}

/**
 * Tokens are random with far more than 128 bits, so a fast hash is enough (a
 * slow one would only slow every request); it lets us look tokens up by hash.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
