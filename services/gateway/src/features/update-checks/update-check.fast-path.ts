import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQuery, type ParsedUrlQuery } from 'node:querystring';
import { Logger, REQUEST_ID_HEADER, acceptRequestId } from '@hangar/logger';
import { Metrics, httpServerMetrics } from '@hangar/metrics';
import type { releases } from '@hangar/proto';
import { continueTrace } from '@hangar/telemetry';
import type { CachedUpdateChecks } from '../../clients/cached-update-checks';
import { publicBaseUrl } from '../../http/base-url';
import { TRUST_NOBODY, clientAddress, type TrustProxy } from '../../http/trusted-proxies';
import type { RecentlyRefused } from '../../limits/refused-addresses';
import { logAnswered } from '../../http/request-context.middleware';
import { readSessionCookie } from '../../http/session-cookie';
import { etagMatches, type RevalidatedBody } from '../../http/revalidated';
import { presentUpdateCheck } from '../../presenters/release.presenter';

export interface UpdateCheckFastPathOptions {
  updateChecks: CachedUpdateChecks;
  logger: Logger;
  publicBaseUrl?: string;
  /** `TRUSTED_PROXIES` compiled: whose X-Forwarded-Proto / -Host build the answer's URLs (as express's `trust proxy`). */
  trustProxy?: TrustProxy;
  metrics?: Metrics;
  /** Addresses refused by the channel-key limit lately: express answers them (429), not the held answer. */
  refused?: RecentlyRefused;
}

/** The path, and the route label express gives it in the metrics. */
const PATH = '/api/apps/update_check';

/**
 * In-app update checks answered before express, when the gateway already holds
 * the answer (every installed build polls this). Through express a
 * check cost about 310 µs of the gateway's CPU, bare Node answers a request
 * in about 55 (docs/performance.md): the middleware chain, the router and
 * express's response helpers were most of it, for a request that needs none
 * of them — no token, no body, one answer from memory.
 *
 * Taken only for what the express route would answer the same way: a GET of
 * exactly this path, no token or session (a caller's time zone changes the
 * answer), each parameter at most once and without NUL, a channel key, and an
 * answer held for exactly these parameters. Anything else, and any failure
 * while checking the held answer is current (a moved generation reloads it),
 * goes to express untouched: its route answers misses, tokens and refusals
 * in the contract's shape. Kept here as there: the request id, the access-log
 * line, the trace context, the route's metrics, ETag / 304.
 */
export function withUpdateCheckFastPath(app: RequestListener, options: UpdateCheckFastPathOptions): RequestListener {
  const series = options.metrics ? httpServerMetrics(options.metrics) : undefined;
  return (req, res) => {
    const query = fastQuery(req);
    const view = { baseUrl: publicBaseUrl(req, options.publicBaseUrl, options.trustProxy ?? TRUST_NOBODY), timeZone: undefined };
    if (!query || !options.updateChecks.holds(query, view) || options.refused?.has(clientAddress(req, options.trustProxy ?? TRUST_NOBODY))) {
      app(req, res);
      return;
    }
    const started = process.hrtime.bigint();
    const requestId = acceptRequestId(req.headers[REQUEST_ID_HEADER]);
    const present = (answer: releases.UpdateCheck) => presentUpdateCheck(answer, view.baseUrl, undefined);
    void continueTrace('GET request', (key) => firstValue(req.headers[key]), { requestId }, async () => {
      let body: RevalidatedBody;
      try {
        body = await options.updateChecks.answer(query, { ...view, present });
      } catch {
        app(req, res); // the route loads again and answers the failure as it always does
        return;
      }
      const status = send(req, res, body, requestId);
      if (series) {
        const labels = { method: 'GET', route: PATH, status: String(status) };
        series.requests.inc(labels);
        series.duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      }
      logAnswered(options.logger, { requestId, method: 'GET', url: req.url ?? PATH, status, started });
    });
  };
}

/** The check's parameters when this request may take the fast path; undefined when express must answer it. */
function fastQuery(req: IncomingMessage): releases.CheckForUpdateRequest | undefined {
  if (req.method !== 'GET' || !req.url?.startsWith(PATH)) return undefined;
  const rest = req.url.slice(PATH.length);
  if (rest !== '' && !rest.startsWith('?')) return undefined;
  if (req.headers.authorization || (req.headers.cookie && readSessionCookie(req))) return undefined;
  // Express's own query parser ('simple': node:querystring), so both read the same values.
  const parsed = parseQuery(rest.slice(1));
  if (parsed['token'] !== undefined) return undefined;
  const channelKey = once(parsed, 'channel_key');
  const bundleId = once(parsed, 'bundle_id');
  const releaseVersion = once(parsed, 'release_version');
  const buildVersion = once(parsed, 'build_version');
  const releaseHash = once(parsed, 'release_hash');
  if ([channelKey, bundleId, releaseVersion, buildVersion, releaseHash].some((value) => value === null)) return undefined;
  if (!channelKey?.trim()) return undefined;
  return { channelKey, bundleId: bundleId ?? '', releaseVersion: releaseVersion ?? '', buildVersion: buildVersion ?? '', releaseHash: releaseHash ?? '' };
}

/** A parameter given at most once and free of NUL; null when express would refuse it. */
function once(query: ParsedUrlQuery, name: string): string | undefined | null {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.includes('\0')) return null;
  return value;
}

/** Writes the answer as sendRevalidatedBody does (http/revalidated.ts), in one writeHead; answers the status. */
function send(req: IncomingMessage, res: ServerResponse, { json, etag }: RevalidatedBody, requestId: string): number {
  const headers = { 'X-Request-Id': requestId, ETag: etag, 'Cache-Control': 'private, no-cache' };
  if (etagMatches(req.headers['if-none-match'], etag)) {
    res.writeHead(304, headers).end();
    return 304;
  }
  res.writeHead(200, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) }).end(json);
  return 200;
}

const firstValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
