import type { Request } from 'express';
import { PermissionDenied } from '@hangar/errors';
import { requireSameOrigin } from './same-origin';

/** A request as express hands it over: headers by lower-case name, a plain socket. */
function request(headers: Record<string, string>): Request {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { headers: lower, socket: {}, get: (name: string) => lower[name.toLowerCase()] } as unknown as Request;
}

describe('requireSameOrigin (login CSRF)', () => {
  it.each([
    ['no Origin (CLI, curl)', { host: 'hangar.example.com' }, undefined],
    ['the Host as Origin', { host: 'hangar.example.com:8080', origin: 'http://hangar.example.com:8080' }, undefined],
    ['https behind a TLS proxy, default port', { host: 'hangar.example.com', origin: 'https://hangar.example.com' }, undefined],
    ['the configured base URL', { host: '10.0.0.5:3000', origin: 'https://hangar.example.com' }, 'https://hangar.example.com/'],
    ['Sec-Fetch-Site same-origin', { host: 'h', origin: 'http://h', 'sec-fetch-site': 'same-origin' }, undefined],
    ['Sec-Fetch-Site none', { host: 'h', 'sec-fetch-site': 'none' }, undefined],
  ])('when the request has %s, then it is allowed', (_what, headers, configured) => {
    expect(() => requireSameOrigin(request(headers), configured)).not.toThrow();
  });

  it.each([
    ['another site', { host: 'hangar.example.com', origin: 'https://evil.example' }, undefined],
    ['another port', { host: 'hangar.example.com', origin: 'https://hangar.example.com:8443' }, undefined],
    ['Origin null', { host: 'h', origin: 'null' }, undefined],
    ['the Host, but not the configured base URL', { host: '10.0.0.5:3000', origin: 'http://10.0.0.5:3000' }, 'https://hangar.example.com'],
    ['Sec-Fetch-Site cross-site, no Origin', { host: 'h', 'sec-fetch-site': 'cross-site' }, undefined],
    ['Sec-Fetch-Site same-site', { host: 'h', origin: 'http://h', 'sec-fetch-site': 'same-site' }, undefined],
    ['an X-Forwarded-Host from an untrusted peer', { host: 'hangar.example.com', 'x-forwarded-host': 'evil.example', origin: 'https://evil.example' }, undefined],
  ])('when the request has %s, then 403', (_what, headers, configured) => {
    expect(() => requireSameOrigin(request(headers), configured)).toThrow(PermissionDenied);
  });
});
