import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { InvalidArgument, NotFound, PermissionDenied, Unimplemented } from '@hangar/errors';
import { EventBus, EventData, EventType, connectEventBus, createEnvelope, durableNameOf, publishEnvelope, streamNameFor, subjectOf } from '@hangar/events';
import { createGrpcServer, createServiceClient } from '@hangar/grpc';
import { createLogger } from '@hangar/logger';
import { Metrics } from '@hangar/metrics';
import { apps, releases, users, webhooks } from '@hangar/proto';
import { dropTestDatabases, eventually, metricTotal, testInfrastructure, uniqueName } from '@hangar/testing';
import { loadUsersConfig } from '../../users/src/config';
import { bootstrapAdmin } from '../../users/src/domain/bootstrap-admin';
import { RunningUsersService, startUsersService } from '../../users/src/users-service';
import { RunningAppsService, startAppsService } from '../../apps/src/apps-service';
import { loadAppsConfig } from '../../apps/src/config';
import { loadWebhooksConfig } from '../src/config';
import { RunningWebhooksService, startWebhooksService } from '../src/webhooks-service';
import { WEBHOOKS_DURABLE } from '../src/events/webhook-events.consumer';
import { PRIVATE_TARGET_FAILURE } from '../src/domain/http-sender';

/** A receiver on 127.0.0.1 that records every call and answers from a per-path plan. */
class Receiver {
  readonly calls: { path: string; headers: http.IncomingHttpHeaders; body: string; at: number }[] = [];
  private readonly plans = new Map<string, number[]>();
  private server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const path = req.url ?? '/';
      this.calls.push({ path, headers: req.headers, body, at: Date.now() });
      const plan = this.plans.get(path);
      res.statusCode = plan && plan.length > 0 ? plan.shift()! : 200;
      res.end();
    });
  });
  port = 0;
  async start() {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as AddressInfo).port;
  }
  stop = () => new Promise<void>((r) => this.server.close(() => r()));
  url = (path: string) => `http://127.0.0.1:${this.port}${path}`;
  /** Statuses answered to the next calls on this path (then 200). */
  plan(path: string, statuses: number[]) {
    this.plans.set(path, [...statuses]);
  }
  on = (path: string) => this.calls.filter((c) => c.path === path);
  async waitFor(path: string, count: number, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    while (this.on(path).length < count) {
      if (Date.now() > deadline) throw new Error(`${path}: ${this.on(path).length} of ${count} calls arrived`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return this.on(path);
  }
}

const verify = (body: string, header: unknown, secret: string) => header === `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/**
 * Webhooks against real NATS and FerretDB: the webhooks service with the
 * apps and users services it asks in-process, a stand-in releases service
 * answering GetRelease, and a receiver on 127.0.0.1. Events come from the
 * apps service's own writes or are published here, as the other services do.
 */
describe('webhooks', () => {
  const infra = testInfrastructure();
  const prefix = uniqueName('hooks-ct');
  const db = prefix.replace(/-/g, '_');
  const logger = createLogger({ service: 'hooks-test', level: 'warn', destination: new Writable({ write: (c, _e, d) => (process.env.DEBUG_LOGS && process.stderr.write(c), d()) }) });
  const receiver = new Receiver();
  let usersService: RunningUsersService;
  let appsService: RunningAppsService;
  let service: RunningWebhooksService;
  let fakeReleases: ReturnType<typeof createGrpcServer>;
  let usersClient: ReturnType<typeof createServiceClient<typeof users.UsersServiceDefinition>>;
  let client: ReturnType<typeof createServiceClient<typeof apps.AppsServiceDefinition>>;
  let hooks: ReturnType<typeof createServiceClient<typeof webhooks.WebhooksServiceDefinition>>;
  let bus: EventBus;
  const admin = { userId: 0, role: 'admin' };
  const metrics = new Metrics({ defaultMetrics: false });
  const attempts = (outcome: string) => metricTotal(metrics, 'hangar_webhook_deliveries_total', { outcome });
  const releasesById = new Map<number, releases.Release>();

  beforeAll(async () => {
    await receiver.start();
    // HANGAR_QUERY_LOG_DIR and databases named like the services': the plan check (tests/plans) sees the webhooks service's queries here.
    const common = { MONGO_URL: infra.mongoUrl, NATS_URL: infra.natsUrl, NATS_SUBJECT_PREFIX: prefix, GRPC_LISTEN: '127.0.0.1:0', SHUTDOWN_TIMEOUT_MS: '3000', HANGAR_QUERY_LOG_DIR: process.env.HANGAR_QUERY_LOG_DIR };
    usersService = await startUsersService(loadUsersConfig({ ...common, MONGO_DB: `${db}_users` }), logger);
    usersClient = createServiceClient(users.UsersServiceDefinition, `127.0.0.1:${usersService.port}`);
    const boot = await bootstrapAdmin(usersService.deps, { email: 'root@example.com', password: 'bootstrap-pass', token: 'bootstrap-token-0123456789' }, logger);
    if (!boot.created) throw new Error('expected a bootstrap admin');
    admin.userId = boot.userId;

    fakeReleases = createGrpcServer({ logger });
    const unimplemented = Object.fromEntries(
      Object.keys(releases.ReleasesServiceDefinition.methods).map((name) => [name, async () => Promise.reject(new Unimplemented(name))]),
    );
    fakeReleases.add(releases.ReleasesServiceDefinition, {
      ...unimplemented,
      async getRelease(req: releases.GetReleaseRequest) {
        const release = releasesById.get(req.id);
        if (!release) throw new NotFound(`Release ${req.id} not found`);
        return release;
      },
    } as unknown as releases.ReleasesServiceImplementation);
    const releasesPort = await fakeReleases.listen('127.0.0.1:0');

    appsService = await startAppsService(loadAppsConfig({ ...common, MONGO_DB: `${db}_apps`, USERS_GRPC_TARGET: `127.0.0.1:${usersService.port}` }), logger);
    client = createServiceClient(apps.AppsServiceDefinition, `127.0.0.1:${appsService.port}`);
    service = await startWebhooksService(
      loadWebhooksConfig({
        ...common,
        MONGO_DB: `${db}_webhooks`,
        APPS_GRPC_TARGET: `127.0.0.1:${appsService.port}`,
        RELEASES_GRPC_TARGET: `127.0.0.1:${releasesPort}`,
        PUBLIC_BASE_URL: 'https://hangar.example.com',
        WEBHOOK_SECRET_KEY: 'component-test-webhook-key-0123456789',
        HANGAR_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
        WEBHOOK_RETRY_BASE_MS: '200',
        WEBHOOK_POLL_MS: '100',
        WEBHOOK_TIMEOUT_MS: '2000',
        WEBHOOK_MAX_ATTEMPTS: '4',
      }),
      logger,
      metrics,
    );
    hooks = createServiceClient(webhooks.WebhooksServiceDefinition, `127.0.0.1:${service.port}`);
    bus = await connectEventBus(infra.natsUrl, 'hooks-test', logger);
  });

  afterAll(async () => {
    await bus?.nc.drain();
    // Stopped first: the dispatcher writes every 100 ms, and would bring a dropped database back.
    await service?.stop();
    await appsService?.stop();
    await usersService?.stop();
    await dropTestDatabases([`${db}_webhooks`, `${db}_apps`, `${db}_users`]);
    await fakeReleases?.shutdown(1_000);
    await receiver.stop();
  });

  let n = 0;
  async function newUser(role: 'admin' | 'developer' | 'member' = 'developer') {
    n += 1;
    const user = await usersClient.createUser({ actor: admin, username: `hooks-user-${n}`, email: `hooks-user-${n}@example.com`, password: 'password-123', role });
    return { userId: user.id, role: user.role };
  }

  async function appWithTree(newBuildCallout = true) {
    const app = await client.createApp({ actor: admin, name: uniqueName('hooked') });
    const scheme = await client.createScheme({ actor: admin, appId: app.id, name: 'Beta', newBuildCallout });
    const channel = await client.createChannel({ actor: admin, schemeId: scheme.id, name: 'Android', deviceType: 'android' });
    return { app, scheme, channel };
  }

  const publish = <T extends EventType>(type: T, data: EventData<T>) => {
    const envelope = createEnvelope(type, data, 'test');
    return publishEnvelope(bus.js, envelope, { prefix }).then(() => envelope);
  };

  /**
   * Waits until this service's consumer of `type` has handled every message published so far
   * (none undelivered, none awaiting its ack): whatever deliveries those events make exist by
   * then, so a webhook without one was never going to be called.
   */
  async function eventsHandled(type: EventType): Promise<void> {
    const durable = durableNameOf(WEBHOOKS_DURABLE, type);
    const info = () => bus.jsm.consumers.info(streamNameFor(prefix), durable);
    await eventually(
      async () => {
        const { num_pending, num_ack_pending } = await info();
        return num_pending === 0 && num_ack_pending === 0;
      },
      { timeoutMs: 15_000, what: `${durable} to drain`, explain: async () => JSON.stringify(await info()) },
    );
  }

  /** Waits until a delivery reaches a final state: no attempt of it is due after that. */
  async function settled(webhookId: number, state: 'delivered' | 'failed'): Promise<void> {
    const deliveries = service.connection.collection('webhook_deliveries');
    await eventually(async () => (await deliveries.findOne({ webhookId }))?.state === state, { timeoutMs: 15_000, what: `the delivery to be ${state}` });
  }

  let releaseSeq = 90_000;
  function fakeRelease(appId: number, schemeId: number, channelId: number): releases.Release {
    releaseSeq += 1;
    const release: releases.Release = {
      id: releaseSeq, version: 3, appId, schemeId, channelId, appName: 'Demo', bundleId: 'com.example.demo', releaseVersion: '1.2.3', buildVersion: '45',
      source: 'fastlane', branch: 'main', gitCommit: 'abc123', ciUrl: 'https://ci.example.com/1', size: 1234, platform: 'Android', deviceType: 'Phone',
      releaseType: 'debug', minOsVersion: '21', changelog: [{ message: 'Fixed it', author: '', email: '', date: '' }], customFields: [], hasIcon: false,
      fileExtension: 'apk', createdAtMs: Date.parse('2026-01-02T03:04:05.678Z'), metadataJson: '{}', sha256: '', mandatory: false, downloadCount: 0,
    };
    releasesById.set(release.id, release);
    return release;
  }

  describe('management', () => {
    it('when a webhook is created, then the secret is answered once, stored encrypted, and never shown again', async () => {
      const { app } = await appWithTree();
      const created = await hooks.createWebhook({ actor: admin, appId: app.id, url: receiver.url('/crud'), secret: '', events: ['release.created', 'app.deleted'], format: '' });
      expect(created.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
      expect(created.webhook).toMatchObject({ appId: app.id, url: receiver.url('/crud'), events: ['release.created', 'app.deleted'] });
      const stored = await service.connection.collection('webhooks').findOne({ _id: created.webhook!.id as never });
      expect(JSON.stringify(stored)).not.toContain(created.secret);
      const got = await hooks.getWebhook({ actor: admin, id: created.webhook!.id });
      const listed = await hooks.listWebhooks({ actor: admin, appId: app.id });
      expect(JSON.stringify([got, listed])).not.toContain(created.secret);
      expect(listed.webhooks.map((w) => w.id)).toEqual([created.webhook!.id]);

      const chosen = await hooks.createWebhook({ actor: admin, appId: app.id, url: receiver.url('/crud2'), secret: 'my-own-secret-123', events: [], format: '' });
      expect(chosen.secret).toBe('my-own-secret-123');
    });

    it('when a webhook is updated, then only the fields sent change; when deleted, it is gone', async () => {
      const { app } = await appWithTree();
      const { webhook } = await hooks.createWebhook({ actor: admin, appId: app.id, url: receiver.url('/u1'), secret: '', events: ['app.deleted'], format: '' });
      const moved = await hooks.updateWebhook({ actor: admin, id: webhook!.id, url: receiver.url('/u2'), events: [], updateEvents: false });
      expect(moved).toMatchObject({ url: receiver.url('/u2'), events: ['app.deleted'] });
      const all = await hooks.updateWebhook({ actor: admin, id: webhook!.id, events: [], updateEvents: true });
      expect(all).toMatchObject({ url: receiver.url('/u2'), events: [] });
      await hooks.deleteWebhook({ actor: admin, id: webhook!.id });
      await expect(hooks.getWebhook({ actor: admin, id: webhook!.id })).rejects.toBeInstanceOf(NotFound);
    });

    it('when the URL is private, not http(s), or an event is unknown, then InvalidArgument names the field and nothing is stored', async () => {
      const { app } = await appWithTree();
      for (const [url, events, field] of [
        ['http://10.1.2.3/hook', [], 'url'],
        ['http://192.168.0.10/hook', [], 'url'],
        ['ftp://127.0.0.1/hook', [], 'url'],
        [receiver.url('/x'), ['release.created', 'user.deleted'], 'events'],
        [receiver.url('/x'), ['nope'], 'events'],
      ] as [string, string[], string][]) {
        const err = await hooks.createWebhook({ actor: admin, appId: app.id, url, secret: '', events, format: '' }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(InvalidArgument);
        expect(Object.keys((err as InvalidArgument).entry ?? {})).toEqual([field]);
      }
      expect((await hooks.listWebhooks({ actor: admin, appId: app.id })).webhooks).toEqual([]);
    });

    it('when a developer (not an app admin) manages webhooks, then PermissionDenied', async () => {
      const { app } = await appWithTree();
      const dev = await newUser('developer');
      await client.addCollaborator({ actor: admin, appId: app.id, userId: dev.userId, role: 'developer' });
      const { webhook } = await hooks.createWebhook({ actor: admin, appId: app.id, url: receiver.url('/perm'), secret: '', events: [], format: '' });
      await expect(hooks.listWebhooks({ actor: dev, appId: app.id })).rejects.toBeInstanceOf(PermissionDenied);
      await expect(hooks.createWebhook({ actor: dev, appId: app.id, url: receiver.url('/perm'), secret: '', events: [], format: '' })).rejects.toBeInstanceOf(PermissionDenied);
      await expect(hooks.getWebhook({ actor: dev, id: webhook!.id })).rejects.toBeInstanceOf(PermissionDenied);
      await expect(hooks.listDeliveries({ actor: dev, webhookId: webhook!.id })).rejects.toBeInstanceOf(PermissionDenied);
    });

    it('when the test endpoint calls a private target that fails, then a closed port and an open one answering 404 look the same', async () => {
      const { app } = await appWithTree();
      const closed = http.createServer();
      await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
      const closedPort = (closed.address() as AddressInfo).port;
      await new Promise<void>((r) => closed.close(() => r()));
      receiver.plan('/missing', [404]);
      const answers = [];
      for (const url of [`http://127.0.0.1:${closedPort}/x`, receiver.url('/missing')]) {
        const { webhook } = await hooks.createWebhook({ actor: admin, appId: app.id, url, secret: '', events: [], format: '' });
        const { statusCode, success, error } = await hooks.testWebhook({ actor: admin, id: webhook!.id });
        answers.push({ statusCode, success, error });
      }
      expect(receiver.on('/missing')).toHaveLength(1);
      expect(answers).toEqual([
        { statusCode: 0, success: false, error: PRIVATE_TARGET_FAILURE },
        { statusCode: 0, success: false, error: PRIVATE_TARGET_FAILURE },
      ]);
    });

    it('when the test endpoint is called, then a signed webhook.test arrives and the attempt is in the log', async () => {
      const { app } = await appWithTree();
      const { webhook, secret } = await hooks.createWebhook({ actor: admin, appId: app.id, url: receiver.url('/ping'), secret: '', events: ['app.deleted'], format: '' });
      const delivery = await hooks.testWebhook({ actor: admin, id: webhook!.id });
      expect(delivery).toMatchObject({ webhookId: webhook!.id, event: 'webhook.test', attempt: 1, statusCode: 200, success: true, error: '' });
      const [call] = receiver.on('/ping');
      expect(verify(call!.body, call!.headers['x-hangar-signature-256'], secret)).toBe(true);
      expect(JSON.parse(call!.body)).toMatchObject({ event: 'webhook.test', app: { id: app.id, name: app.name }, webhook: { id: webhook!.id } });
      expect(call!.headers['x-hangar-delivery']).toBe(delivery.deliveryId);
      expect((await hooks.listDeliveries({ actor: admin, webhookId: webhook!.id })).deliveries).toEqual([delivery]);
    });
  });

  describe('new-build callout', () => {
    it('when release.created arrives for a scheme with new_build_callout, then every matching webhook gets the signed release', async () => {
      const { app, scheme, channel } = await appWithTree(true);
      const all = await hooks.createWebhook({ actor: admin, appId: app.id, url: receiver.url('/nb-all'), secret: '', events: [], format: '' });
      const only = await hooks.createWebhook({ actor: admin, appId: app.id, url: receiver.url('/nb-only'), secret: '', events: ['release.created'], format: '' });
      await hooks.createWebhook({ actor: admin, appId: app.id, url: receiver.url('/nb-other'), secret: '', events: ['app.deleted'], format: '' });
      const release = fakeRelease(app.id, scheme.id, channel.id);
      const envelope = await publish('release.created', {
        release_id: release.id, app_id: app.id, scheme_id: scheme.id, channel_id: channel.id, version: 3, bundle_id: 'com.example.demo', release_version: '1.2.3', build_version: '45', platform: 'Android',
      });
      const [call] = await receiver.waitFor('/nb-all', 1);
      await receiver.waitFor('/nb-only', 1);
      expect(verify(call!.body, call!.headers['x-hangar-signature-256'], all.secret)).toBe(true);
      expect(verify(receiver.on('/nb-only')[0]!.body, receiver.on('/nb-only')[0]!.headers['x-hangar-signature-256'], only.secret)).toBe(true);
      expect(call!.headers).toMatchObject({ 'content-type': 'application/json', 'x-hangar-event': 'release.created', 'x-hangar-attempt': '1' });
      const body = JSON.parse(call!.body);
      expect(Object.keys(body).slice(0, 2)).toEqual(['event', 'delivered_at']);
      expect(body).toMatchObject({
        event: 'release.created',
        event_id: envelope.id,
        app: { id: app.id, name: app.name },
        scheme: { id: scheme.id, name: 'Beta' },
        channel: { slug: channel.slug, name: 'Android', device_type: 'android' },
        release: {
          id: release.id, version: 3, release_version: '1.2.3', build_version: '45', platform: 'Android', changelog: [{ message: 'Fixed it' }],
          release_url: `https://hangar.example.com/releases/${release.id}`,
          install_url: `https://hangar.example.com/api/releases/${release.id}/download`,
          qrcode_url: `https://hangar.example.com/api/releases/${release.id}/qrcode`,
          created_at: '2026-01-02T03:04:05.678+00:00',
        },
      });
      expect(body.delivered_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
      await eventsHandled('release.created');
      expect(await service.connection.collection('webhook_deliveries').countDocuments({ appId: app.id })).toBe(2);
      expect(receiver.on('/nb-other')).toEqual([]);
    });

    it('when the scheme has new_build_callout off, then no webhook is called', async () => {
      const { app, scheme, channel } = await appWithTree(false);
      await hooks.createWebhook({ actor: admin, appId: app.id, url: receiver.url('/nb-off'), secret: '', events: [], format: '' });
      const release = fakeRelease(app.id, scheme.id, channel.id);
      await publish('release.created', { release_id: release.id, app_id: app.id, scheme_id: scheme.id, channel_id: channel.id, version: 1, bundle_id: 'x', release_version: '1', build_version: '1', platform: 'Android' });
      await eventsHandled('release.created');
      expect(receiver.on('/nb-off')).toEqual([]);
      expect(await service.connection.collection('webhook_deliveries').countDocuments({ appId: app.id })).toBe(0);
    });
  });

  describe('reliability', () => {
    it('when the receiver answers 500 twice then 200, then three attempts are logged with one delivery id', async () => {
      const { app, scheme } = await appWithTree();
      const { webhook, secret } = await hooks.createWebhook({ actor: admin, appId: app.id, url: receiver.url('/flaky'), secret: '', events: ['scheme.deleted'], format: '' });
      const before = { success: await attempts('success'), failure: await attempts('failure') };
      receiver.plan('/flaky', [500, 500]);
      await client.deleteScheme({ actor: admin, id: scheme.id });
      const calls = await receiver.waitFor('/flaky', 3);
      expect(calls.map((c) => c.headers['x-hangar-attempt'])).toEqual(['1', '2', '3']);
      expect(new Set(calls.map((c) => c.headers['x-hangar-delivery'])).size).toBe(1);
      for (const c of calls) expect(verify(c.body, c.headers['x-hangar-signature-256'], secret)).toBe(true);
      // Backoff doubles: each retry waits at least its delay (200 ms, then 400 ms). Floors, not a
      // comparison of the two measured gaps, which a loaded machine can stretch either way.
      expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(200);
      expect(calls[2]!.at - calls[1]!.at).toBeGreaterThanOrEqual(400);
      // Delivered: the success is recorded, so no attempt of it is due again.
      await settled(webhook!.id, 'delivered');
      const log = await hooks.listDeliveries({ actor: admin, webhookId: webhook!.id, page: { page: 1, perPage: 10 } });
      expect(log.total).toBe(3);
      expect(log.deliveries.map((d) => [d.attempt, d.statusCode, d.success])).toEqual([
        [3, 200, true],
        // The receiver is on loopback (allowed by HANGAR_WEBHOOK_ALLOWED_HOSTS): a failure there carries no status or socket detail.
        [2, 0, false],
        [1, 0, false],
      ]);
      expect(log.deliveries[1]!.error).toBe(PRIVATE_TARGET_FAILURE);
      expect(receiver.on('/flaky')).toHaveLength(3);
      // Other tests' deliveries may be attempted meanwhile: at least this one's attempts are counted.
      expect(await attempts('success')).toBeGreaterThanOrEqual(before.success + 1);
      expect(await attempts('failure')).toBeGreaterThanOrEqual(before.failure + 2);
    });

    it('when a webhook\'s format changes while a delivery is being retried, then the later attempts post the new format and an unknown format is refused', async () => {
      const { app, scheme } = await appWithTree();
      const { webhook } = await hooks.createWebhook({ actor: admin, appId: app.id, url: receiver.url('/reformat'), secret: '', events: ['scheme.deleted'], format: '' });
      expect(webhook!.format).toBe('generic');
      const refused = await hooks.updateWebhook({ actor: admin, id: webhook!.id, events: [], updateEvents: false, format: 'irc' }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(InvalidArgument);
      expect((refused as InvalidArgument).entry).toEqual({ format: [expect.stringContaining('slack')] });
      // Failing until the format has changed (4 attempts at most, 200 ms then 400, 800 apart): the
      // second attempt may leave before the change lands, the last one cannot.
      receiver.plan('/reformat', [500, 500, 500]);
      await client.deleteScheme({ actor: admin, id: scheme.id });
      const [first] = await receiver.waitFor('/reformat', 1);
      expect(JSON.parse(first!.body)).toMatchObject({ event: 'scheme.deleted' });
      const changed = await hooks.updateWebhook({ actor: admin, id: webhook!.id, events: [], updateEvents: false, format: 'slack' });
      expect(changed.format).toBe('slack');
      const calls = await receiver.waitFor('/reformat', 4);
      const last = JSON.parse(calls[3]!.body);
      expect(new Set(calls.map((c) => c.headers['x-hangar-delivery'])).size).toBe(1);
      expect(last.event).toBeUndefined();
      expect(last.blocks[0]).toMatchObject({ type: 'section', text: { type: 'mrkdwn', text: expect.stringContaining(`${app.name}: scheme.deleted`) } });
    });

    it('when the receiver never succeeds, then attempts stop at WEBHOOK_MAX_ATTEMPTS', async () => {
      const { app, scheme } = await appWithTree();
      const { webhook } = await hooks.createWebhook({ actor: admin, appId: app.id, url: receiver.url('/down'), secret: '', events: [], format: '' });
      const gaveUpBefore = await attempts('gave_up');
      receiver.plan('/down', [503, 503, 503, 503, 503, 503]);
      await client.deleteScheme({ actor: admin, id: scheme.id });
      await receiver.waitFor('/down', 4);
      // Failed is final: no attempt of it is due again, so the four calls are all there will be.
      await settled(webhook!.id, 'failed');
      expect(receiver.on('/down')).toHaveLength(4);
      // Only this test's receiver never answers 2xx: its last attempt is the one given up (counted
      // just after the delivery is marked failed).
      await eventually(async () => (await attempts('gave_up')) > gaveUpBefore, { what: 'the given-up attempt to be counted' });
      expect(await attempts('gave_up')).toBe(gaveUpBefore + 1);
    });

    it('when the same event is delivered twice by NATS (another message id), then the webhook is called once', async () => {
      const { app, scheme } = await appWithTree();
      const { webhook } = await hooks.createWebhook({ actor: admin, appId: app.id, url: receiver.url('/twice'), secret: '', events: ['scheme.deleted'], format: '' });
      const envelope = createEnvelope('scheme.deleted', { app_id: app.id, scheme_id: scheme.id }, 'test');
      const subject = subjectOf('scheme.deleted', prefix);
      await bus.js.publish(subject, JSON.stringify(envelope), { msgID: randomUUID() });
      await bus.js.publish(subject, JSON.stringify(envelope), { msgID: randomUUID() });
      await receiver.waitFor('/twice', 1);
      // Both messages handled and the one delivery made delivered: nothing more can call it.
      await eventsHandled('scheme.deleted');
      await settled(webhook!.id, 'delivered');
      expect(receiver.on('/twice')).toHaveLength(1);
      expect(await service.connection.collection('webhook_deliveries').countDocuments({ webhookId: webhook!.id })).toBe(1);
    });

    it('when a poison message sits on the subject, then it is terminated and the next event is still delivered', async () => {
      const { app, scheme } = await appWithTree();
      await hooks.createWebhook({ actor: admin, appId: app.id, url: receiver.url('/after-poison'), secret: '', events: ['scheme.deleted'], format: '' });
      await bus.js.publish(subjectOf('scheme.deleted', prefix), 'this is not an event', { msgID: randomUUID() });
      await bus.js.publish(subjectOf('scheme.deleted', prefix), JSON.stringify({ id: 'x', type: 'scheme.deleted', version: 1, occurredAt: 'now', source: 't', data: { app_id: 'nope' } }), { msgID: randomUUID() });
      await publish('scheme.deleted', { app_id: app.id, scheme_id: scheme.id });
      await receiver.waitFor('/after-poison', 1);
    });

    it('when an attempt was claimed by a process that died mid-call, then it is closed as interrupted and the next attempt is made once', async () => {
      const { app } = await appWithTree();
      const { webhook } = await hooks.createWebhook({ actor: admin, appId: app.id, url: receiver.url('/crashed'), secret: '', events: [], format: '' });
      const stored = await service.deps.webhooks.findById(webhook!.id);
      const eventId = randomUUID();
      const deliveryId = randomUUID();
      // As a crashed process leaves it: the delivery, and attempt 1 claimed long ago and never finished.
      await service.deps.deliveries.create({
        _id: deliveryId, webhookId: webhook!.id, appId: app.id, event: 'scheme.deleted', eventId, payloadJson: JSON.stringify({ event_id: eventId }),
        url: stored!.url, secretEnc: stored!.secretEnc, state: 'pending', maxAttempts: 4, nextAttemptAt: new Date(Date.now() + 60_000),
      });
      const delivery = await service.deps.deliveries.findById(deliveryId);
      await service.deps.deliveries.claimAttempt(delivery!, 1, new Date(Date.now() - service.dispatcher.staleAfterMs - 1_000));
      await service.deps.deliveries.setSchedule(deliveryId, { nextAttemptAt: new Date() });
      service.dispatcher.poke();
      const [call] = await receiver.waitFor('/crashed', 1);
      expect(call!.headers['x-hangar-attempt']).toBe('2');
      await settled(webhook!.id, 'delivered');
      expect(receiver.on('/crashed')).toHaveLength(1);
      const log = await hooks.listDeliveries({ actor: admin, webhookId: webhook!.id });
      expect(log.deliveries.map((d) => [d.attempt, d.success, d.error.startsWith('interrupted')])).toEqual([
        [2, true, false],
        [1, false, true],
      ]);
    });

    it('when two dispatchers race for the same attempt, then only one call is made', async () => {
      const { app } = await appWithTree();
      const { webhook } = await hooks.createWebhook({ actor: admin, appId: app.id, url: receiver.url('/race'), secret: '', events: [], format: '' });
      const stored = await service.deps.webhooks.findById(webhook!.id);
      const eventId = randomUUID();
      const deliveryId = randomUUID();
      await service.deps.deliveries.create({
        _id: deliveryId, webhookId: webhook!.id, appId: app.id, event: 'scheme.deleted', eventId, payloadJson: '{}',
        url: stored!.url, secretEnc: stored!.secretEnc, state: 'pending', maxAttempts: 4, nextAttemptAt: new Date(Date.now() + 60_000),
      });
      const delivery = (await service.deps.deliveries.findById(deliveryId))!;
      const results = await Promise.all(Array.from({ length: 5 }, () => service.dispatcher.attempt(delivery)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(receiver.on('/race')).toHaveLength(1);
    });

    it('when an app is deleted, then its subscribed webhooks get app.deleted and are removed', async () => {
      const { app } = await appWithTree();
      const { webhook, secret } = await hooks.createWebhook({ actor: admin, appId: app.id, url: receiver.url('/gone'), secret: '', events: ['app.deleted'], format: '' });
      await client.deleteApp({ actor: admin, id: app.id });
      const [call] = await receiver.waitFor('/gone', 1);
      expect(verify(call!.body, call!.headers['x-hangar-signature-256'], secret)).toBe(true);
      expect(JSON.parse(call!.body)).toMatchObject({ event: 'app.deleted', app: { id: app.id }, data: { app_id: app.id } });
      const deadline = Date.now() + 5_000;
      while ((await service.deps.webhooks.findById(webhook!.id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await service.deps.webhooks.findById(webhook!.id)).toBeNull();
    });
  });
});
