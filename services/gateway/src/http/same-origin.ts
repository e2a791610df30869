import type { Request } from 'express';
import { PermissionDenied } from '@hangar/errors';
import { publicBaseUrl } from './base-url';

/**
 * Login CSRF: another site's page must not sign the browser in
 * (a form POST to /api/sessions with the attacker's own credentials). A
 * browser names the page's origin in `Origin` on every cross-origin POST and
 * says `Sec-Fetch-Site`; a request that names another site is refused. Same
 * origin means the host (name and port) of the gateway's public base URL —
 * `PUBLIC_BASE_URL`, else a trusted proxy's X-Forwarded-Host (TRUSTED_PROXIES),
 * else the request's Host, which a browser sets and a page cannot. The scheme
 * is not compared: behind a TLS-terminating proxy the gateway hears http. No
 * `Origin` at all (the CLI, curl, scripts) is no browser's cross-site request.
 */
export function requireSameOrigin(req: Request, configuredBaseUrl: string | undefined): void {
  const site = req.get('sec-fetch-site')?.trim().toLowerCase();
  if (site === 'cross-site' || site === 'same-site') throw refusal(`Sec-Fetch-Site is ${site}`);
  const origin = req.get('origin');
  if (origin === undefined) return;
  if (hostOf(origin) !== hostOf(publicBaseUrl(req, configuredBaseUrl)) || hostOf(origin) === undefined) throw refusal('its Origin is another site');
}

function refusal(why: string): PermissionDenied {
  return new PermissionDenied(`Sign-in refused: the request comes from another site (${why}); sign in from Hangar's own console`);
}

/** `host[:port]` of an origin or URL, default ports dropped; undefined for `null` or anything unparsable. */
function hostOf(text: string): string | undefined {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}
