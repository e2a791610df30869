import mongoose, { Connection, Model } from 'mongoose';
import { KV } from '@nats-io/kv';
import { createLogger } from '@hangar/logger';
import { NatsCluster, eventually, startNatsCluster, testInfrastructure, uniqueName } from '@hangar/testing';
import {
  Envelope,
  EventBus,
  OutboxFields,
  OutboxRelay,
  RunningConsumer,
  connectEventBus,
  createEnvelope,
  durableNameOf,
  ensureEventStream,
  isDisconnected,
  newOutbox,
  openKvBucket,
  outboxSchemaFields,
  startConsumer,
  streamNameFor,
} from '../src';

/**
 * A three-node NATS JetStream cluster on loopback (nats-server with routes, each node its own
 * store), Hangar's stream, durable consumers and a KV bucket made through libs/events with
 * NATS_REPLICAS=3, and a steady flow of outbox events from a producer to a consumer group of
 * two (two connections sharing one durable, as two replicas of a service do). The node leading
 * the event stream is killed (SIGKILL) and restarted, then the node leading it next is paused
 * (SIGSTOP, a partition: its sockets stay open and say nothing). Events must keep flowing while
 * a node is gone, and in the end every event published was handled exactly once as the
 * consumers see it — they claim each event id in MongoDB, as Hangar's consumers make a
 * redelivery harmless — none lost, none stored twice, and the KV values intact.
 *
 * `NATS_CLUSTER_TEST_REPLICAS=1` runs the same with one copy of everything: the stream lives
 * on the node that is killed, and nothing flows until it is back (the test fails).
 */

const REPLICAS = Number(process.env.NATS_CLUSTER_TEST_REPLICAS ?? 3);
/** Events that must be handled after each disruption before the test goes on: proof the flow resumed. */
const PROGRESS = 25;
/** Time between two events of the producer: about 25 a second, a pace two cores keep up with beside FerretDB. */
const PRODUCE_EVERY_MS = 40;

// Above the sum of the test's own bounded waits (each names its step when it runs out): a jest
// deadline under that sum failed a slow run with no word of where it was (CI 2026-11-30: 91 s,
// against 35–40 s in every other run that day, starved ones included).
jest.setTimeout(480_000);

const infra = testInfrastructure();
const silent = createLogger({ service: 'nats-cluster-test', level: 'silent' });

interface Thing extends OutboxFields {
  _id: number;
}

interface Claim {
  _id: string;
}

describe('libs/events on a three-node NATS JetStream cluster', () => {
  const prefix = uniqueName('clu');
  const dbName = uniqueName('nats_cluster');
  let cluster: NatsCluster;
  const buses: EventBus[] = [];
  const consumers: RunningConsumer[] = [];
  let relay: OutboxRelay | undefined;
  let producing = false;
  let production: Promise<void> | undefined;
  let connection: Connection;
  let things: Model<Thing>;
  let claims: Model<Claim>;

  /** The stream's state as the cluster answers it now; undefined while it cannot (no leader). */
  async function streamInfo(bus: EventBus) {
    return bus.jsm.streams.info(streamNameFor(prefix)).catch(() => undefined);
  }

  /** The stream's leader, asked through every connection at once: one on a paused node answers nothing. */
  async function streamLeader(): Promise<string | undefined> {
    return Promise.any(buses.map(async (bus) => (await bus.jsm.streams.info(streamNameFor(prefix))).cluster?.leader ?? Promise.reject(new Error('no leader')))).catch(() => undefined);
  }

  /** A connection as a service makes it, once JetStream answers (the cluster has a meta leader). */
  async function connectWhenReady(name: string, replicas: number): Promise<EventBus> {
    let bus!: EventBus;
    await eventually(
      async () =>
        connectEventBus(cluster.url, name, silent, { replicas }).then(
          (connected) => ((bus = connected), true),
          () => false,
        ),
      { what: `JetStream answering ${name}`, timeoutMs: 30_000 },
    );
    buses.push(bus);
    return bus;
  }

  /** Whether a raft group (a stream's, a consumer's) has a leader and every other copy is current. */
  function copiesCurrent(cluster: { leader?: string; replicas?: { current: boolean; offline?: boolean }[] } | undefined): boolean {
    const peers = cluster?.replicas ?? [];
    return !!cluster?.leader && peers.length === REPLICAS - 1 && peers.every((p) => p.current && !p.offline);
  }

  /** Whether every copy of a stream (a KV bucket's is `KV_<bucket>`) has a leader and is current. */
  async function allCopiesCurrent(bus: EventBus, name: string): Promise<boolean> {
    return copiesCurrent((await bus.jsm.streams.info(name).catch(() => undefined))?.cluster);
  }

  /**
   * The stream, the bucket and the durable consumer all current. The consumer is a raft group of
   * its own: pausing its leader while a restarted node's copy still caught up left one of three,
   * no quorum, and no consumer for the rest of the test (CI: 25 s of "JetStream system temporarily
   * unavailable", the stream's copies current 185 ms after the restart).
   */
  async function everyCopyCurrent(bus: EventBus, stream: string, bucket: string, durable: string): Promise<boolean> {
    return (
      (await allCopiesCurrent(bus, stream)) &&
      (await allCopiesCurrent(bus, `KV_${bucket}`)) &&
      copiesCurrent((await bus.jsm.consumers.info(stream, durable).catch(() => undefined))?.cluster)
    );
  }

  beforeAll(async () => {
    cluster = await startNatsCluster(3);

    connection = await mongoose.createConnection(infra.mongoUrl, { dbName, bufferCommands: false, serverSelectionTimeoutMS: 3_000 }).asPromise();
    things = connection.model<Thing>('Thing', new mongoose.Schema<Thing>({ _id: Number, ...outboxSchemaFields }, { collection: 'things', timestamps: true, versionKey: false }));
    claims = connection.model<Claim>('Claim', new mongoose.Schema<Claim>({ _id: String }, { collection: 'claims', versionKey: false }));
    await things.init();
    await claims.init();
  });

  afterAll(async () => {
    producing = false;
    await production?.catch(() => undefined);
    await Promise.all(consumers.map((c) => c.stop()));
    await relay?.stop();
    await Promise.all(buses.map((b) => b.nc.close().catch(() => undefined)));
    await cluster?.close();
    await connection?.dropDatabase();
    await connection?.close();
  });

  it('when the node leading the event stream is killed and restarted, and then the next leader is paused, then every event is handled exactly once, none is lost and the KV values survive', async () => {
    const started = Date.now();
    const phases: string[] = [];
    let phaseStart = started;
    const phase = (name: string) => {
      phases.push(`${name} ${Date.now() - phaseStart} ms`);
      phaseStart = Date.now();
      // Each step as it ends, so a run that fails or is cut off shows how far it got and how long each step took.
      process.stdout.write(`nats cluster, step done: ${phases.at(-1)}\n`);
    };
    const stream = streamNameFor(prefix);
    const bucket = `${prefix}-values`;

    // An installation that ran with one copy of everything: its stream and a KV bucket with
    // values in it, made by a process with NATS_REPLICAS=1.
    const before = await connectWhenReady('cluster-before', 1);
    await eventually(async () => ensureEventStream(before.jsm, prefix).then(() => true, () => false), { what: 'the event stream created on the cluster', timeoutMs: 20_000 });
    const values = new Map(Array.from({ length: 20 }, (_, i) => [`key-${i}`, `value-${i}-${uniqueName('v')}`]));
    const earlierKv = await openKvBucket(before.nc, bucket, { history: 1 });
    for (const [key, value] of values) await earlierKv.put(key, value);

    // Its processes start again with NATS_REPLICAS=3: the stream and the bucket get three copies
    // each (a KV bucket made the way Hangar makes its caches' generations, limits, uploads).
    const producer = await connectWhenReady('cluster-producer', REPLICAS);
    await ensureEventStream(producer.jsm, prefix);
    expect((await producer.jsm.streams.info(stream)).config.num_replicas).toBe(REPLICAS);
    const kv: KV = await openKvBucket(producer.nc, bucket, { history: 1 });
    expect((await kv.status()).replicas).toBe(REPLICAS);

    // The consumer group: two connections, one durable, each message to one of them. A handler
    // claims the event's id in MongoDB first (an insert refused for an id already claimed) —
    // how Hangar's consumers make a redelivery after a failover harmless.
    const handledIds = new Map<string, number>();
    let deliveries = 0;
    const handler = {
      durable: 'cluster-test',
      event: 'app.deleted' as const,
      async handle(envelope: Envelope<'app.deleted'>) {
        deliveries++;
        try {
          await claims.create({ _id: envelope.id });
        } catch (err) {
          if ((err as { code?: number }).code === 11000) return 'skipped' as const;
          throw err;
        }
        handledIds.set(envelope.id, (handledIds.get(envelope.id) ?? 0) + 1);
        return 'done' as const;
      },
    };
    for (const name of ['cluster-consumer-a', 'cluster-consumer-b']) {
      const bus = await connectEventBus(cluster.url, name, silent, { replicas: REPLICAS });
      buses.push(bus);
      // A short ack wait: a message the paused node's consumer had taken comes back in seconds.
      consumers.push(await startConsumer(handler, { bus, logger: silent, prefix, ackWaitMs: 5_000 }));
    }
    const durable = durableNameOf(handler.durable, handler.event);
    // Consumers name no replica count of their own: they keep as many copies as their stream.
    expect((await producer.jsm.consumers.info(stream, durable)).cluster?.replicas?.length ?? 0).toBe(REPLICAS - 1);

    // The producer: a document with an event in its outbox every PRODUCE_EVERY_MS, published by
    // the outbox relay (message id = event id) as in every service.
    relay = new OutboxRelay({ models: [things], js: producer.js, logger: silent, prefix, intervalMs: 250 });
    relay.start();
    const published: string[] = [];
    producing = true;
    production = (async () => {
      for (let id = 1; producing; id++) {
        const envelope = createEnvelope('app.deleted', { app_id: id }, 'cluster-test');
        await things.create({ _id: id, ...newOutbox(envelope) });
        published.push(envelope.id);
        relay!.poke();
        await new Promise((resolve) => setTimeout(resolve, PRODUCE_EVERY_MS));
      }
    })();
    const handled = () => handledIds.size;
    const progressFrom = async (from: number, what: string) =>
      eventually(() => handled() >= from + PROGRESS, {
        what,
        timeoutMs: 25_000,
        explain: async () => {
          const info = await producer.jsm.consumers.info(stream, durable).catch((err: Error) => err.message);
          const state = typeof info === 'string' ? info : { pending: info.num_pending, ackPending: info.num_ack_pending, waiting: info.num_waiting, cluster: info.cluster };
          return `${handled() - from} handled since, ${published.length} published; consumer ${JSON.stringify(state)}; stream leader ${(await streamInfo(producer))?.cluster?.leader}`;
        },
      });

    await progressFrom(0, 'events flowing before any disruption');

    // The copies made when the count was raised have caught up.
    await eventually(() => everyCopyCurrent(producer, stream, bucket, durable), { what: 'three current copies', timeoutMs: 20_000 });

    phase('cluster, stream, bucket and first events');

    // 1. The stream's leader is killed: the two others elect a leader and go on, without it.
    const leader = cluster.node((await streamInfo(producer))?.cluster?.leader);
    if (!leader) throw new Error('the event stream has no leader');
    await cluster.stop(leader, 'SIGKILL');
    const killedAt = handled();
    await progressFrom(killedAt, `events handled while the stream's leader ${leader.name} is dead`);
    phase('leader killed, events flowing');
    // Every value is still read while that node is down. Not at the first try: the bucket is a
    // raft group of its own, and a read sent while it still elects (or while the producer's
    // connection moves off the dead node) times out (seen once in CI: a 5 s request timeout just
    // after the kill). Hangar's callers have a fallback for such a failed read; what must hold is
    // that the values are there, readable from the two nodes left.
    // All keys at once, so a pass lasts one request timeout (5 s), not one per key. A failure names
    // each key's answer: CI's 'none read in 20 s' (2026-12-01) was, so named, NATS 2.9.10's bucket
    // without a leader after the kill (why startNatsCluster runs 2.10).
    const unread = async () => {
      const reads = await Promise.all(
        [...values].map(async ([key, value]) => {
          const read = await kv.get(key).then(
            (entry) => entry?.string() ?? 'no entry',
            (err: Error) => `${err.name}: ${err.message}`,
          );
          return read === value ? undefined : `${key} (${read})`;
        }),
      );
      return reads.filter((wrong) => wrong !== undefined);
    };
    await eventually(async () => (await unread()).length === 0, {
      what: `every value read while ${leader.name} is dead`,
      timeoutMs: 30_000,
      explain: async () =>
        `not read yet: ${(await unread()).join(', ')}; the producer's connection on ${producer.nc.info?.server_name} ` +
        `(${isDisconnected(producer.nc) ? 'disconnected' : 'connected'}); the bucket's leader ${(await producer.jsm.streams.info(`KV_${bucket}`).catch(() => undefined))?.cluster?.leader}`,
    });

    phase('every value read');

    // 2. It is started again on its store and catches up: three current copies of the stream, the
    // bucket and the consumer.
    await cluster.start(leader);
    await eventually(() => everyCopyCurrent(producer, stream, bucket, durable), { what: `${leader.name} back and current`, timeoutMs: 20_000 });

    phase('restarted and caught up');

    // 3. The stream's leader now is paused: its sockets stay open and silent, as across a
    // partition. The others must notice by themselves (raft heartbeats, client pings). It stays
    // paused until they elected another leader and events flowed without it.
    const paused = cluster.node((await streamInfo(producer))?.cluster?.leader);
    if (!paused) throw new Error('the event stream has no leader after the restart');
    await cluster.pause(paused);
    const pausedAt = Date.now();
    const handledAtPause = handled();
    await eventually(
      async () => {
        const now = await streamLeader();
        return now !== undefined && now !== paused.name;
      },
      {
        what: `a leader other than the paused ${paused.name}`,
        timeoutMs: 25_000,
        explain: () => `connections on ${buses.map((b) => b.nc.info?.server_name).join(', ')}`,
      },
    );
    await progressFrom(handledAtPause, `events handled while ${paused.name} is paused`);
    const pausedForMs = Date.now() - pausedAt;
    cluster.resume(paused);

    phase('paused, events flowing');

    // 4. The producer stops; everything published reaches the consumers.
    producing = false;
    await production;
    // The backlog of the pause goes out one event at a time, each a publish and a database write:
    // on a starved machine (stress-ng beside it) that outlasted 20 s.
    await eventually(async () => (await things.countDocuments({ outboxPending: true })) === 0, {
      what: 'the outbox relayed',
      timeoutMs: 60_000,
      explain: async () => `${await things.countDocuments({ outboxPending: true })} of ${published.length} events still in the outbox; the producer's connection on ${producer.nc.info?.server_name}`,
    });
    await eventually(() => handled() >= published.length, {
      what: 'every published event handled',
      timeoutMs: 60_000,
      explain: async () => {
        const info = await producer.jsm.consumers.info(stream, durable).catch((err: Error) => err.message);
        const state = typeof info === 'string' ? info : { pending: info.num_pending, ackPending: info.num_ack_pending, waiting: info.num_waiting, cluster: info.cluster };
        return `${handled()} of ${published.length}; consumer ${JSON.stringify(state)}`;
      },
    });

    // Exactly once as the consumers see it: each id claimed once, no id unknown to the producer.
    expect(published.filter((id) => handledIds.get(id) !== 1)).toEqual([]);
    expect(handledIds.size).toBe(published.length);
    expect(await claims.countDocuments()).toBe(published.length);
    // None stored twice: a publish repeated across a failover was dropped by the stream's
    // duplicate window (message id = event id), on whichever node led it then.
    await eventually(async () => (await streamInfo(producer))?.state.messages === published.length, {
      what: 'the stream holding each event once',
      explain: async () => `${(await streamInfo(producer))?.state.messages} messages for ${published.length} events`,
    });
    // The KV values survived the kill and the pause, read through a fresh connection.
    const reader = await connectWhenReady('cluster-reader', REPLICAS);
    const readBack = await openKvBucket(reader.nc, bucket, { history: 1 });
    for (const [key, value] of values) expect((await readBack.get(key))?.string()).toBe(value);

    phase('drained and checked');
    process.stdout.write(
      `nats cluster: ${published.length} events, ${deliveries} deliveries (${deliveries - published.length} redelivered), ` +
        `killed ${leader.name}, paused ${paused.name} for ${pausedForMs} ms, ${Date.now() - started} ms in all (${phases.join(', ')})\n`,
    );
  });
});
