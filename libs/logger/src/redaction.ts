/**
 * Secrets never reach a log line: token, password and channel key values are
 * replaced wherever they appear — in objects (pino's redact paths) and inside
 * URLs' query strings (access logs).
 */

export const REDACTED = '[REDACTED]';

/** Query and form parameter names whose values are secrets. */
export const SECRET_PARAMS = ['token', 'password', 'channel_key', 'secret', 'access_token'];

/**
 * Only in URLs: an OpenID Connect callback's authorization code (single use and
 * bound to its PKCE verifier, but a credential until redeemed). Not a redact
 * path, where `code` names error codes.
 */
const URL_ONLY_SECRET_PARAMS = ['code'];

/** pino redact paths: secret-named fields up to two levels deep, and auth headers. */
export const REDACT_PATHS = [
  ...SECRET_PARAMS,
  ...SECRET_PARAMS.map((p) => `*.${p}`),
  ...SECRET_PARAMS.map((p) => `*.*.${p}`),
  'passwordHash',
  '*.passwordHash',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
];

/** Replaces the values of secret query parameters in a URL or path. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const path = url.slice(0, queryStart);
  const query = url.slice(queryStart + 1);
  const redacted = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq === -1 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // A malformed escape is kept as-is; it is still compared below.
      }
      const lower = name.toLowerCase();
      return (SECRET_PARAMS.includes(lower) || URL_ONLY_SECRET_PARAMS.includes(lower)) && eq !== -1 ? `${rawName}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${redacted}`;
}
