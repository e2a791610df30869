import { createHmac, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { HmacSha256 } from './hmac-sha256';

describe('HMAC-SHA256 from one-shot hashes', () => {
  it('when any key and message are given, then the MAC is the one createHmac makes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 600 }), (key, message) => {
        const expected = createHmac('sha256', Buffer.from(key)).update(message).digest('base64url');
        expect(new HmacSha256(Buffer.from(key)).digest(message)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('when one key hashes many messages, then each MAC is still its own', () => {
    const key = randomBytes(32);
    const mac = new HmacSha256(key);
    for (const message of ['203.0.113.7\0UA/1', '203.0.113.7\0UA/2', '', 'x'.repeat(4_000), '2001:db8::1\0Télé/1.0 📱']) {
      expect(mac.digest(message)).toBe(createHmac('sha256', key).update(message).digest('base64url'));
    }
  });
});
