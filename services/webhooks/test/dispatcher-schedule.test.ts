import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import mongoose, { Connection } from 'mongoose';
import { createLogger } from '@hangar/logger';
import { dropTestDatabases, eventually, testInfrastructure, uniqueName } from '@hangar/testing';
import { DeliveriesRepository } from '../src/data/deliveries.repository';
import { attemptModel, deliveryModel } from '../src/data/webhook-delivery.model';
import { WebhookDispatcher } from '../src/domain/dispatcher';
import { SecretBox } from '../src/domain/secret-box';
import { WebhookTargetPolicy } from '../src/domain/target-policy';

/**
 * When the dispatcher looks for due deliveries, on a database of its own (nothing else pending):
 * while nothing is pending it looks less and less often, and a delivery due later is attempted
 * when it falls due, not at the end of an idle pause.
 */
describe('webhook dispatcher: when it looks', () => {
  const infra = testInfrastructure();
  const db = uniqueName('hooks-schedule').replace(/-/g, '_');
  const box = new SecretBox('dispatcher-schedule-test-key-0123456789');
  const calls: number[] = [];
  const receiver = http.createServer((req, res) => {
    calls.push(Date.now());
    req.resume().on('end', () => res.end('ok'));
  });
  let connection: Connection;
  let deliveries: DeliveriesRepository;
  let dispatcher: WebhookDispatcher | undefined;
  const looks: number[] = [];

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    connection = await mongoose.createConnection(infra.mongoUrl, { dbName: db, bufferCommands: false }).asPromise();
    const deliveryDocs = deliveryModel(connection);
    await deliveryDocs.init();
    deliveries = new DeliveriesRepository(connection, deliveryDocs, attemptModel(connection));
    const pending = deliveries.pending.bind(deliveries);
    jest.spyOn(deliveries, 'pending').mockImplementation((limit) => {
      looks.push(Date.now());
      return pending(limit);
    });
  });

  afterAll(async () => {
    await dispatcher?.stop();
    await connection.close();
    await dropTestDatabases([db]);
    await new Promise((resolve) => receiver.close(resolve));
  });

  function startDispatcher(): WebhookDispatcher {
    const logger = createLogger({ service: 'hooks-schedule-test', level: 'silent' });
    const options = { deliveries, policy: new WebhookTargetPolicy('127.0.0.1'), box, logger, timeoutMs: 2_000, retryBaseMs: 200, pollMs: 40, concurrency: 4, retentionDays: 30 };
    dispatcher = new WebhookDispatcher(options);
    dispatcher.start();
    return dispatcher;
  }

  it('when nothing is pending, then each look waits twice as long as the last; a delivery due later is attempted when due, not after an idle pause', async () => {
    startDispatcher();
    // The look at start, then pauses of 40, 80, 160, 320 and 640 ms (timers never fire early).
    await eventually(() => looks.length >= 6, { timeoutMs: 10_000, what: 'six looks' });
    const pauses = looks.slice(1, 6).map((at, i) => at - looks[i]!);
    expect(pauses.map((ms, i) => ms >= [40, 80, 160, 320, 640][i]! - 2)).toEqual(Array(5).fill(true));

    // Written without a poke (as by a replica that then died), due in 6 s: an idle dispatcher
    // with nothing else to go by would next look after pauses of 1.3, 2.6 and 5.1 s (at ~10 s).
    const webhookId = 7;
    const dueAt = Date.now() + 6_000;
    await deliveries.create({
      _id: randomUUID(), webhookId, appId: 1, event: 'release.created', eventId: randomUUID(), payloadJson: '{}',
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, secretEnc: box.seal('', webhookId),
      state: 'pending', maxAttempts: 3, nextAttemptAt: new Date(dueAt),
    });
    await eventually(() => calls.length === 1, { timeoutMs: 15_000, what: 'the delivery to be attempted' });
    expect(calls[0]! - dueAt).toBeGreaterThanOrEqual(0);
    // The look it was found by was scheduled for its due time.
    expect(calls[0]! - dueAt).toBeLessThan(3_000);
  }, 30_000);
});
