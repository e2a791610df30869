import { InvalidArgument } from '@hangar/errors';
import { normalizeRole, validateUserFields } from './user-fields';

describe('validateUserFields', () => {
  it('when all fields are valid, then they come back normalised', () => {
    expect(
      validateUserFields({ username: ' alice ', email: 'Alice@Example.COM', password: 'long-enough-pw', locale: 'zh-CN', appearance: 'dark', timezone: 'Asia/Rangoon', role: 'user' }),
    ).toEqual({ username: 'alice', email: 'alice@example.com', password: 'long-enough-pw', locale: 'zh-CN', appearance: 'dark', timezone: 'Asia/Rangoon', role: 'member' });
  });

  it('when several fields are wrong, then every one is named in entry', () => {
    try {
      validateUserFields({ email: 'nope', password: 'short', locale: 'de', appearance: 'x', timezone: 'Europe/Nowhere', role: 'root' });
      throw new Error('expected a failure');
    } catch (err) {
      expect(err).toBeInstanceOf(InvalidArgument);
      expect(Object.keys((err as InvalidArgument).entry ?? {}).sort()).toEqual(['appearance', 'email', 'locale', 'password', 'role', 'timezone']);
    }
  });

  it('when a password is shorter than 12 characters, then it is refused with its rule', () => {
    expect(() => validateUserFields({ password: 'elevenchars' })).toThrow(/password is too short \(minimum is 12 characters\)/);
    expect(validateUserFields({ password: 'twelve-chars' }).password).toBe('twelve-chars');
  });

  it('when a long password repeats fewer than 5 different characters, then it is too weak', () => {
    expect(() => validateUserFields({ password: '121212121212' })).toThrow(/password is too weak/);
    expect(() => validateUserFields({ password: 'abcdabcdabcdabcd' })).toThrow(/password is too weak/);
    expect(validateUserFields({ password: 'abcdeabcdeab' }).password).toBe('abcdeabcdeab');
  });

  it('when required fields are blank, then they are reported', () => {
    expect(() => validateUserFields({ username: 'bob' }, ['username', 'email', 'password'])).toThrow(/email can't be blank; password can't be blank/);
  });

  it('when a username holds control characters, then it is refused', () => {
    expect(() => validateUserFields({ username: 'bad\u0007name' })).toThrow(InvalidArgument);
  });

  it('when the role is the documented default user, then it means member', () => {
    expect(normalizeRole('user')).toBe('member');
    expect(normalizeRole('admin')).toBe('admin');
  });
});
