import { createHash } from 'node:crypto';
import { randomBase62 } from '@hangar/secrets';

/** 43 base62 characters ≈ 256 bits: join links, sign-in links and tester sessions alike. */
export const newTesterSecret = (): string => randomBase62(43);

/** What is stored of a tester's secret: its SHA-256 (the secret is random, so no slow hash is needed). */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');
