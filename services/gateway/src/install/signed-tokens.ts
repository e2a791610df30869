import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Small signed, expiring values: the unlock cookie of a password channel and
 * the download token an unlocked page puts in install links (iOS fetches the
 * manifest and the package itself, without the browser's cookies).
 * Format: `<subject>.<expiresAtSeconds>.<base64url HMAC-SHA256>`.
 */
export class SignedTokens {
  constructor(private readonly secret: string) {}

  sign(subject: string, ttlSeconds: number, now = Date.now()): string {
    const expires = Math.floor(now / 1000) + ttlSeconds;
    return `${subject}.${expires}.${this.mac(`${subject}.${expires}`)}`;
  }

  /** True when the value was signed here for this subject and has not expired. */
  verify(value: string | undefined, subject: string, now = Date.now()): boolean {
    if (!value) return false;
    const parts = value.split('.');
    if (parts.length !== 3) return false;
    const [valueSubject, expires, mac] = parts as [string, string, string];
    if (valueSubject !== subject || !/^\d+$/.test(expires) || Number(expires) * 1000 < now) return false;
    const expected = Buffer.from(this.mac(`${valueSubject}.${expires}`));
    const given = Buffer.from(mac);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /** The subject a valid, unexpired value was signed for; undefined for anything else. */
  subjectOf(value: string | undefined, now = Date.now()): string | undefined {
    const subject = value?.split('.')[0];
    return subject !== undefined && this.verify(value, subject, now) ? subject : undefined;
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url');
  }
}
