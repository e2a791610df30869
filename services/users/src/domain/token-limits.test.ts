import { InvalidArgument } from '@hangar/errors';
import { validateTokenLimits } from './token-limits';

describe('validateTokenLimits', () => {
  const now = Date.UTC(2030, 0, 1);

  it('when nothing limits a token, then it keeps every right (nothing is stored)', () => {
    expect(validateTokenLimits({ scopes: [], appIds: [], expiresAtMs: 0 }, now)).toEqual({});
  });

  it('when scopes, apps and an expiry are valid, then they come back once each', () => {
    expect(validateTokenLimits({ scopes: ['upload', 'read', 'upload'], appIds: [3, 3, 4], expiresAtMs: now + 1000 }, now)).toEqual({
      scopes: ['upload', 'read'],
      appIds: [3, 4],
      expiresAt: new Date(now + 1000),
    });
  });

  it('when a scope does not exist, an app id is no id and the expiry has passed, then each field is named', () => {
    try {
      validateTokenLimits({ scopes: ['upload', 'delete-everything'], appIds: [0], expiresAtMs: now - 1 }, now);
      throw new Error('expected a failure');
    } catch (err) {
      expect(err).toBeInstanceOf(InvalidArgument);
      expect((err as InvalidArgument).entry).toEqual({
        scopes: [expect.stringContaining('delete-everything')],
        app_ids: [expect.any(String)],
        expires_at: ['must be in the future'],
      });
    }
  });

  it('when the expiry could not be read, then it says which format it wants', () => {
    expect(() => validateTokenLimits({ scopes: [], appIds: [], expiresAtMs: -1 }, now)).toThrow(/ISO 8601/);
  });
});
