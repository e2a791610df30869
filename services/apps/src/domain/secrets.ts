import { InvalidArgument } from '@hangar/errors';
import { randomBase62 } from '@hangar/secrets';

export { hashPassword, randomBase62, verifyPassword } from '@hangar/secrets';

/** Generated channel keys: 24 base62 characters ≈ 143 bits, unguessable. */
export const GENERATED_SLUG_LENGTH = 24;

export function generateSlug(): string {
  return randomBase62(GENERATED_SLUG_LENGTH);
}

/**
 * A password-protected channel's key must be as strong as a generated one: it is the
 * credential of the channel's API (versions, latest, update_check, debug files, retrace,
 * symbol servers), which the password does not guard. A custom key on such a channel:
 * at least 20 characters (letters, digits, `-`, `_`) with at least 10 different ones.
 */
export const PROTECTED_KEY_MIN_LENGTH = 20;
const PROTECTED_KEY_MIN_DISTINCT = 10;

export function isStrongChannelKey(slug: string): boolean {
  return slug.length >= PROTECTED_KEY_MIN_LENGTH && new Set(slug).size >= PROTECTED_KEY_MIN_DISTINCT;
}

/** 422 when a channel that has (or is getting) a visit password would keep a weak key. */
export function requireStrongKeyWhenProtected(slug: string, protectedByPassword: boolean, field: 'slug' | 'password'): void {
  if (!protectedByPassword || isStrongChannelKey(slug)) return;
  throw InvalidArgument.field(
    field,
    field === 'slug'
      ? `of a password-protected channel must be at least ${PROTECTED_KEY_MIN_LENGTH} characters with at least ${PROTECTED_KEY_MIN_DISTINCT} different ones (or leave it empty for a generated key)`
      : `needs a channel key of at least ${PROTECTED_KEY_MIN_LENGTH} characters with at least ${PROTECTED_KEY_MIN_DISTINCT} different ones: change the custom slug first`,
  );
}
