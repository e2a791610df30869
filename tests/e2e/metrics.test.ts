import fs from 'node:fs';
import path from 'node:path';
import { RunningHangar, apiClient, eventually as waitUntil, fixturesDir, sharedHangar, uniqueName, validateResponse } from '@hangar/testing';

/**
 * Every process serves Prometheus metrics on its own port (METRICS_PORT; the
 * launcher records it in run/<name>.metrics-port, run/<name>.<i>.metrics-port
 * for further replicas, whose counts are summed here as Prometheus would). After an upload, some
 * reads and some errors, each answers with its named series, labelled by
 * route patterns, RPC names and status codes — never by an id or a secret.
 *
 * On the worker's shared Hangar, whose counters hold what the files before this one did: each count
 * is read as what it grew by from a scrape taken before this file's requests (`grown`), and the
 * labels of everything every file did are checked for ids and secrets.
 */

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The text exposition format, one sample per line (comments skipped). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) throw new Error(`unreadable metrics line: ${line}`);
    const labels: Record<string, string> = {};
    for (const m of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[m[1]!] = m[2]!.replace(/\\(.)/g, '$1');
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

const PROCESSES = ['gateway', 'users', 'apps', 'releases', 'debug-files', 'webhooks'] as const;
type ProcessName = (typeof PROCESSES)[number];

describe('Prometheus metrics of every process', () => {
  let hangar: RunningHangar;
  let api: ReturnType<typeof apiClient>;
  let admin: string;
  let fresh: string;
  let slug: string;
  let appId: number;
  const apk = path.join(fixturesDir(), 'apps', 'android.apk');

  async function scrapeReplica(name: ProcessName, replica: number): Promise<{ status: number; contentType: string; text: string; samples: Sample[] }> {
    // A connection per scrape, as Prometheus's scrapes are to a process at rest: reusing one the
    // server is closing as idle failed as "other side closed" on a loaded machine.
    const res = await fetch(`http://127.0.0.1:${hangar.metricsPortOf(name, replica)}/metrics`, { headers: { connection: 'close' } });
    const text = await res.text();
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', text, samples: res.status === 200 ? parseExposition(text) : [] };
  }

  /**
   * Every replica of a process (HANGAR_E2E_REPLICAS), as Prometheus sums them:
   * a request was answered by one of them, which one is the proxy's and the
   * gRPC balancer's choice. Each replica's samples are kept, so totals add up.
   */
  async function scrape(name: ProcessName): Promise<{ text: string; samples: Sample[] }> {
    const all = await Promise.all(Array.from({ length: hangar.replicas }, (_, i) => scrapeReplica(name, i)));
    for (const one of all) expect(one.status).toBe(200);
    return { text: all.map((one) => one.text).join('\n'), samples: all.flatMap((one) => one.samples) };
  }

  const find = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
    samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  const total = (samples: Sample[], name: string, labels: Record<string, string> = {}) => find(samples, name, labels).reduce((sum, s) => sum + s.value, 0);

  /** Every process's samples before this file's requests. */
  const before = {} as Record<ProcessName, Sample[]>;
  /** What a series of process `of` grew by since `before`. */
  const grown = (of: ProcessName, samples: Sample[], name: string, labels: Record<string, string> = {}) => total(samples, name, labels) - total(before[of], name, labels);

  /** The value once `ok` holds of it, or the last one read when time runs out (the assertions after it say what is wrong). */
  async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
    let value!: T;
    await waitUntil(async () => ok((value = await read())), { timeoutMs, stepMs: 100 }).catch(() => undefined);
    return value;
  }

  beforeAll(async () => {
    hangar = await sharedHangar();
    api = apiClient(hangar.baseUrl);
    admin = hangar.adminToken;
    // The shared gateway knows the admin's token already (its token cache): a token first used after
    // the scrape below is authenticated by the users service, as every token is once.
    fresh = (await api('POST', '/api/users/me/tokens', { token: admin, json: { name: uniqueName('metrics') } })).body.token;
    for (const name of PROCESSES) before[name] = (await scrape(name)).samples;

    // An upload (streamed bytes, a parse, gRPC across every service, a release.created event).
    const form = new FormData();
    form.append('token', admin);
    form.append('name', `Metrics ${Date.now()}`);
    form.append('file', new Blob([fs.readFileSync(apk)]), 'android.apk');
    const res = await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', body: form });
    const text = await res.text();
    const uploaded = { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
    await validateResponse(hangar.baseUrl, 'POST', '/api/apps/upload', uploaded);
    expect(uploaded.status).toBe(201);
    slug = uploaded.body.channel.slug;
    appId = uploaded.body.app.id;

    // Reads, with ids and the channel key in their URLs.
    expect((await api('GET', `/api/apps/${appId}`, { token: admin })).status).toBe(200);
    expect((await api('GET', `/api/apps/versions?channel_key=${slug}`)).status).toBe(200);
    expect((await api('GET', `/api/debug_files?channel_key=${slug}`, { token: admin })).status).toBe(200);
    expect((await api('GET', `/api/apps/${appId}/webhooks`, { token: admin })).status).toBe(200);
    expect((await api('GET', `/api/users/me?token=${fresh}`)).status).toBe(200);
    // Errors: unknown id, bad token, unknown path.
    expect((await api('GET', '/api/apps/987654321', { token: admin })).status).toBe(404);
    expect((await api('GET', '/api/users/me', { token: 'hgr_not-a-real-token-0000000000' })).status).toBe(401);
    expect((await api('GET', `/api/no-such-thing/${appId}`)).status).toBe(404);
    // A delete: app.deleted travels to the consumers of releases and debug-files.
    expect((await api('DELETE', `/api/apps/${appId}`, { token: admin })).status).toBe(200);
  });

  afterAll(async () => {
    await hangar?.stop();
  });

  it.each(PROCESSES)('when %s is scraped, then /metrics of each replica answers in the Prometheus text format with the process metrics', async (name) => {
    for (let replica = 0; replica < hangar.replicas; replica++) {
      const { status, contentType, samples } = await scrapeReplica(name, replica);
      expect(status).toBe(200);
      expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(find(samples, 'process_cpu_user_seconds_total').length).toBe(1);
      expect(find(samples, 'nodejs_heap_size_used_bytes').length).toBe(1);
      expect((await fetch(`http://127.0.0.1:${hangar.metricsPortOf(name, replica)}/other`)).status).toBe(404);
    }
  });

  it('when the gateway is scraped, then requests are counted and timed by route pattern, and upload bytes by kind', async () => {
    const { samples } = await eventually(() => scrape('gateway'), ({ samples }) => grown('gateway', samples, 'hangar_http_requests_total', { route: '/api/apps/:id', method: 'DELETE' }) >= 1);
    expect(grown('gateway', samples, 'hangar_http_requests_total', { method: 'POST', route: '/api/apps/upload', status: '201' })).toBe(1);
    expect(grown('gateway', samples, 'hangar_http_requests_total', { method: 'GET', route: '/api/apps/:id', status: '200' })).toBe(1);
    expect(grown('gateway', samples, 'hangar_http_requests_total', { method: 'GET', route: '/api/apps/:id', status: '404' })).toBe(1);
    expect(grown('gateway', samples, 'hangar_http_requests_total', { method: 'GET', route: '/api/apps/versions', status: '200' })).toBe(1);
    expect(grown('gateway', samples, 'hangar_http_requests_total', { method: 'GET', route: '/api/users/me', status: '401' }) + grown('gateway', samples, 'hangar_http_requests_total', { route: 'unmatched', status: '401' })).toBeGreaterThanOrEqual(1);
    expect(grown('gateway', samples, 'hangar_http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(grown('gateway', samples, 'hangar_http_request_duration_seconds_count', { method: 'POST', route: '/api/apps/upload', status: '201' })).toBe(1);
    expect(find(samples, 'hangar_http_request_duration_seconds_bucket', { method: 'POST', route: '/api/apps/upload', status: '201', le: '+Inf' }).length).toBe(1);
    // The multipart body as it arrived: the file plus the form's framing and fields.
    const uploaded = grown('gateway', samples, 'hangar_upload_bytes_total', { kind: 'package' });
    expect(uploaded).toBeGreaterThanOrEqual(fs.statSync(apk).size);
    expect(uploaded).toBeLessThan(fs.statSync(apk).size + 8 * 1024);
    // The gateway as a gRPC client.
    expect(grown('gateway', samples, 'hangar_grpc_client_handled_total', { service: 'hangar.users.v1.UsersService', method: 'Authenticate', code: 'OK' })).toBeGreaterThanOrEqual(1);
    expect(grown('gateway', samples, 'hangar_grpc_client_handled_total', { service: 'hangar.users.v1.UsersService', method: 'Authenticate', code: 'UNAUTHENTICATED' })).toBe(1);
  });

  it('when the services are scraped, then every RPC is counted and timed by service, method and status code', async () => {
    const expected: Record<Exclude<ProcessName, 'gateway'>, [string, string, string]> = {
      users: ['hangar.users.v1.UsersService', 'Authenticate', 'UNAUTHENTICATED'],
      apps: ['hangar.apps.v1.AppsService', 'GetApp', 'NOT_FOUND'],
      releases: ['hangar.releases.v1.ReleasesService', 'CreateRelease', 'OK'],
      'debug-files': ['hangar.debug_files.v1.DebugFilesService', 'ListDebugFiles', 'OK'],
      webhooks: ['hangar.webhooks.v1.WebhooksService', 'ListWebhooks', 'OK'],
    };
    for (const [name, [service, method, code]] of Object.entries(expected)) {
      const { samples } = await scrape(name as ProcessName);
      const services = new Set(find(samples, 'hangar_grpc_server_handled_total').map((s) => s.labels.service));
      expect({ name, services: [...services].filter((s) => s !== 'grpc.health.v1.Health') }).toEqual({ name, services: [service] });
      expect({ name, method, code, count: grown(name as ProcessName, samples, 'hangar_grpc_server_handled_total', { service, method, code }) }).toEqual({ name, method, code, count: expect.any(Number) });
      expect(grown(name as ProcessName, samples, 'hangar_grpc_server_handled_total', { service, method, code })).toBeGreaterThanOrEqual(1);
      expect(grown(name as ProcessName, samples, 'hangar_grpc_server_handling_seconds_count', { service, method, code })).toBeGreaterThanOrEqual(1);
    }
  });

  it('when releases is scraped, then the package parse is timed by format and outcome', async () => {
    const { samples } = await scrape('releases');
    // At least: a parse a file before this one left running may end in this file's window too.
    expect(grown('releases', samples, 'hangar_package_parse_seconds_count', { format: 'apk', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(grown('releases', samples, 'hangar_package_parse_seconds_sum', { format: 'apk', outcome: 'ok' })).toBeGreaterThan(0);
  });

  it('when the consumers have run, then their outcomes and their lag are there, per consumer and event', async () => {
    // release.created (upload) in releases; app.deleted (the delete) in debug-files.
    const releases = await eventually(() => scrape('releases'), ({ samples }) => grown('releases', samples, 'hangar_event_consumer_processed_total', { event: 'release.created' }) >= 1);
    expect(grown('releases', releases.samples, 'hangar_event_consumer_processed_total', { event: 'release.created' })).toBeGreaterThanOrEqual(1);
    const debugFiles = await eventually(() => scrape('debug-files'), ({ samples }) => grown('debug-files', samples, 'hangar_event_consumer_processed_total', { event: 'app.deleted' }) >= 1);
    const processed = find(debugFiles.samples, 'hangar_event_consumer_processed_total', { event: 'app.deleted' });
    expect(processed.length).toBeGreaterThanOrEqual(1);
    expect(['done', 'skipped']).toContain(processed[0]!.labels.result);
    for (const name of ['apps', 'releases', 'debug-files', 'webhooks'] as const) {
      const { samples } = await scrape(name);
      const pending = find(samples, 'hangar_event_consumer_pending');
      expect({ name, consumers: pending.length > 0 }).toEqual({ name, consumers: true });
      for (const s of pending) expect(s.value).toBeGreaterThanOrEqual(0);
      // Present (0 until a redelivery happens) only once a redelivery is counted: the family is declared.
      expect((await scrape(name)).text).toContain('# TYPE hangar_event_consumer_redeliveries_total counter');
    }
  });

  it('when any series of any process is read, then no label carries a token, a channel key or an id', async () => {
    for (const name of PROCESSES) {
      const { samples } = await scrape(name);
      for (const sample of samples) {
        for (const [label, value] of Object.entries(sample.labels)) {
          const where = `${name} ${sample.name}{${label}="${value}"}`;
          expect({ where, token: value.includes(admin) || value.includes(fresh) || value.includes('hgr_not-a-real-token') }).toEqual({ where, token: false });
          expect({ where, channelKey: value.includes(slug) }).toEqual({ where, channelKey: false });
          // Numbers only where the label is one: HTTP status, bucket bounds, quantiles, versions.
          if (!['status', 'le', 'quantile', 'version', 'major', 'minor', 'patch'].includes(label)) {
            expect({ where, id: /(^|\/)\d+(\/|$)/.test(value) }).toEqual({ where, id: false });
          }
        }
      }
    }
  });
});
