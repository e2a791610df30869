import { hashPassword, randomBase62, verifyPassword } from './index';

describe('secrets', () => {
  it('when a password is hashed, then only the same password verifies and the hash hides it', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(hash).not.toContain('correct horse');
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('wrong horse', hash)).toBe(false);
    expect(await hashPassword('correct horse')).not.toBe(hash);
  });

  it('when the stored value is not an scrypt hash, then nothing verifies', async () => {
    expect(await verifyPassword('x', 'plain')).toBe(false);
  });

  it('when random base62 is drawn, then every symbol appears and only those', () => {
    const sample = randomBase62(20_000);
    expect(sample).toMatch(/^[0-9A-Za-z]{20000}$/);
    expect(new Set(sample).size).toBe(62);
  });
});
