import mongoose, { Connection, Model } from 'mongoose';
import { AckPolicy, DeliverPolicy, JsMsg, jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Logger, createLogger, currentRequestId, runWithContext } from '@hangar/logger';
import { Metrics } from '@hangar/metrics';
import { metricTotal, testInfrastructure, uniqueName } from '@hangar/testing';
import {
  Envelope,
  EventBus,
  EventType,
  HandlerResult,
  OutboxFields,
  OutboxRelay,
  RunningConsumer,
  connectEventBus,
  createEnvelope,
  durableNameOf,
  ensureEventStream,
  newOutbox,
  outboxSchemaFields,
  publishEnvelope,
  startConsumer,
  startServiceEvents,
  streamNameFor,
  subjectOf,
  withEvents,
} from '../src';

jest.setTimeout(20_000);

const infra = testInfrastructure();

interface Thing extends OutboxFields {
  _id: number;
  name: string;
  deletedAt?: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** A logger whose lines the test can read. */
function capturingLogger(): { logger: Logger; lines: () => Array<Record<string, unknown>> } {
  const lines: string[] = [];
  const logger = createLogger({ service: 'events-test', level: 'debug', destination: { write: (line: string) => void lines.push(line) } });
  return { logger, lines: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

async function eventually(
  check: () => Promise<boolean> | boolean,
  timeoutMs = 5_000,
  what = 'condition',
  explain?: () => Promise<string>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${explain ? `: ${await explain()}` : ''}`);
    await sleep(25);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('@hangar/events against NATS JetStream and a MongoDB-wire server', () => {
  const silent = createLogger({ service: 'events-test', level: 'silent' });
  const dbName = uniqueName('events-test');
  const prefixes: string[] = [];
  let bus: EventBus;
  let connection: Connection;
  let things: Model<Thing>;
  let nextId = 1;

  /** Each test gets its own subject prefix, so its own stream and consumers. */
  async function freshPrefix(): Promise<string> {
    const prefix = uniqueName('evt');
    prefixes.push(prefix);
    await ensureEventStream(bus.jsm, prefix);
    return prefix;
  }

  async function streamCount(prefix: string): Promise<number> {
    return (await bus.jsm.streams.info(streamNameFor(prefix))).state.messages;
  }

  /** Reads what a JetStream consumer on the event's subject receives. */
  async function received(prefix: string, type: EventType, expected: number): Promise<JsMsg[]> {
    await eventually(async () => (await streamCount(prefix)) >= expected, 5_000, `${expected} messages`);
    const info = await bus.jsm.consumers.add(streamNameFor(prefix), {
      filter_subject: subjectOf(type, prefix),
      ack_policy: AckPolicy.None,
      deliver_policy: DeliverPolicy.All,
      inactive_threshold: 30e9,
    });
    const consumer = await bus.js.consumers.get(streamNameFor(prefix), info.name);
    const messages: JsMsg[] = [];
    for await (const msg of await consumer.fetch({ max_messages: expected, expires: 2_000 })) messages.push(msg);
    return messages;
  }

  /**
   * Waits until a stopped durable has `pending` messages JetStream has not delivered and no
   * pull request waiting: the positive sign that nothing more can reach its old handler.
   */
  async function stopsPulling(prefix: string, durable: string, pending: number): Promise<void> {
    await eventually(
      async () => {
        const info = await bus.jsm.consumers.info(streamNameFor(prefix), durable);
        return info.num_pending === pending && info.num_ack_pending === 0 && info.num_waiting === 0;
      },
      5_000,
      'the stopped consumer to hold its messages undelivered',
      async () => JSON.stringify(await bus.jsm.consumers.info(streamNameFor(prefix), durable)),
    );
  }

  function relayFor(prefix: string, overrides: Partial<ConstructorParameters<typeof OutboxRelay>[0]> = {}): OutboxRelay {
    return new OutboxRelay({ models: [things], js: bus.js, logger: silent, prefix, ...overrides });
  }

  beforeAll(async () => {
    bus = await connectEventBus(infra.natsUrl, 'events-test', silent);
    connection = await mongoose.createConnection(infra.mongoUrl, { dbName, bufferCommands: false, serverSelectionTimeoutMS: 3_000 }).asPromise();
    const schema = new mongoose.Schema<Thing>(
      { _id: Number, name: String, deletedAt: Date, ...outboxSchemaFields },
      { collection: 'things', timestamps: true, versionKey: false },
    );
    things = connection.model<Thing>('Thing', schema);
    await things.init();
  });

  afterAll(async () => {
    for (const prefix of prefixes) await bus.jsm.streams.delete(streamNameFor(prefix)).catch(() => undefined);
    await bus.nc.close();
    await connection.dropDatabase();
    await connection.close();
  });

  describe('OutboxRelay', () => {
    it('when documents are created and updated with events, then the events reach the stream with their request id and the outboxes are cleared', async () => {
      const prefix = await freshPrefix();
      const created = createEnvelope('app.deleted', { app_id: 11 }, 'test');
      const updated = createEnvelope('app.deleted', { app_id: 12 }, 'test');
      const a = nextId++;
      const b = nextId++;
      await runWithContext({ requestId: 'req-create' }, () => things.create({ _id: a, name: 'a', ...newOutbox(created) }));
      await things.create({ _id: b, name: 'b', ...newOutbox() });
      await runWithContext({ requestId: 'req-update' }, () => things.updateOne({ _id: b }, withEvents<Thing>({ $set: { name: 'b2' } }, updated)));
      expect((await things.findById(b).lean())?.outboxPending).toBe(true);

      const relay = relayFor(prefix);
      relay.poke();
      await relay.flush();

      const messages = await received(prefix, 'app.deleted', 2);
      const byId = new Map(messages.map((m) => [(m.json() as Envelope).id, m]));
      expect(byId.get(created.id)?.json()).toEqual(created);
      expect(byId.get(updated.id)?.json()).toEqual(updated);
      expect(byId.get(created.id)?.headers?.get('x-request-id')).toBe('req-create');
      expect(byId.get(updated.id)?.headers?.get('x-request-id')).toBe('req-update');
      for (const id of [a, b]) {
        const doc = await things.findById(id).lean();
        expect(doc).toMatchObject({ outboxPending: false, outbox: [] });
      }
      expect((await things.findById(b).lean())?.name).toBe('b2');
    });

    it('when the relay clears an outbox, then the document is otherwise untouched (its updatedAt stays)', async () => {
      const prefix = await freshPrefix();
      const id = nextId++;
      await things.create({ _id: id, name: 'stamp', ...newOutbox(createEnvelope('app.deleted', { app_id: 21 }, 'test')) });
      const before = await things.findById(id).lean();
      await sleep(20);

      const relay = relayFor(prefix);
      relay.poke();
      await relay.flush();

      const after = await things.findById(id).lean();
      expect(after?.outboxPending).toBe(false);
      expect(after?.updatedAt.getTime()).toBe(before?.updatedAt.getTime());
    });

    it('when a tombstoned document has published its events, then it is removed', async () => {
      const prefix = await freshPrefix();
      const id = nextId++;
      const keep = nextId++;
      const event = createEnvelope('app.deleted', { app_id: 31 }, 'test');
      await things.create({ _id: id, name: 'doomed', ...newOutbox() });
      await things.create({ _id: keep, name: 'kept', ...newOutbox(createEnvelope('app.deleted', { app_id: 32 }, 'test')) });
      await things.updateOne({ _id: id }, withEvents<Thing>({ $set: { deletedAt: new Date() } }, event));

      const relay = relayFor(prefix);
      relay.poke();
      await relay.flush();

      expect(await things.findById(id).lean()).toBeNull();
      expect(await things.findById(keep).lean()).toMatchObject({ outboxPending: false });
      const messages = await received(prefix, 'app.deleted', 2);
      expect(messages.map((m) => (m.json() as Envelope).id)).toContain(event.id);
    });

    it('when the same envelope is published twice (a relay retry), then the stream keeps one message', async () => {
      const prefix = await freshPrefix();
      const event = createEnvelope('user.deleted', { user_id: 41 }, 'test');

      await publishEnvelope(bus.js, event, { prefix });
      await publishEnvelope(bus.js, event, { prefix });
      // A crash after publishing but before clearing: the relay publishes it again.
      await things.create({ _id: nextId++, name: 'retry', ...newOutbox(event) });
      const relay = relayFor(prefix);
      relay.poke();
      await relay.flush();

      expect(await streamCount(prefix)).toBe(1);
      expect((await received(prefix, 'user.deleted', 1)).map((m) => (m.json() as Envelope).id)).toEqual([event.id]);
    });

    it('when nothing is pending, then each look for events waits twice as long as the last, up to the idle pause; a poke starts again from the interval', async () => {
      const quiet = connection.model<Thing>('QuietThing', new mongoose.Schema<Thing>({ _id: Number, name: String, deletedAt: Date, ...outboxSchemaFields }, { collection: 'quiet_things', versionKey: false }));
      await quiet.init();
      const looks: number[] = [];
      const find = quiet.find.bind(quiet);
      jest.spyOn(quiet, 'find').mockImplementation(((...args: Parameters<typeof find>) => {
        looks.push(performance.now());
        return find(...args);
      }) as typeof find);
      const relay = relayFor(await freshPrefix(), { models: [quiet], intervalMs: 40, idleIntervalMs: 1_000 });
      relay.start();
      // The first look at start, then pauses of 40, 80, 160, 320, 640 and 1,000 ms (timers never fire early).
      await eventually(() => looks.length >= 8, 10_000, 'eight looks');
      const pauses = looks.slice(1, 8).map((at, i) => at - looks[i]!);
      expect(pauses.map((ms, i) => ms >= [40, 80, 160, 320, 640, 1_000, 1_000][i]! - 2)).toEqual(Array(7).fill(true));

      const poked = looks.length;
      relay.poke();
      await eventually(() => looks.length >= poked + 2, 5_000, 'the poked pass and the look after it');
      await relay.stop();
      // After a poke the next look comes at the interval again, not after the idle pause.
      expect(looks[poked + 1]! - looks[poked]!).toBeLessThan(700);
    });

    it('when NATS cannot be reached, then the events stay pending and a later relay publishes them', async () => {
      const prefix = await freshPrefix();
      const event = createEnvelope('app.deleted', { app_id: 51 }, 'test');
      const id = nextId++;
      await things.create({ _id: id, name: 'waiting', ...newOutbox(event) });
      const closed = await connect({ servers: infra.natsUrl });
      await closed.close();
      const { logger, lines } = capturingLogger();

      const broken = relayFor(prefix, { js: jetstream(closed), logger });
      broken.poke();
      await broken.flush();
      await broken.stop();

      expect(lines().some((l) => l.msg === 'outbox relay pass failed; will retry')).toBe(true);
      expect(await things.findById(id).lean()).toMatchObject({ outboxPending: true, outbox: [expect.objectContaining({ id: event.id })] });
      expect(await streamCount(prefix)).toBe(0);

      const working = relayFor(prefix, { intervalMs: 50 });
      working.start();
      await eventually(async () => (await things.findById(id).lean())?.outboxPending === false, 5_000, 'the outbox to clear');
      await working.stop();

      expect((await received(prefix, 'app.deleted', 1)).map((m) => m.json())).toEqual([event]);
    });

    it('when events wait in the outbox, then the relay records how long each waited, and counts a pass that failed', async () => {
      const prefix = await freshPrefix();
      const metrics = new Metrics({ defaultMetrics: false });
      const lagPart = async (m: Metrics, part: 'count' | 'sum') =>
        (await m.registry.getSingleMetric('hangar_outbox_lag_seconds')?.get())?.values.find((v) => (v as { metricName?: string }).metricName === `hangar_outbox_lag_seconds_${part}`)?.value ?? 0;
      // Recorded 5 s ago: a write whose event the relay could not publish until now.
      const event = { ...createEnvelope('app.deleted', { app_id: 61 }, 'test'), occurredAt: new Date(Date.now() - 5_000).toISOString() };
      const id = nextId++;
      await things.create({ _id: id, name: 'late', ...newOutbox(event) });
      const closed = await connect({ servers: infra.natsUrl });
      await closed.close();

      const broken = relayFor(prefix, { js: jetstream(closed), metrics });
      broken.poke();
      await broken.flush();
      await broken.stop();
      expect(await metricTotal(metrics, 'hangar_outbox_relay_failures_total')).toBe(1);
      expect(await lagPart(metrics, 'count')).toBe(0);

      const working = relayFor(prefix, { metrics });
      working.poke();
      await working.flush();
      expect(await lagPart(metrics, 'count')).toBe(1);
      const lag = await lagPart(metrics, 'sum');
      expect(lag).toBeGreaterThanOrEqual(5);
      expect(lag).toBeLessThan(60);
      expect(await metricTotal(metrics, 'hangar_outbox_relay_failures_total')).toBe(1);
    });

    it('when an event is added while the relay is publishing, then it is kept for the next pass', async () => {
      const prefix = await freshPrefix();
      const first = createEnvelope('app.deleted', { app_id: 61 }, 'test');
      const second = createEnvelope('app.deleted', { app_id: 62 }, 'test');
      const id = nextId++;
      await things.create({ _id: id, name: 'busy', ...newOutbox(first) });
      // Add the second event between the relay's read and its clearing.
      const js = bus.js;
      let added = false;
      const slowJs = Object.create(js) as typeof js;
      slowJs.publish = async (...args: Parameters<typeof js.publish>) => {
        const ack = await js.publish(...args);
        if (!added) {
          added = true;
          await things.updateOne({ _id: id }, withEvents<Thing>({}, second));
        }
        return ack;
      };

      const relay = relayFor(prefix, { js: slowJs });
      relay.poke();
      await relay.flush();
      expect((await things.findById(id).lean())?.outbox.map((e) => e.id)).toContain(second.id);
      relay.poke();
      await relay.flush();

      expect(await things.findById(id).lean()).toMatchObject({ outboxPending: false, outbox: [] });
      expect((await received(prefix, 'app.deleted', 2)).map((m) => (m.json() as Envelope).id).sort()).toEqual([first.id, second.id].sort());
    });
  });

  describe('startConsumer', () => {
    const running: RunningConsumer[] = [];

    afterEach(async () => {
      await Promise.all(running.splice(0).map((c) => c.stop()));
    });

    interface Recorder {
      calls: Array<{ envelope: Envelope<'app.deleted'>; requestId: string | undefined; at: number }>;
    }

    async function consume(
      prefix: string,
      handle: (envelope: Envelope<'app.deleted'>, attempt: number) => Promise<HandlerResult>,
      options: { durable?: string; ackWaitMs?: number; maxBackoffMs?: number; logger?: Logger } = {},
    ): Promise<Recorder & { consumer: RunningConsumer; durable: string }> {
      const calls: Recorder['calls'] = [];
      const durable = options.durable ?? 'test-worker';
      const consumer = await startConsumer(
        {
          durable,
          event: 'app.deleted',
          handle: async (envelope) => {
            calls.push({ envelope, requestId: currentRequestId(), at: Date.now() });
            return handle(envelope, calls.length);
          },
        },
        { bus, logger: options.logger ?? silent, prefix, ackWaitMs: options.ackWaitMs ?? 2_000, maxBackoffMs: options.maxBackoffMs ?? 100 },
      );
      running.push(consumer);
      return { calls, consumer, durable: `${durable}-app_deleted` };
    }

    async function consumerSettled(prefix: string, durable: string, deliveredCount: number): Promise<void> {
      await eventually(
        async () => {
          const info = await bus.jsm.consumers.info(streamNameFor(prefix), durable);
          return info.num_ack_pending === 0 && info.num_pending === 0 && info.delivered.stream_seq >= deliveredCount && info.ack_floor.stream_seq >= deliveredCount;
        },
        5_000,
        'the consumer to ack everything',
        async () => JSON.stringify(await bus.jsm.consumers.info(streamNameFor(prefix), durable)),
      );
    }

    /**
     * Counts the progress acks (`+WPI`, what `msg.working()` sends) the runner sends for a
     * durable's messages, read off the ack subject as JetStream receives them: a handler that
     * waits for some has provably outlasted that many of the runner's keep-alive periods.
     */
    function progressAcks(prefix: string, durable: string): { count: () => number; close: () => void } {
      let count = 0;
      const subscription = bus.nc.subscribe(`$JS.ACK.${streamNameFor(prefix)}.${durable}.>`, {
        callback: (_err, msg) => {
          if (msg.string() === '+WPI') count++;
        },
      });
      return { count: () => count, close: () => subscription.unsubscribe() };
    }

    it('when an event is published, then the handler receives it in its request id context and it is acked once', async () => {
      const prefix = await freshPrefix();
      const event = createEnvelope('app.deleted', { app_id: 71 }, 'test');
      const { calls, durable } = await consume(prefix, async () => 'done');

      await publishEnvelope(bus.js, event, { prefix, requestId: 'req-consume-1' });

      await eventually(() => calls.length === 1, 5_000, 'the handler');
      await consumerSettled(prefix, durable, 1);
      const info = await bus.jsm.consumers.info(streamNameFor(prefix), durable);
      expect(info.num_redelivered).toBe(0);
      expect(calls.map((c) => c.envelope)).toEqual([event]);
      expect(calls[0]?.requestId).toBe('req-consume-1');
    });

    it('when the consumer uses NATS 2.9, then it is one durable filtered on its event subject', async () => {
      const prefix = await freshPrefix();
      const { calls, durable } = await consume(prefix, async () => 'done');

      await publishEnvelope(bus.js, createEnvelope('user.deleted', { user_id: 1 }, 'test'), { prefix });
      const mine = createEnvelope('app.deleted', { app_id: 72 }, 'test');
      await publishEnvelope(bus.js, mine, { prefix });

      await eventually(() => calls.length === 1, 5_000, 'the handler');
      const info = await bus.jsm.consumers.info(streamNameFor(prefix), durable);
      expect(info.config).toMatchObject({ durable_name: durable, filter_subject: subjectOf('app.deleted', prefix), ack_policy: AckPolicy.Explicit });
      expect(calls.map((c) => c.envelope.id)).toEqual([mine.id]);
    });

    it('when a handler fails once, then the event is redelivered after a backoff and then acked', async () => {
      const prefix = await freshPrefix();
      const event = createEnvelope('app.deleted', { app_id: 73 }, 'test');
      const { calls, durable } = await consume(
        prefix,
        async (_envelope, attempt) => {
          if (attempt === 1) throw new Error('webhook endpoint is down');
          return 'done';
        },
        { maxBackoffMs: 300 },
      );

      await publishEnvelope(bus.js, event, { prefix });

      await eventually(() => calls.length === 2, 5_000, 'the retry');
      await consumerSettled(prefix, durable, 1);
      // Acked, and every delivery JetStream made was handled: nothing is left to come back.
      const info = await bus.jsm.consumers.info(streamNameFor(prefix), durable);
      expect(info.delivered.consumer_seq).toBe(2);
      expect(calls).toHaveLength(2);
      expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(250);
      expect(calls[1]?.envelope).toEqual(event);
    });

    it('when a malformed message arrives, then it is terminated and logged, the handler never sees it and it is not redelivered', async () => {
      const prefix = await freshPrefix();
      const { logger, lines } = capturingLogger();
      const { calls, durable } = await consume(prefix, async () => 'done', { logger, ackWaitMs: 1_000 });
      const subject = subjectOf('app.deleted', prefix);

      await bus.js.publish(subject, 'this is not an event');
      await bus.js.publish(subject, JSON.stringify({ ...createEnvelope('app.deleted', { app_id: 74 }, 'test'), data: { app_id: 'x' } }));
      const valid = createEnvelope('app.deleted', { app_id: 75 }, 'test');
      await publishEnvelope(bus.js, valid, { prefix });

      await eventually(() => calls.length === 1, 5_000, 'the valid event');
      // The ack floor past all three: JetStream took the terms as final. A message that was
      // not terminated (or whose term NATS 2.9 ignored) stays pending and is never settled.
      await consumerSettled(prefix, durable, 3);
      const info = await bus.jsm.consumers.info(streamNameFor(prefix), durable);
      expect(info.num_redelivered).toBe(0);
      expect(info.delivered.consumer_seq).toBe(3);
      expect(calls.map((c) => c.envelope.id)).toEqual([valid.id]);
      expect(lines().filter((l) => l.msg === 'terminating malformed event')).toHaveLength(2);
    });

    it('when the handler works longer than the ack wait, then the message is kept alive and not redelivered', async () => {
      const prefix = await freshPrefix();
      const keepAlives = progressAcks(prefix, durableNameOf('test-worker', 'app.deleted'));
      // The work lasts until the runner has sent four keep-alives, every third of the 1 s ack
      // wait: past the ack wait by then, so without them JetStream would have redelivered it.
      const { calls, durable } = await consume(
        prefix,
        async () => {
          await eventually(() => keepAlives.count() >= 4, 5_000, 'four progress acks');
          return 'done';
        },
        { ackWaitMs: 1_000 },
      );

      await publishEnvelope(bus.js, createEnvelope('app.deleted', { app_id: 76 }, 'test'), { prefix });

      await eventually(() => calls.length === 1, 5_000, 'the handler');
      await consumerSettled(prefix, durable, 1);
      keepAlives.close();
      // Acked, and the one delivery JetStream made is the one handled: there was no second.
      const info = await bus.jsm.consumers.info(streamNameFor(prefix), durable);
      expect(info.num_redelivered).toBe(0);
      expect(info.delivered.consumer_seq).toBe(1);
      expect(calls).toHaveLength(1);
    });

    it('when several slow events queue up, then none waits past its ack wait unprocessed and none is handled twice', async () => {
      const prefix = await freshPrefix();
      const keepAlives = progressAcks(prefix, durableNameOf('test-worker', 'app.deleted'));
      // Each event's work lasts until the runner has sent one more keep-alive (a third of the
      // 1 s ack wait): the five together take longer than the ack wait, so a message prefetched
      // behind the first ones would expire in the buffer and come back.
      const { calls, durable } = await consume(
        prefix,
        async () => {
          const seen = keepAlives.count();
          await eventually(() => keepAlives.count() > seen, 5_000, 'a progress ack');
          return 'done';
        },
        { ackWaitMs: 1_000 },
      );
      const events = Array.from({ length: 5 }, (_, i) => createEnvelope('app.deleted', { app_id: 80 + i }, 'test'));

      for (const event of events) await publishEnvelope(bus.js, event, { prefix });

      await eventually(() => calls.length >= 5, 8_000, 'all five events');
      await consumerSettled(prefix, durable, 5);
      keepAlives.close();
      // All acked, and JetStream made exactly five deliveries: none was handed out twice.
      const info = await bus.jsm.consumers.info(streamNameFor(prefix), durable);
      expect(info.delivered.consumer_seq).toBe(5);
      expect(calls.map((c) => c.envelope.id)).toEqual(events.map((e) => e.id));
      expect(info.num_redelivered).toBe(0);
    });

    it('when the consumer is stopped, then it takes no more events and a restart under the same durable gets them', async () => {
      const prefix = await freshPrefix();
      const first = await consume(prefix, async () => 'done');
      await first.consumer.stop();

      const later = createEnvelope('app.deleted', { app_id: 77 }, 'test');
      await publishEnvelope(bus.js, later, { prefix });
      // Stored, and no pull request of the stopped consumer is left waiting: JetStream has
      // nobody to deliver it to. A consumer still pulling would have taken it at once.
      await stopsPulling(prefix, first.durable, 1);
      expect(first.calls).toHaveLength(0);

      const restarted = await consume(prefix, async () => 'done');
      await eventually(() => restarted.calls.length === 1, 5_000, 'the restarted consumer');
      expect(restarted.calls[0]?.envelope).toEqual(later);
    });

    it('when stop is called while a handler runs, then stop waits for it and its message is acked', async () => {
      const prefix = await freshPrefix();
      let finished = false;
      let finish!: () => void;
      const released = new Promise<void>((resolve) => (finish = resolve));
      const { calls, consumer, durable } = await consume(prefix, async () => {
        await released;
        finished = true;
        return 'done';
      });
      await publishEnvelope(bus.js, createEnvelope('app.deleted', { app_id: 78 }, 'test'), { prefix });
      await eventually(() => calls.length === 1, 5_000, 'the handler');

      // The handler finishes a macrotask after stop() is called; a stop() that did not wait
      // for it would have resolved in the microtasks before.
      const stopping = consumer.stop();
      setImmediate(finish);
      await stopping;

      expect(finished).toBe(true);
      await consumerSettled(prefix, durable, 1);
    });
  });

  describe('startServiceEvents', () => {
    it('when a service records an event, then its relay publishes it to the consumers it started; after stop they take no more and the connection is closed', async () => {
      const prefix = await freshPrefix();
      const seen: number[] = [];
      const events = await startServiceEvents({ natsUrl: infra.natsUrl, name: 'events-test-service', prefix, logger: silent, outboxOf: [things] });
      await events.consume({
        durable: 'service-events-test',
        event: 'app.deleted',
        handle: async (envelope) => {
          seen.push(envelope.data.app_id);
          return 'done';
        },
      });

      await things.create({ _id: nextId++, name: 'recorded', ...newOutbox(createEnvelope('app.deleted', { app_id: 501 }, 'test')) });
      events.relay.poke();
      await eventually(() => seen.includes(501), 5_000, 'the consumer to get the recorded event');

      await events.stop();
      expect(events.bus.nc.isClosed()).toBe(true);
      await publishEnvelope(bus.js, createEnvelope('app.deleted', { app_id: 502 }, 'test'), { prefix });
      await stopsPulling(prefix, durableNameOf('service-events-test', 'app.deleted'), 1);
      expect(seen).toEqual([501]);
    });
  });
});
