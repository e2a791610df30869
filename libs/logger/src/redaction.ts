import { unescape as unescapeQueryComponent } from 'node:querystring';

/**
 * Secrets never reach a log line or a span: token, password and channel key
 * values are replaced wherever they appear — in objects (pino's redact paths),
 * in URLs' query strings and in the path segments that hold a credential
 * (symbol-server routes, install pages). One module for the access log, the
 * error handler's log, error messages and span attributes (libs/telemetry).
 *
 * Paths are redacted by the shape of the routes that read them, and query
 * strings after the parsing the gateway's router does (express 5's 'simple'
 * parser, node:querystring) — never by a pattern over the raw URL, which a
 * malformed query string (`token[a]=`, `a=1;token=`, `token+=`) walks around.
 */

export const REDACTED = '[REDACTED]';

/** Query and form parameter names whose values are secrets. */
export const SECRET_PARAMS = ['token', 'password', 'channel_key', 'secret', 'access_token'];

/**
 * Only in URLs: an OpenID Connect callback's authorization code (single use and
 * bound to its PKCE verifier, but a credential until redeemed), the install
 * page's signed download token `t`, a tester's unsubscribe `key`, presigned S3
 * signatures. Not redact paths, where `code` names error codes, nor fields
 * (`key` names storage objects in log lines).
 */
const URL_ONLY_SECRET_PARAMS = ['code', 't', 'key', 'x-amz-signature', 'x-amz-credential', 'x-amz-security-token', 'signature', 'refresh_token', 'id_token', 'client_secret', 'session', 'session_id'];

const SECRET_QUERY_NAMES = new Set([...SECRET_PARAMS, ...URL_ONLY_SECRET_PARAMS]);

/**
 * Words that, anywhere else in a parameter's name or value (`a=1;token=…`,
 * `x%255Btoken%255D=…`), leave doubt about what a reader of the query takes for a
 * secret: the whole query string is redacted then.
 */
const DOUBTFUL_WORDS = ['token', 'password', 'passwd', 'channel_key', 'secret', 'signature', 'credential', 'session', 'cookie'];

/** node:querystring's default limit: pairs past it are not parsed by the router, so they are not judged either. */
const MAX_QUERY_PAIRS = 1000;

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
  'headers.cookie',
  'headers["set-cookie"]',
];

/** A query component as node:querystring decodes it: `+` is a space, a bad escape is kept as it is. */
function decodeComponent(raw: string): string {
  return unescapeQueryComponent(raw.replace(/\+/g, ' '));
}

/** The name a parser sees first: `token` of `token[a]`, `token ` (`token+`), `TOKEN`. */
function topLevelName(decodedKey: string): string {
  const bracket = decodedKey.indexOf('[');
  return (bracket === -1 ? decodedKey : decodedKey.slice(0, bracket)).trim().toLowerCase();
}

/**
 * A query string (without its `?`) with the value of every secret parameter
 * replaced; the whole of it replaced when any part leaves doubt.
 */
export function redactQuery(query: string): string {
  if (query === '') return query;
  const pairs = query.split('&');
  if (pairs.length > MAX_QUERY_PAIRS) return REDACTED;
  const out: string[] = [];
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    const key = decodeComponent(rawKey);
    const name = topLevelName(key);
    if (SECRET_QUERY_NAMES.has(name)) {
      // The name as sent when it is only the name; otherwise (brackets, spaces) the name alone.
      out.push(`${key.trim().toLowerCase() === name ? rawKey : encodeURIComponent(name)}=${REDACTED}`);
      continue;
    }
    const text = `${key}=${eq === -1 ? '' : decodeComponent(pair.slice(eq + 1))}`.toLowerCase();
    if (DOUBTFUL_WORDS.some((word) => text.includes(word))) return REDACTED;
    out.push(pair);
  }
  return out.join('&');
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return segment.toLowerCase();
  }
}

type Shape = (segments: string[]) => number | undefined;

/**
 * Where each route that takes a credential in its path holds it, by prefix:
 * the index (in the segments after the prefix) of the credential, -1 for a
 * shape with none, undefined for a path of no route's shape (all of it is
 * redacted then). Segments compare decoded and in any case, as express matches.
 * services/gateway/src/features/symbols/, features/install/.
 */
const CREDENTIAL_SEGMENTS: Record<string, Shape> = {
  // /debuginfod/buildid/<id>/<kind>, /debuginfod/<credential>/buildid/<id>/<kind>
  debuginfod: (s) => (s.length === 3 && s[0] === 'buildid' ? -1 : s.length === 4 && s[1] === 'buildid' ? 0 : undefined),
  // /apple/dsym/<file>, /apple/unified/<a>/<b>/<kind>, and both with /<credential> first
  apple: (s) =>
    (s.length === 2 && s[0] === 'dsym') || (s.length === 4 && s[0] === 'unified') ? -1 : (s.length === 3 && s[1] === 'dsym') || (s.length === 5 && s[1] === 'unified') ? 0 : undefined,
  // /breakpad/<module>/<id>/<sym>, /breakpad/<credential>/<module>/<id>/<sym>; the same for /symbols
  breakpad: (s) => (s.length === 3 ? -1 : s.length === 4 ? 0 : undefined),
  symbols: (s) => (s.length === 3 ? -1 : s.length === 4 ? 0 : undefined),
  // /channels/<key>, /channels/<key>/unlock
  channels: (s) => (s.length === 1 || (s.length === 2 && s[1] === 'unlock') ? 0 : undefined),
};

/** A path (no query) with the credential segment of each route shape that has one replaced. */
export function redactPath(path: string): string {
  const segments = path.split('/');
  if (segments[0] !== '' || segments.length < 3) return path;
  const prefix = decodeSegment(segments[1]!);
  if (!Object.hasOwn(CREDENTIAL_SEGMENTS, prefix)) return path;
  const shape = CREDENTIAL_SEGMENTS[prefix]!;
  const after = segments.slice(2);
  // express matches with or without one trailing slash.
  const trailing = after.length > 1 && after[after.length - 1] === '';
  const judged = trailing ? after.slice(0, -1) : after;
  const at = judged.includes('') ? undefined : shape(judged.map(decodeSegment));
  if (at === -1) return path;
  const kept = at === undefined ? [REDACTED] : judged.map((segment, i) => (i === at ? REDACTED : segment));
  return ['', segments[1], ...kept].join('/') + (trailing && at !== undefined ? '/' : '');
}

/**
 * A URL or path with its credentials replaced: the credential segment of the
 * path (by route shape), secret query parameters (or the whole query when in
 * doubt), user info of an absolute URL; a fragment is dropped.
 */
export function redactUrl(url: string): string {
  let origin = '';
  let rest = url;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
  if (scheme) {
    origin = scheme[0].replace(/\/\/[^@/?#]*@/, '//');
    rest = url.slice(scheme[0].length);
  }
  const hash = rest.indexOf('#');
  if (hash !== -1) rest = rest.slice(0, hash);
  const queryStart = rest.indexOf('?');
  const path = queryStart === -1 ? rest : rest.slice(0, queryStart);
  const redactedPath = redactPath(path);
  if (queryStart === -1) return `${origin}${redactedPath}`;
  return `${origin}${redactedPath}?${redactQuery(rest.slice(queryStart + 1))}`;
}

/** URLs and paths inside free text (an error's message or stack), each redacted as redactUrl does. */
export function redactText(text: string): string {
  return text.replace(/(?:[a-z][a-z0-9+.-]*:\/\/[^\s"'<>()]*|(?<![\w.])\/[^\s"'<>()]+)/gi, (url) => redactUrl(url));
}
