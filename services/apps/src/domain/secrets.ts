import { randomBase62 } from '@hangar/secrets';

export { hashPassword, randomBase62, verifyPassword } from '@hangar/secrets';

/** Generated channel keys: 24 base62 characters ≈ 143 bits, unguessable. */
export const GENERATED_SLUG_LENGTH = 24;

export function generateSlug(): string {
  return randomBase62(GENERATED_SLUG_LENGTH);
}
