import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, freePort } from '@hangar/infra';
import { RunningHangar, apiClient, fixturesDir, sharedHangar, startHangar, testInfrastructure, uniqueName } from '@hangar/testing';
import { OtlpReceiver, ReceivedSpan } from './otlp-receiver';
import { WebhookReceiver, eventually } from './webhook-receiver';

const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;

/**
 * One upload followed through every process it touches, as an operator's
 * Jaeger would show it: the services export OTLP/HTTP JSON to a receiver
 * this test runs, the package is parsed by a separate parse-workers process
 * (the Deployment of deploy/k8s), and a webhook receiver gets the call the
 * upload causes. The spans must form one trace, rooted at the gateway's
 * request, with every parent present.
 */
describe('tracing one upload', () => {
  const otlp = new OtlpReceiver();
  const hooks = new WebhookReceiver();
  const infra = testInfrastructure();
  const prefix = uniqueName('e2e-trace');
  const bucket = uniqueName('e2e-trace');
  const webhookSecretKey = 'e2e-webhook-secret-key-0123456789abcdef';
  let hangar: RunningHangar;
  let workers: ChildProcess | undefined;
  let workersOutput = '';

  const otelEnv = () => ({
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    // Exported within a fraction of a second, so the test need not wait 5 s per hop.
    OTEL_BSP_SCHEDULE_DELAY: '100',
  });

  beforeAll(async () => {
    await otlp.start();
    await hooks.start();
    hangar = await startHangar({
      ...otelEnv(),
      PARSE_WORKER_ENABLED: 'false',
      NATS_SUBJECT_PREFIX: prefix,
      S3_BUCKET: bucket,
      HANGAR_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_SECRET_KEY: webhookSecretKey,
      WEBHOOK_POLL_MS: '100',
    });
    const metricsPort = await freePort();
    workers = spawn(process.execPath, [path.join(REPO_ROOT, 'services', 'releases', 'dist', 'main.js')], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH,
        ...otelEnv(),
        RELEASES_MODE: 'parse-workers',
        METRICS_PORT: String(metricsPort),
        NATS_URL: infra.natsUrl,
        NATS_SUBJECT_PREFIX: prefix,
        S3_ENDPOINT: infra.s3.endpoint,
        S3_ACCESS_KEY: infra.s3.accessKey,
        S3_SECRET_KEY: infra.s3.secretKey,
        S3_BUCKET: bucket,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    workers.stdout?.on('data', (d: Buffer) => (workersOutput += d.toString()));
    workers.stderr?.on('data', (d: Buffer) => (workersOutput += d.toString()));
    await eventually(
      async () => (await fetch(`http://127.0.0.1:${metricsPort}/healthz`).then((r) => r.status, () => 0)) === 200,
      30_000,
      `the parse workers healthy (${workersOutput})`,
    );
  });

  afterAll(async () => {
    if (workers && workers.exitCode === null) {
      const exited = new Promise((resolve) => workers!.once('exit', resolve));
      workers.kill('SIGTERM');
      await exited;
    }
    await hangar?.stop();
    await hooks.stop();
    await otlp.stop();
  });

  it('when a package is uploaded with a webhook registered, then its spans form one trace from the gateway through the parse worker and the records to the webhook call, none orphaned', async () => {
    const api = apiClient(hangar.baseUrl);
    const token = hangar.adminToken;
    const app = (await api('POST', '/api/apps', { token, json: { name: uniqueName('Traced') } })).body;
    const scheme = (await api('POST', `/api/apps/${app.id}/schemes`, { token, json: { name: 'Beta' } })).body;
    const channel = (await api('POST', `/api/schemes/${scheme.id}/channels`, { token, json: { name: 'Android', device_type: 'Android' } })).body;
    const hook = (await api('POST', `/api/apps/${app.id}/webhooks`, { token, json: { url: hooks.url('/traced'), events: ['release.created'] } })).body;

    // The token in the query string: it must reach no span.
    const form = new FormData();
    form.append('channel_key', channel.slug);
    form.append('file', new Blob([fs.readFileSync(path.join(fixturesDir(), 'apps', 'android.apk'))]), 'android.apk');
    const res = await fetch(`${hangar.baseUrl}/api/apps/upload?token=${token}`, { method: 'POST', body: form });
    expect(res.status).toBe(201);

    const [call] = await hooks.waitFor('/traced', 1);
    const traceparent = String(call!.headers.traceparent ?? '');
    expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    const [, traceId, callerSpanId] = traceparent.split('-') as [string, string, string];

    // Spans arrive batch by batch from six processes: wait for the webhook's, then until nothing more comes.
    await eventually(() => otlp.trace(traceId).some((s) => s.spanId === callerSpanId), 15_000, 'the webhook span exported');
    // The gateway's request span ends first but its batch may come last on a loaded machine; so
    // may the consumer's, from another webhooks replica than the one that made the call.
    await eventually(() => otlp.trace(traceId).some((s) => !s.parentSpanId), 15_000, 'a root span exported');
    await eventually(() => otlp.trace(traceId).some((s) => s.service === 'hangar-webhooks' && s.name === 'process release.created'), 15_000, 'the consumer span exported');
    // Then until nothing more comes for a second (a 200 ms lull once ended the wait too early).
    let seen = -1;
    let quietSince = Date.now();
    await eventually(
      async () => {
        const now = otlp.trace(traceId).length;
        if (now !== seen) quietSince = Date.now();
        seen = now;
        return Date.now() - quietSince >= 1_000;
      },
      20_000,
      'the trace complete',
    );
    const spans = otlp.trace(traceId);
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const describe = (s: ReceivedSpan) => `${s.service}: ${s.name}`;
    const ancestry = (s: ReceivedSpan): string[] => {
      const chain: string[] = [];
      for (let at: ReceivedSpan | undefined = s; at; at = byId.get(at.parentSpanId)) chain.push(describe(at));
      return chain;
    };

    // One root: the gateway's request; every other span's parent is in the trace.
    const roots = spans.filter((s) => !s.parentSpanId);
    expect(roots.map(describe)).toEqual([expect.stringMatching(/^hangar-gateway: POST/)]);
    const root = roots[0]!;
    expect(root.kind).toBe(SERVER);
    expect(spans.filter((s) => s.parentSpanId && !byId.has(s.parentSpanId)).map(describe)).toEqual([]);

    // Every process the upload crosses took part (users only when the token's digest is not cached yet).
    expect([...new Set(spans.map((s) => s.service))]).toEqual(expect.arrayContaining(['hangar-gateway', 'hangar-releases', 'hangar-parse-workers', 'hangar-apps', 'hangar-webhooks']));

    // gateway → releases over gRPC (server span of CreateRelease under the gateway's client span).
    const createRelease = spans.find((s) => s.service === 'hangar-releases' && s.kind === SERVER && s.name.endsWith('/CreateRelease'));
    expect(createRelease).toBeDefined();
    expect(byId.get(createRelease!.parentSpanId)).toMatchObject({ service: 'hangar-gateway', kind: CLIENT });

    // releases → a parse worker over the NATS parse queue; the worker's S3 reads are its children.
    const parse = spans.find((s) => s.service === 'hangar-parse-workers' && s.name === 'parse package');
    expect(parse).toBeDefined();
    expect(byId.get(parse!.parentSpanId)).toMatchObject({ service: 'hangar-releases', name: 'parse request', kind: CLIENT });
    expect(ancestry(parse!)).toContain(describe(createRelease!));
    expect(spans.some((s) => s.service === 'hangar-parse-workers' && s.kind === CLIENT && s.parentSpanId === parse!.spanId)).toBe(true);

    // The records: the release inserted in MongoDB by releases, the channel read by apps, within the request.
    const insert = spans.find((s) => s.service === 'hangar-releases' && s.kind === CLIENT && s.name === 'insert releases');
    expect(insert && ancestry(insert)).toContain(describe(createRelease!));
    expect(spans.some((s) => s.service === 'hangar-apps' && s.kind === SERVER && ancestry(s).includes(describe(createRelease!)))).toBe(true);

    // The outbox: the relay's publish continues the write's trace, the webhooks service's consumer continues the publish.
    // With replicas two relays may publish the same event (JetStream keeps one by its id): the
    // consumer continues the publish whose message was kept, which need not be the first span.
    const publishes = spans.filter((s) => s.service === 'hangar-releases' && s.kind === PRODUCER && s.name === 'publish release.created');
    const consume = spans.find((s) => s.service === 'hangar-webhooks' && s.kind === CONSUMER && s.name === 'process release.created' && publishes.some((p) => p.spanId === s.parentSpanId));
    const consumers = spans.filter((s) => s.service === 'hangar-webhooks' && s.name === 'process release.created');
    expect({ found: consume !== undefined, publishes: publishes.map((p) => p.spanId), consumersOf: consumers.map((s) => s.parentSpanId) }).toMatchObject({ found: true });
    const publish = byId.get(consume!.parentSpanId)!;
    expect(ancestry(publish)).toContain(describe(createRelease!));

    // The webhook call: its span descends from that consumer, and the receiver saw that span as its parent.
    const deliver = byId.get(callerSpanId)!;
    expect(deliver).toMatchObject({ service: 'hangar-webhooks', name: 'webhook deliver', kind: CLIENT });
    expect(ancestry(deliver)).toEqual(expect.arrayContaining([describe(consume!), describe(publish!), describe(createRelease!), describe(root)]));

    // The gateway's access-log line of the upload leads to the trace.
    const gatewayLog = hangar.logOf('gateway').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(gatewayLog.find((l) => l.msg === 'request' && String(l.url).startsWith('/api/apps/upload'))).toMatchObject({ trace_id: traceId, span_id: root.spanId });

    // No secret in any exported span: the token sent in the query, the webhook's secret, the URL of the receiver's path.
    const exported = otlp.rawBodies.join('\n');
    for (const secret of [token, hook.secret, hooks.url('/traced')]) expect(exported).not.toContain(secret);
  });

  it('when a symbol server is asked with a credential in the path, then the span names the route template and the credential reaches no span', async () => {
    const token = hangar.adminToken;
    const res = await fetch(`${hangar.baseUrl}/debuginfod/${token}/buildid/0123456789abcdef0123456789abcdef01234567/debuginfo`);
    await res.arrayBuffer();
    const route = '/debuginfod/:credential/buildid/:build_id/:kind';
    await eventually(() => otlp.spans.some((s) => s.service === 'hangar-gateway' && s.kind === SERVER && s.attributes['http.route'] === route), 15_000, 'the symbol request span exported');
    const span = otlp.spans.find((s) => s.service === 'hangar-gateway' && s.kind === SERVER && s.attributes['http.route'] === route)!;
    expect(span.attributes['url.path']).toBe(route);
    expect(otlp.rawBodies.join('\n')).not.toContain(token);
  });
});

/**
 * Without an exporter no span is recorded and the auto-instrumentations are
 * not loaded (their cost: docs/performance.md), yet the trace context still
 * travels: a caller's traceparent is continued by the gateway, over gRPC, into
 * the outbox and NATS, to the webhook call; log lines carry its trace_id.
 */
describe('trace context without an exporter', () => {
  const hooks = new WebhookReceiver();
  let hangar: RunningHangar;

  beforeAll(async () => {
    await hooks.start();
    // No setting of its own: the worker's shared Hangar (its webhooks may call 127.0.0.1) serves.
    hangar = await sharedHangar();
  });

  afterAll(async () => {
    await hangar?.stop();
    await hooks.stop();
  });

  it("when an upload comes with a traceparent, then the webhook call it causes and every process's log lines of it carry that trace", async () => {
    const api = apiClient(hangar.baseUrl);
    const token = hangar.adminToken;
    const app = (await api('POST', '/api/apps', { token, json: { name: uniqueName('Untraced') } })).body;
    const scheme = (await api('POST', `/api/apps/${app.id}/schemes`, { token, json: { name: 'Beta' } })).body;
    const channel = (await api('POST', `/api/schemes/${scheme.id}/channels`, { token, json: { name: 'Android', device_type: 'Android' } })).body;
    expect((await api('POST', `/api/apps/${app.id}/webhooks`, { token, json: { url: hooks.url('/untraced'), events: ['release.created'] } })).status).toBe(201);

    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const form = new FormData();
    form.append('channel_key', channel.slug);
    form.append('file', new Blob([fs.readFileSync(path.join(fixturesDir(), 'apps', 'android.apk'))]), 'android.apk');
    const res = await fetch(`${hangar.baseUrl}/api/apps/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, traceparent: `00-${traceId}-00f067aa0ba902b7-00` },
      body: form,
    });
    expect(res.status).toBe(201);
    const requestId = res.headers.get('x-request-id');

    const [call] = await hooks.waitFor('/untraced', 1);
    // The same trace, a span of the webhooks service's own, not sampled (nothing was recorded).
    expect(String(call!.headers.traceparent ?? '')).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`));

    const linesOf = (name: string) =>
      hangar.logOf(name).split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
    // The shared Hangar's log holds other files' uploads too: this request's line is found by its id.
    const access = linesOf('gateway').find((l) => l.msg === 'request' && l.requestId === requestId);
    expect(String(access?.url)).toMatch(/^\/api\/apps\/upload/);
    expect(access).toMatchObject({ requestId, trace_id: traceId, span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
    // Whatever the services logged for this request, over gRPC, is in the same trace.
    const ofRequest = ['gateway', 'releases', 'apps'].flatMap((name) => linesOf(name)).filter((l) => l.requestId === requestId);
    expect(ofRequest.length).toBeGreaterThan(0);
    for (const line of ofRequest) expect(line).toMatchObject({ trace_id: traceId });
  });
});
