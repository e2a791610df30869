import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { AckPolicy, DeliverPolicy } from '@nats-io/jetstream';
import { EventBus, connectEventBus, createEnvelope, durableNameOf, ensureEventStream, publishEnvelope, streamNameFor, subjectOf } from '@hangar/events';
import { Unavailable } from '@hangar/errors';
import { createServiceClient } from '@hangar/grpc';
import { createLogger } from '@hangar/logger';
import { apps, users, webhooks } from '@hangar/proto';
import { eventually, testInfrastructure, uniqueName } from '@hangar/testing';
import { RunningAppsService, startAppsService } from '../../apps/src/apps-service';
import { loadAppsConfig } from '../../apps/src/config';
import { loadUsersConfig } from '../../users/src/config';
import { bootstrapAdmin } from '../../users/src/domain/bootstrap-admin';
import { RunningUsersService, startUsersService } from '../../users/src/users-service';
import { connectMongo } from '@hangar/mongo';
import { loadWebhooksConfig } from '../src/config';
import { LegacyImportRepository } from '../src/data/legacy-import.repository';
import { attemptModel, deliveryModel } from '../src/data/webhook-delivery.model';
import { webhookModel } from '../src/data/webhook.model';
import { MOVE_FROM_APPS, moveWebhooksFromApps } from '../src/domain/move-from-apps';
import { SecretBox } from '../src/domain/secret-box';
import { LEGACY_DURABLE } from '../src/events/durable-handover';
import { WEBHOOKS_DURABLE } from '../src/events/webhook-events.consumer';
import { RunningWebhooksService, startWebhooksService } from '../src/webhooks-service';

const KEY = 'move-test-webhook-secret-key-0123456789';
const DAY = 24 * 60 * 60 * 1_000;

/** Records every call; answers 200. */
class Receiver {
  readonly calls: { path: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  private server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      this.calls.push({ path: req.url ?? '/', headers: req.headers, body });
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
  on = (path: string) => this.calls.filter((c) => c.path === path);
  /** The first call on `path` that `matches` (any call on it without one), once it has arrived. */
  async waitFor(path: string, matches: (call: Receiver['calls'][number]) => boolean = () => true, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const call = this.on(path).find(matches);
      if (call) return call;
      if (Date.now() > deadline) throw new Error(`${path}: the call waited for did not arrive (${this.on(path).length} others did)`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

const verify = (body: string, header: unknown, secret: string) => header === `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/**
 * Webhooks moved out of the apps service. Records written into the
 * apps database as the apps service stored them before the move, and an
 * event stream its old consumers had read part of; then the webhooks service
 * starts for the first time and serves them, signs with the old secrets,
 * continues the retry in progress and the unread events, and apps has
 * dropped its copies.
 */
describe('the move of webhooks from the apps service', () => {
  const infra = testInfrastructure();
  const prefix = uniqueName('hooks-move');
  const db = prefix.replace(/-/g, '_');
  const logger = createLogger({ service: 'hooks-move-test', level: 'warn', destination: new Writable({ write: (c, _e, d) => (process.env.DEBUG_LOGS && process.stderr.write(c), d()) }) });
  const receiver = new Receiver();
  const common = { MONGO_URL: infra.mongoUrl, NATS_URL: infra.natsUrl, NATS_SUBJECT_PREFIX: prefix, GRPC_LISTEN: '127.0.0.1:0', SHUTDOWN_TIMEOUT_MS: '3000', HANGAR_QUERY_LOG_DIR: process.env.HANGAR_QUERY_LOG_DIR };
  let usersService: RunningUsersService;
  let appsService: RunningAppsService;
  let service: RunningWebhooksService | undefined;
  let appsClient: ReturnType<typeof createServiceClient<typeof apps.AppsServiceDefinition>>;
  let bus: EventBus;
  const admin = { userId: 0, role: 'admin' };

  // As the apps service left them: a webhook (id 5; the counter had reached 6, id 6 was deleted since).
  const secret = 'whsec_legacySecretOfTheOldApps0001';
  const webhookId = 5;
  const created = new Date(Date.now() - 3 * DAY);
  const recentDelivery = randomUUID();
  const retryingDelivery = randomUUID();
  const oldDelivery = randomUUID();
  let appId = 0;
  let schemeId = 0;

  const startWebhooks = () =>
    startWebhooksService(
      loadWebhooksConfig({
        ...common,
        MONGO_DB: `${db}_webhooks`,
        APPS_GRPC_TARGET: `127.0.0.1:${appsService.port}`,
        RELEASES_GRPC_TARGET: '127.0.0.1:1',
        WEBHOOK_SECRET_KEY: KEY,
        HANGAR_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
        WEBHOOK_POLL_MS: '100',
        WEBHOOK_RETRY_BASE_MS: '200',
        WEBHOOK_TIMEOUT_MS: '2000',
      }),
      logger,
    );

  beforeAll(async () => {
    await receiver.start();
    usersService = await startUsersService(loadUsersConfig({ ...common, MONGO_DB: `${db}_users` }), logger);
    const boot = await bootstrapAdmin(usersService.deps, { email: 'root@example.com', password: 'bootstrap-pass', token: 'bootstrap-token-0123456789' }, logger);
    if (!boot.created) throw new Error('expected a bootstrap admin');
    admin.userId = boot.userId;
    appsService = await startAppsService(loadAppsConfig({ ...common, MONGO_DB: `${db}_apps`, USERS_GRPC_TARGET: `127.0.0.1:${usersService.port}` }), logger);
    appsClient = createServiceClient(apps.AppsServiceDefinition, `127.0.0.1:${appsService.port}`);
    bus = await connectEventBus(infra.natsUrl, 'hooks-move-test', logger);

    const app = await appsClient.createApp({ actor: admin, name: uniqueName('moved') });
    appId = app.id;
    schemeId = (await appsClient.createScheme({ actor: admin, appId, name: 'Beta' })).id;

    const legacy = appsService.connection;
    const sealed = new SecretBox(KEY).seal(secret, webhookId);
    await legacy.collection('webhooks').insertOne({ _id: webhookId as never, appId, url: receiver.url('/moved'), secretEnc: sealed, events: ['scheme.deleted'], createdAt: created, updatedAt: created });
    await legacy.collection('counters').insertOne({ _id: 'webhooks' as never, seq: 6 });
    await legacy.collection('counters').insertOne({ _id: 'webhook-attempts' as never, seq: 40 });
    const delivery = (id: string, state: string, at: Date, nextAttemptAt: Date) => ({
      _id: id as never, webhookId, appId, event: 'scheme.deleted', eventId: randomUUID(), payloadJson: JSON.stringify({ event_id: id, app: { id: appId } }),
      url: receiver.url('/moved'), secretEnc: sealed, state, maxAttempts: 4, nextAttemptAt, createdAt: at, updatedAt: at,
    });
    const attempt = (id: number, deliveryId: string, n: number, statusCode: number, at: Date) => ({
      _id: id as never, deliveryId, webhookId, appId, event: 'scheme.deleted', eventId: 'e', attempt: n, statusCode, success: statusCode === 200,
      error: statusCode === 200 ? '' : `answered HTTP ${statusCode}`, durationMs: 12, startedAt: at, finishedAt: at, createdAt: at,
    });
    const hourAgo = new Date(Date.now() - 60 * 60 * 1_000);
    const longAgo = new Date(Date.now() - 60 * DAY);
    await legacy.collection('webhook_deliveries').insertMany([
      delivery(recentDelivery, 'delivered', hourAgo, hourAgo),
      // A retry in progress: attempt 1 failed, attempt 2 is due.
      delivery(retryingDelivery, 'pending', hourAgo, new Date()),
      // Finished long ago: past WEBHOOK_LOG_RETENTION_DAYS, swept once moved.
      delivery(oldDelivery, 'delivered', longAgo, longAgo),
    ]);
    await legacy.collection('webhook_attempts').insertMany([
      attempt(31, recentDelivery, 1, 500, hourAgo),
      attempt(32, recentDelivery, 2, 200, hourAgo),
      attempt(33, retryingDelivery, 1, 503, hourAgo),
      attempt(10, oldDelivery, 1, 200, longAgo),
    ]);

    // The apps service's old consumer of scheme.deleted had handled one event and not yet the next.
    const stream = await ensureEventStream(bus.jsm, prefix);
    const legacyName = durableNameOf(LEGACY_DURABLE, 'scheme.deleted');
    await bus.jsm.consumers.add(stream, {
      durable_name: legacyName, filter_subject: subjectOf('scheme.deleted', prefix), ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, ack_wait: 30_000 * 1e6, max_deliver: -1,
    });
    await publishEnvelope(bus.js, createEnvelope('scheme.deleted', { app_id: appId, scheme_id: 999_001 }, 'test'), { prefix });
    const handled = await (await bus.js.consumers.get(stream, legacyName)).next({ expires: 5_000 });
    if (!handled) throw new Error('the old consumer got no event');
    await handled.ackAck();
    await publishEnvelope(bus.js, createEnvelope('scheme.deleted', { app_id: appId, scheme_id: schemeId }, 'test'), { prefix });

    service = await startWebhooks();
  });

  afterAll(async () => {
    await bus?.nc.drain();
    await service?.connection.dropDatabase().catch(() => undefined);
    await appsService?.connection.dropDatabase().catch(() => undefined);
    await usersService?.connection.dropDatabase().catch(() => undefined);
    await service?.stop();
    await appsService?.stop();
    await usersService?.stop();
    await receiver.stop();
  });

  const client = () => createServiceClient(webhooks.WebhooksServiceDefinition, `127.0.0.1:${service!.port}`);

  it('when the webhooks service first starts, then the moved webhook is served as it was, its secret still unseen', async () => {
    const listed = await client().listWebhooks({ actor: admin, appId });
    expect(listed.webhooks).toEqual([{ id: webhookId, appId, url: receiver.url('/moved'), events: ['scheme.deleted'], createdAtMs: created.getTime(), format: 'generic' }]);
    expect(JSON.stringify(listed)).not.toContain(secret);
  });

  it('when a moved delivery was retrying, then its next attempt is made here, signed with the old secret', async () => {
    // Waited for by its id: the delivery of the unread event goes to the same URL and may come first.
    const retried = await receiver.waitFor('/moved', (c) => c.headers['x-hangar-delivery'] === retryingDelivery);
    expect(retried.headers['x-hangar-attempt']).toBe('2');
    expect(verify(retried.body, retried.headers['x-hangar-signature-256'], secret)).toBe(true);
  });

  it('when the delivery log is listed, then the moved attempts are there beside the new one, old finished ones swept', async () => {
    const list = () => client().listDeliveries({ actor: admin, webhookId, page: { page: 1, perPage: 20 } });
    let log = await list();
    await eventually(
      async () => {
        log = await list();
        return log.deliveries.some((d) => d.deliveryId === retryingDelivery && d.success) && !log.deliveries.some((d) => d.error === 'in progress');
      },
      { what: 'the retried attempt to succeed and no attempt to be in progress' },
    );
    const moved = log.deliveries.filter((d) => d.id <= 40).map((d) => [d.id, d.deliveryId, d.attempt, d.statusCode]);
    expect(moved).toEqual([
      [33, retryingDelivery, 1, 503],
      [32, recentDelivery, 2, 200],
      [31, recentDelivery, 1, 500],
    ]);
    // Attempts made here take ids past the moved counter.
    const made = log.deliveries.filter((d) => d.id > 40);
    expect(made.find((d) => d.deliveryId === retryingDelivery)).toMatchObject({ attempt: 2, statusCode: 200, success: true });
    expect(await service!.connection.collection('webhook_deliveries').countDocuments({ _id: oldDelivery as never })).toBe(0);
  });

  it('when the apps service had not read an event yet, then it is delivered here; the one it had read is not made again', async () => {
    await receiver.waitFor('/moved', (c) => c.headers['x-hangar-delivery'] !== retryingDelivery);
    // Every scheme.deleted handled by the durable that took over (so every delivery it makes
    // exists), and every delivery of the webhook delivered: no call of it is left to come.
    const durable = () => bus.jsm.consumers.info(streamNameFor(prefix), durableNameOf(WEBHOOKS_DURABLE, 'scheme.deleted'));
    await eventually(
      async () => {
        const info = await durable();
        return info.num_pending === 0 && info.num_ack_pending === 0;
      },
      { what: 'the scheme.deleted durable to drain', explain: async () => JSON.stringify(await durable()) },
    );
    const deliveries = service!.connection.collection('webhook_deliveries');
    await eventually(async () => (await deliveries.countDocuments({ webhookId, state: { $ne: 'delivered' } })) === 0, { what: 'every delivery to be delivered' });
    const events = receiver.on('/moved').filter((c) => c.headers['x-hangar-delivery'] !== retryingDelivery).map((c) => JSON.parse(c.body));
    expect(events.map((e) => e.data)).toEqual([{ app_id: appId, scheme_id: schemeId }]);
    const stream = await ensureEventStream(bus.jsm, prefix);
    await expect(bus.jsm.consumers.info(stream, durableNameOf(LEGACY_DURABLE, 'scheme.deleted'))).rejects.toThrow();
  });

  it('when moved, then the apps service has dropped its copies, and a new webhook takes an id the old counter never gave', async () => {
    const names = (await appsService.connection.db!.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    expect(names.filter((n) => n.startsWith('webhook'))).toEqual([]);
    const { webhook } = await client().createWebhook({ actor: admin, appId, url: receiver.url('/new'), secret: '', events: [], format: '' });
    expect(webhook!.id).toBe(7);
  });

  it('when the service starts again, then the move is not made again', async () => {
    await service!.stop();
    service = await startWebhooks();
    expect(await service.connection.collection('migrations').countDocuments({ _id: MOVE_FROM_APPS as never })).toBe(1);
    const again = await moveWebhooksFromApps(
      { isDone: async () => true } as never,
      { records: () => { throw new Error('must not be read'); }, drop: async () => undefined },
      logger,
    );
    expect(again).toBeUndefined();
    expect((await client().listWebhooks({ actor: admin, appId })).webhooks.map((w) => w.id)).toEqual([webhookId, 7]);
  });

  it('when a move is cut short before apps dropped its copies, then it runs again, inserts nothing twice, and only then is marked done', async () => {
    const connection = await connectMongo({ url: infra.mongoUrl, dbName: `${db}_again_webhooks`, logger, queryLogDir: process.env.HANGAR_QUERY_LOG_DIR });
    try {
      const imports = new LegacyImportRepository(connection, webhookModel(connection), deliveryModel(connection), attemptModel(connection));
      const at = Date.now() - DAY;
      const records: apps.LegacyWebhookRecord[] = [
        { webhook: { id: 3, appId, url: receiver.url('/again'), secretEnc: 'v1.sealed', events: [], createdAtMs: at, updatedAtMs: at } },
        {
          delivery: {
            id: 'delivery-again', webhookId: 3, appId, event: 'scheme.deleted', eventId: 'event-again', payloadJson: '{}', url: receiver.url('/again'), secretEnc: 'v1.sealed',
            state: 'delivered', maxAttempts: 4, nextAttemptAtMs: at, traceparent: '', createdAtMs: at, updatedAtMs: at,
          },
        },
        { attempt: { id: 9, deliveryId: 'delivery-again', webhookId: 3, appId, event: 'scheme.deleted', eventId: 'event-again', attempt: 1, statusCode: 200, success: true, error: '', durationMs: 5, startedAtMs: at, finishedAtMs: at, createdAtMs: at } },
        { counter: { name: 'webhook-attempts', seq: 12 } },
      ];
      let drops = 0;
      const source = {
        records: async function* () {
          yield* records;
        },
        drop: async () => {
          drops += 1;
          if (drops === 1) throw new Unavailable('the apps service went away');
        },
      };
      await expect(moveWebhooksFromApps(imports, source, logger)).rejects.toBeInstanceOf(Unavailable);
      expect(await imports.isDone(MOVE_FROM_APPS)).toBe(false);
      expect(await moveWebhooksFromApps(imports, source, logger)).toEqual({ webhooks: 0, deliveries: 0, attempts: 0 });
      expect(await imports.isDone(MOVE_FROM_APPS)).toBe(true);
      expect(drops).toBe(2);
      // One copy of each, as it was; the counters past the ids moved.
      expect(await connection.collection('webhooks').findOne({ _id: 3 as never })).toMatchObject({ appId, createdAt: new Date(at) });
      expect(await connection.collection('webhook_attempts').findOne({ _id: 9 as never })).toMatchObject({ deliveryId: 'delivery-again', success: true });
      expect(await connection.collection('counters').findOne({ _id: 'webhooks' as never })).toMatchObject({ seq: 3 });
      expect(await connection.collection('counters').findOne({ _id: 'webhook-attempts' as never })).toMatchObject({ seq: 12 });
    } finally {
      await connection.dropDatabase().catch(() => undefined);
      await connection.close();
    }
  });
});
