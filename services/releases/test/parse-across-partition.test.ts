import { connect, type Msg, type NatsConnection } from '@nats-io/transport-node';
import { EventBus, connectEventBus } from '@hangar/events';
import { createLogger } from '@hangar/logger';
import { NatsCluster, eventually, startNatsCluster, uniqueName } from '@hangar/testing';
import { PARSE_ACCEPT_HEADER, PARSE_HEARTBEAT_HEADER, PARSE_QUEUE_GROUP, type ParseReply, parseRouter, parseSubject } from '@hangar/parse-jobs';

jest.setTimeout(120_000);

/**
 * A parse asked over NATS while the node the releases process talks to freezes (SIGSTOP, as a
 * partition does: the socket stays open and says nothing). The worker, on another node, got the
 * request; its answer goes toward the frozen node and is lost. nats.js does not fail a request
 * when its connection drops, so before the parse router asked again on a disconnect the upload
 * waited out the whole parse timeout (63 s in the cluster e2e test) and was refused.
 */
describe('parsing asked across a frozen NATS node', () => {
  const prefix = uniqueName('parse-partition');
  const logger = createLogger({ service: 'parse-partition-test', level: 'silent' });
  let cluster: NatsCluster;
  let bus: EventBus;
  let worker: NatsConnection;

  /** What the releases side sends to learn that a worker's subscription has reached its node; the workers answer it at once and count it as no ask. */
  const PROBE = 'probe';
  const isProbe = (msg: Msg) => msg.string() === PROBE && (msg.respond('pong'), true);
  /**
   * Until a request from the releases side reaches the worker: interest in a subject crosses the
   * cluster's routes a moment after the worker subscribes, and a parse asked before then is told
   * at once that no worker runs (flushing either connection does not wait for the routes).
   */
  const untilWorkerReachable = (subject: string) =>
    eventually(async () => bus.nc.request(subject, PROBE, { timeout: 1_000 }).then(() => true, () => false), { what: `the worker reachable on ${subject} from the releases side`, timeoutMs: 30_000 });

  beforeAll(async () => {
    cluster = await startNatsCluster(3);
  });

  afterAll(async () => {
    await worker?.close().catch(() => undefined);
    await bus?.nc.close().catch(() => undefined);
    await cluster?.close();
  });

  it('when the node freezes after the worker got the request, then the parse is asked again on the reconnect and answered, not timed out', async () => {
    const [near, far] = cluster.nodes;
    // The releases side on the node that will freeze (the others are learnt from the cluster);
    // the worker on another node.
    // JetStream answers once the new cluster has elected its meta leader.
    await eventually(
      async () =>
        connectEventBus(`nats://127.0.0.1:${near!.clientPort}`, 'releases', logger).then(
          (connected) => !!(bus = connected),
          () => false,
        ),
      { what: 'a connection to the new cluster with JetStream', timeoutMs: 30_000 },
    );
    worker = await connect({ servers: `nats://127.0.0.1:${far!.clientPort}` });
    const asked: string[] = [];
    const second: ParseReply = { ok: false, kind: 'unknown', message: 'answered on the second ask' };
    worker.subscribe(parseSubject(prefix), {
      queue: PARSE_QUEUE_GROUP,
      callback: (_err, msg) => {
        if (isProbe(msg)) return;
        asked.push((msg.json() as { objectKey: string }).objectKey);
        if (asked.length === 1) {
          // The partition starts between the request's arrival and its answer: the answer is lost.
          void cluster.pause(near!).then(() => msg.respond(JSON.stringify({ ok: false, kind: 'unknown', message: 'lost with the frozen node' })));
          return;
        }
        msg.respond(JSON.stringify(second));
      },
    });
    await worker.flush();
    await untilWorkerReachable(parseSubject(prefix));

    const parse = parseRouter({ nc: bus.nc, prefix, timeoutMs: 60_000, storage: undefined as never, logger, localWorker: false, concurrency: 1 });
    try {
      await expect(parse('uploads/object-key')).resolves.toEqual(second);
    } finally {
      cluster.resume(near!);
    }
    // Asked at least twice (a re-ask sent into the frozen node's socket never reached the worker).
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(new Set(asked)).toEqual(new Set(['uploads/object-key']));
  });

  it('when the request is lost on its way (no worker confirms it), then it is asked again after the confirmation timeout and answered', async () => {
    const lostPrefix = uniqueName('parse-lost');
    let asked = 0;
    const answer: ParseReply = { ok: false, kind: 'unknown', message: 'answered on the second ask' };
    // A worker the first request reaches as if it never had: no confirmation, no answer (it went
    // toward a node that froze, or a worker that died). Confirmed and answered the second time.
    const sub = worker.subscribe(parseSubject(lostPrefix), {
      queue: PARSE_QUEUE_GROUP,
      callback: (_err, msg) => {
        if (isProbe(msg)) return;
        asked += 1;
        if (asked === 1) return;
        expect(msg.headers?.get(PARSE_ACCEPT_HEADER)).toBe('1');
        msg.respond(JSON.stringify({ accepted: true }));
        msg.respond(JSON.stringify(answer));
      },
    });
    await worker.flush();
    await untilWorkerReachable(parseSubject(lostPrefix));
    try {
      const parse = parseRouter({ nc: bus.nc, prefix: lostPrefix, timeoutMs: 60_000, storage: undefined as never, logger, localWorker: false, concurrency: 1 });
      await expect(parse('uploads/lost-key')).resolves.toEqual(answer);
      expect(asked).toBe(2);
    } finally {
      sub.unsubscribe();
    }
  });

  it('when the worker that confirmed falls silent mid-parse (it died), then the parse is asked again after the silence and answered; a worker that keeps beating is waited for', async () => {
    const silentPrefix = uniqueName('parse-silent');
    let asked = 0;
    const answer: ParseReply = { ok: false, kind: 'unknown', message: 'answered by the second worker' };
    const timers: NodeJS.Timeout[] = [];
    // First ask: confirmed, then never another word (a parse-workers pod killed mid-parse).
    // Second ask: confirmed, beats for three times the silence allowed, then answers.
    const sub = worker.subscribe(parseSubject(silentPrefix), {
      queue: PARSE_QUEUE_GROUP,
      callback: (_err, msg) => {
        if (isProbe(msg)) return;
        asked += 1;
        expect(msg.headers?.get(PARSE_HEARTBEAT_HEADER)).toBe('1');
        msg.respond(JSON.stringify({ accepted: true }));
        if (asked === 1) return;
        const beats = setInterval(() => msg.respond(JSON.stringify({ working: true })), 200);
        timers.push(beats);
        timers.push(
          setTimeout(() => {
            clearInterval(beats);
            msg.respond(JSON.stringify(answer));
          }, 3 * 1_000),
        );
      },
    });
    await worker.flush();
    await untilWorkerReachable(parseSubject(silentPrefix));
    try {
      const parse = parseRouter({ nc: bus.nc, prefix: silentPrefix, timeoutMs: 60_000, storage: undefined as never, logger, localWorker: false, concurrency: 1, timings: { silenceMs: 1_000 } });
      await expect(parse('uploads/silent-key')).resolves.toEqual(answer);
      expect(asked).toBe(2);
    } finally {
      for (const timer of timers) clearTimeout(timer);
      sub.unsubscribe();
    }
  });
});
