import { AckPolicy, DeliverPolicy, JsMsg } from '@nats-io/jetstream';
import type { ConsumerMessages } from '@nats-io/jetstream';
import { Logger, REQUEST_ID_HEADER, acceptRequestId, runWithContext } from '@hangar/logger';
import { Metrics, eventConsumerMetrics } from '@hangar/metrics';
import { SpanKind, contextFromHeaders, inSpan } from '@hangar/telemetry';
import { DEFAULT_SUBJECT_PREFIX, EventType, subjectOf } from './event-registry';
import { Envelope, MalformedEventError, parseEnvelope } from './envelope';
import { ensureEventStream } from './event-stream';
import type { EventBus } from './nats-connection';

/** `done`: the work happened; `skipped`: nothing to do (already done, not ours). */
export type HandlerResult = 'done' | 'skipped';

export interface EventHandler<T extends EventType = EventType> {
  /** Durable consumer name: stable across restarts and shared by replicas. */
  durable: string;
  event: T;
  /** Must be idempotent: a redelivered event may arrive after a crash. */
  handle(envelope: Envelope<T>): Promise<HandlerResult>;
}

export interface RunningConsumer {
  stop(): Promise<void>;
}

export interface ConsumerOptions {
  bus: EventBus;
  logger: Logger;
  prefix?: string;
  ackWaitMs?: number;
  /** Cap of the exponential redelivery backoff. */
  maxBackoffMs?: number;
  /** Outcomes, redeliveries and lag (hangar_event_consumer_*). */
  metrics?: Metrics;
  /** How often the consumer's num_pending is sampled into hangar_event_consumer_pending. */
  pendingSampleMs?: number;
}

/** The JetStream name of a handler's durable: `<durable>-<event>`, the event's dots made underscores. */
export function durableNameOf(durable: string, event: EventType): string {
  return `${durable}-${event.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** Delay before redelivery: 1 s, 2 s, 4 s, … capped. */
export function backoffMs(deliveryCount: number, maxBackoffMs = 60_000): number {
  return Math.min(1_000 * 2 ** Math.max(0, deliveryCount - 1), maxBackoffMs);
}

/**
 * Runs one handler on its own durable pull consumer. Malformed messages are
 * terminated and logged (redelivery cannot fix them); failures are retried
 * with backoff, without limit, because the work (deleting files, calling
 * webhooks) must not be forgotten; long work keeps the message alive.
 */
export async function startConsumer<T extends EventType>(handler: EventHandler<T>, options: ConsumerOptions): Promise<RunningConsumer> {
  const { bus, logger, prefix = DEFAULT_SUBJECT_PREFIX, ackWaitMs = 30_000, maxBackoffMs = 60_000, metrics, pendingSampleMs = 15_000 } = options;
  const stream = await ensureEventStream(bus.jsm, prefix);
  const durable = durableNameOf(handler.durable, handler.event);
  // NATS 2.9 (Debian's) has no multi-subject filters: one durable per event type.
  const config = {
    durable_name: durable,
    filter_subject: subjectOf(handler.event, prefix),
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: ackWaitMs * 1e6,
    max_deliver: -1,
  };
  try {
    await bus.jsm.consumers.info(stream, durable);
  } catch {
    await bus.jsm.consumers.add(stream, config);
  }
  const consumer = await bus.js.consumers.get(stream, durable);
  // One message at a time: handlers run one after another, and a prefetched
  // message's ack wait runs while it sits in the buffer, so with 16 buffered
  // slow work got them redelivered before they were even started.
  // A pull waits at its consumer's leader; when that NATS node dies or is cut off, the pull is
  // gone without a word, and only missing heartbeats tell the client to pull again elsewhere.
  // nats.js's default (a 30 s pull, heartbeats every 15 s, two missed) left a consumer idle for
  // 30 s after each failover on a cluster (libs/events/test/nats-cluster.test.ts); heartbeats
  // every 2 s make it about 4 s, for one tiny message per 2 s while the consumer has nothing to do.
  const messages: ConsumerMessages = await consumer.consume({ max_messages: 1, expires: 10_000, idle_heartbeat: 2_000 });
  const log = logger.child({ consumer: durable });
  const counters = metrics ? eventConsumerMetrics(metrics) : undefined;
  const labels = { consumer: durable, event: handler.event };
  const record = (result: 'done' | 'skipped' | 'failed' | 'malformed') => counters?.processed.inc({ ...labels, result });

  // Lag: what JetStream has not delivered to this durable yet, sampled (a
  // scrape must not wait on NATS). Missing a sample only leaves the old value.
  const samplePending = async () => {
    try {
      const info = await consumer.info();
      counters?.pending.set({ consumer: durable }, info.num_pending);
    } catch {
      // NATS away or stopping: the next sample tries again.
    }
  };
  let pendingTimer: NodeJS.Timeout | undefined;
  if (counters) {
    void samplePending();
    pendingTimer = setInterval(() => void samplePending(), pendingSampleMs);
    pendingTimer.unref();
  }

  const loop = (async () => {
    for await (const msg of messages) {
      await processMessage(msg);
    }
  })();

  async function processMessage(msg: JsMsg): Promise<void> {
    if (msg.info.deliveryCount > 1) counters?.redeliveries.inc(labels);
    let envelope: Envelope<T>;
    try {
      envelope = parseEnvelope(msg.string()) as Envelope<T>;
    } catch (err) {
      log.error({ err, subject: msg.subject, seq: msg.seq, reason: err instanceof MalformedEventError ? err.message : 'malformed' }, 'terminating malformed event');
      // No reason argument: `+TERM <reason>` needs NATS 2.10.4+; 2.9 compares the
      // ack body exactly, ignores it, and redelivers the message forever.
      msg.term();
      record('malformed');
      return;
    }
    const requestId = acceptRequestId(msg.headers?.get(REQUEST_ID_HEADER));
    // Well inside the ack wait: a 1 s floor made it fire no earlier than an
    // ack wait of 1 s expires, so long work was redelivered mid-flight.
    const heartbeat = setInterval(() => msg.working(), Math.max(50, ackWaitMs / 3));
    try {
      // A consumer span continuing the publisher's trace (headers), so the
      // handler's database calls and onward events belong to the same trace.
      const span = {
        kind: SpanKind.CONSUMER,
        parent: contextFromHeaders(msg.headers),
        attributes: { 'messaging.system': 'nats', 'messaging.destination.name': msg.subject, 'messaging.consumer.group.name': durable, 'messaging.message.id': envelope.id },
      };
      const result = await inSpan(`process ${handler.event}`, span, () => runWithContext({ requestId }, () => handler.handle(envelope)));
      msg.ack();
      record(result === 'skipped' ? 'skipped' : 'done');
      log.debug({ eventId: envelope.id, result }, 'event handled');
    } catch (err) {
      const delay = backoffMs(msg.info.deliveryCount, maxBackoffMs);
      log.warn({ err, eventId: envelope.id, attempt: msg.info.deliveryCount, retryInMs: delay }, 'event handling failed; will retry');
      msg.nak(delay);
      record('failed');
    } finally {
      clearInterval(heartbeat);
    }
  }

  return {
    async stop() {
      clearInterval(pendingTimer);
      messages.stop();
      await loop.catch(() => undefined);
    },
  };
}
