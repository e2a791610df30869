import type { IncomingMessage } from 'node:http';
import { publicBaseUrl } from './base-url';
import { compileTrustedProxies, parseTrustedProxies } from './trusted-proxies';

function request(peer: string, headers: Record<string, string>): IncomingMessage {
  return { socket: { remoteAddress: peer }, headers } as unknown as IncomingMessage;
}

describe('public base URL and TRUSTED_PROXIES', () => {
  const forwarded = { host: 'gateway.internal:8080', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'apps.example.com' };

  it('when nobody is trusted (the default), then X-Forwarded-Proto / -Host are ignored and the request\'s Host is used', () => {
    expect(publicBaseUrl(request('203.0.113.9', forwarded), undefined, compileTrustedProxies([]))).toBe('http://gateway.internal:8080');
  });

  it('when the peer is a trusted proxy, then its X-Forwarded-Proto / -Host are believed; another peer\'s are not', () => {
    const trust = compileTrustedProxies(parseTrustedProxies('10.0.0.0/8, loopback'));
    expect(publicBaseUrl(request('10.1.2.3', forwarded), undefined, trust)).toBe('https://apps.example.com');
    expect(publicBaseUrl(request('::ffff:127.0.0.1', forwarded), undefined, trust)).toBe('https://apps.example.com');
    expect(publicBaseUrl(request('203.0.113.9', forwarded), undefined, trust)).toBe('http://gateway.internal:8080');
  });

  it('when PUBLIC_BASE_URL is set, then it wins over everything', () => {
    const trust = compileTrustedProxies(['loopback']);
    expect(publicBaseUrl(request('127.0.0.1', forwarded), 'https://hangar.example.org/', trust)).toBe('https://hangar.example.org');
  });

  it('when an entry is no address, CIDR or known name, then compiling refuses it', () => {
    expect(() => compileTrustedProxies(['10.0.0.0/8', 'proxy.internal'])).toThrow();
  });
});
