import { admittedEmail } from './identity-policy';

const identity = (email: string | undefined, emailVerified = true) => ({ issuer: 'https://idp.example.com', subject: 's1', ...(email ? { email } : {}), emailVerified, preferredUsername: '' });

describe('admittedEmail', () => {
  it('when the email is verified and its domain allowed (or no list is set), then it is admitted, lowercased', () => {
    expect(admittedEmail(identity('Ann@Example.com'), ['example.com'])).toBe('ann@example.com');
    expect(admittedEmail(identity('ann@anywhere.org'), [])).toBe('ann@anywhere.org');
  });

  it('when the email is unverified, missing, or of another domain (a subdomain included), then it is refused with the reason', () => {
    expect(() => admittedEmail(identity('ann@example.com', false), [])).toThrow(/not verified/);
    expect(() => admittedEmail(identity(undefined), [])).toThrow(/no email/);
    expect(() => admittedEmail(identity('ann@evil.example.com'), ['example.com'])).toThrow(/evil\.example\.com may not sign in/);
    expect(() => admittedEmail(identity('ann@example.com.evil.org'), ['example.com'])).toThrow(/may not sign in/);
  });
});
