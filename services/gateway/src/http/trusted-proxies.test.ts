import type { IncomingMessage } from 'node:http';
import express from 'express';
import { publicBaseUrl } from './base-url';
import { clientAddress, compileTrustedProxies, parseTrustedProxies } from './trusted-proxies';

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

  it("when the client's address is read before express (the update-check fast path), then it is express's req.ip for every trust list and chain", () => {
    const lists = [[], ['loopback'], ['10.0.0.0/8', 'loopback'], ['10.0.0.0/8', '192.0.2.1']];
    const chains: Array<[string, string | undefined]> = [
      ['203.0.113.9', undefined],
      ['127.0.0.1', '198.51.100.7'],
      ['127.0.0.1', '198.51.100.7, 10.1.1.1'],
      ['10.2.2.2', '198.51.100.7, 192.0.2.1'],
      ['203.0.113.9', '198.51.100.7'],
      ['127.0.0.1', ''],
    ];
    for (const list of lists) {
      const app = express();
      app.set('trust proxy', list.length ? list : false);
      for (const [peer, xff] of chains) {
        const headers: Record<string, string> = xff === undefined ? {} : { 'x-forwarded-for': xff };
        const viaExpress = Object.create(app.request, { headers: { value: headers }, socket: { value: { remoteAddress: peer } }, connection: { value: { remoteAddress: peer } } }) as { ip: string };
        expect({ list, peer, xff, ip: clientAddress(request(peer, headers), compileTrustedProxies(list)) }).toEqual({ list, peer, xff, ip: viaExpress.ip });
      }
    }
  });
});
