import { RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { Writable } from 'node:stream';
import { z } from 'zod';
import { createLogger } from '@hangar/logger';
import { eventually, testInfrastructure, uniqueName } from '@hangar/testing';
import { BatchMessage, EventBus, RunningBatchConsumer, connectEventBus, startBatchConsumer } from '../src';

/**
 * The batch consumer the audit log and the download counts read their streams with, on the
 * suite's NATS: malformed messages are terminated, a batch that fails comes back whole, and a
 * consumer whose replicas take turns reads only while it holds the turn.
 */
const infra = testInfrastructure();
const logger = createLogger({ service: 'batch-consumer-test', level: 'silent', destination: new Writable({ write: (_c, _e, d) => d() }) });
const schema = z.object({ n: z.number().int() });

describe('events: the batch consumer', () => {
  let bus: EventBus;
  let running: RunningBatchConsumer | undefined;
  let stream = '';
  let subject = '';

  beforeAll(async () => {
    bus = await connectEventBus(infra.natsUrl, 'batch-consumer-test', logger);
  });
  beforeEach(async () => {
    stream = uniqueName('BATCH').toUpperCase().replace(/[^A-Z0-9_]/g, '_');
    subject = `${stream.toLowerCase()}.messages`;
    await bus.jsm.streams.add({ name: stream, subjects: [subject], retention: RetentionPolicy.Limits, storage: StorageType.File });
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    await bus.jsm.streams.delete(stream).catch(() => undefined);
  });
  afterAll(async () => {
    await bus?.nc.close();
  });

  const publish = async (...bodies: string[]) => {
    for (const body of bodies) await bus.js.publish(subject, body);
  };

  it('when messages arrive, then valid ones are handled in stream order and acked, and malformed ones terminated, not handed over', async () => {
    const seen: BatchMessage<{ n: number }>[] = [];
    running = await startBatchConsumer({ durable: 'ordered', stream, schema, batchSize: 50, ackWaitMs: 5_000, handle: async (batch) => void seen.push(...batch) }, { bus, logger });
    await publish('{"n":1}', 'not json', '{"n":"two"}', '{"n":3}');
    await eventually(() => seen.length === 2, { what: 'the two valid messages handled' });
    expect(seen.map((m) => m.data.n)).toEqual([1, 3]);
    expect(seen.map((m) => m.seq)).toEqual([1, 4]);
    // Nothing left for the durable: the valid ones acked, the malformed terminated.
    await eventually(async () => {
      const info = await bus.jsm.consumers.info(stream, 'ordered');
      return info.num_pending === 0 && info.num_ack_pending === 0;
    }, { what: 'every message acked or terminated' });
  });

  it('when a batch fails, then it comes back whole after a pause and is handled once it succeeds', async () => {
    const attempts: number[][] = [];
    running = await startBatchConsumer(
      {
        durable: 'retried',
        stream,
        schema,
        batchSize: 10,
        ackWaitMs: 5_000,
        async handle(batch) {
          attempts.push(batch.map((m) => m.data.n));
          if (attempts.length === 1) throw new Error('the store is away');
        },
      },
      { bus, logger },
    );
    await publish('{"n":1}', '{"n":2}');
    await eventually(() => attempts.length >= 2, { what: 'the failed batch handled again' });
    // Two messages may be fetched in one batch or two: what failed comes back, nothing is lost.
    expect(attempts.flat().filter((n, i, all) => all.indexOf(n) === i).sort()).toEqual([1, 2]);
    await eventually(async () => (await bus.jsm.consumers.info(stream, 'retried')).num_ack_pending === 0, { what: 'all acked after the retry' });
  });

  it('when the stream is quiet, then it pulls nothing until a message is published or its quiet look is due', async () => {
    const pulls: number[] = [];
    const get = bus.js.consumers.get.bind(bus.js.consumers);
    const spy = jest.spyOn(bus.js.consumers, 'get').mockImplementation(async (...args: Parameters<typeof get>) => {
      const consumer = await get(...args);
      const fetch = consumer.fetch.bind(consumer);
      consumer.fetch = (opts) => {
        pulls.push(performance.now());
        return fetch(opts);
      };
      return consumer;
    });
    try {
      const seen: number[] = [];
      const quietLookMs = 3_000;
      running = await startBatchConsumer(
        { durable: 'quiet', stream, schema, batchSize: 10, ackWaitMs: 5_000, handle: async (batch) => void seen.push(...batch.map((m) => m.data.n)) },
        { bus, logger, quietLookMs },
      );
      await publish('{"n":1}');
      await eventually(() => seen.length === 1, { what: 'the message handled (the doorbell rang: the quiet look is 3 s away)' });
      // After the batch, one more round finds nothing; the next pull is the quiet look's.
      const quietFrom = pulls.length;
      await eventually(() => pulls.length >= quietFrom + 2, { timeoutMs: 15_000, what: 'the quiet look' });
      // Pulling every second, as before, would show a gap of about one second here.
      expect(pulls[quietFrom + 1]! - pulls[quietFrom]!).toBeGreaterThanOrEqual(quietLookMs - 5);

      await publish('{"n":2}');
      await eventually(() => seen.length === 2, { what: 'a message published while quiet handled' });
      expect(seen).toEqual([1, 2]);
    } finally {
      spy.mockRestore();
    }
  });

  it('when its round is wrapped in a turn not held, then it fetches nothing until the turn is held', async () => {
    let holding = false;
    const seen: number[] = [];
    let asked = 0;
    running = await startBatchConsumer(
      {
        durable: 'turns',
        stream,
        schema,
        batchSize: 10,
        ackWaitMs: 5_000,
        handle: async (batch) => void seen.push(...batch.map((m) => m.data.n)),
        async around(round) {
          asked += 1;
          if (!holding) return false;
          await round();
          return true;
        },
      },
      { bus, logger, idleRetryMs: 20 },
    );
    await publish('{"n":7}');
    await eventually(() => asked >= 5, { what: 'the turn asked for several times' });
    expect(seen).toEqual([]);
    expect((await bus.jsm.consumers.info(stream, 'turns')).num_pending).toBe(1);
    holding = true;
    await eventually(() => seen.length === 1, { what: 'the message handled once the turn is held' });
    expect(seen).toEqual([7]);
  });
});
