import { trustedPeers } from './trusted-peers';

describe('trustedPeers (TRUSTED_PROXIES for the launcher\'s proxy)', () => {
  it('when the list is empty, then nobody is trusted', () => {
    expect(trustedPeers('')('127.0.0.1')).toBe(false);
    expect(trustedPeers(undefined)('::1')).toBe(false);
  });

  it('when addresses, CIDRs and names are listed, then exactly those peers are trusted, IPv4-mapped IPv6 too', () => {
    const trusted = trustedPeers('10.1.0.0/16, 192.0.2.7 loopback,fd00::/8');
    expect(['10.1.2.3', '192.0.2.7', '127.0.0.1', '::ffff:127.0.0.1', '::1', 'fd12::1'].map(trusted)).toEqual([true, true, true, true, true, true]);
    expect(['10.2.0.1', '192.0.2.8', '203.0.113.1', 'fe80::1', 'not-an-ip'].map(trusted)).toEqual([false, false, false, false, false]);
  });

  it('when an entry is no address, then it throws naming it', () => {
    expect(() => trustedPeers('10.0.0.0/8,proxy.internal')).toThrow(/proxy\.internal/);
  });
});
