import { generateToken, hashToken } from './secrets';

describe('secrets', () => {
  it('when tokens are generated, then they are long, base62 and distinct', () => {
    const tokens = new Set(Array.from({ length: 1000 }, generateToken));
    expect(tokens.size).toBe(1000);
    for (const t of tokens) expect(t).toMatch(/^hgr_[0-9A-Za-z]{40}$/);
  });

  it('when a token is hashed, then the hash is stable SHA-256 hex', () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
