import { AckPolicy, DeliverPolicy, type JsMsg } from '@nats-io/jetstream';
import type { Logger } from '@hangar/logger';
import type { z } from 'zod';
import type { EventBus } from './nats-connection';

/** One message of a batch: what it says, and its place in the stream (a redelivery keeps it). */
export interface BatchMessage<M> {
  data: M;
  seq: number;
}

export interface BatchConsumer<M> {
  /** Durable consumer name: stable across restarts and shared by replicas. */
  durable: string;
  /** The stream read, already made by its `ensure…Stream` (audit, downloads). */
  stream: string;
  /** What a message must be; anything else is terminated and logged (redelivery cannot fix it). */
  schema: z.ZodType<M>;
  /** Messages per fetch. */
  batchSize: number;
  /** A batch not acked by then is redelivered; one being handled is kept alive meanwhile. */
  ackWaitMs: number;
  /** The durable's max_ack_pending, when it must be bounded (JetStream's default otherwise). */
  maxAckPending?: number;
  /**
   * Handles a batch's valid messages, in stream order. Must be idempotent per message: a batch
   * that throws is redelivered whole after a backoff, including what it had already done.
   */
  handle(batch: BatchMessage<M>[]): Promise<void>;
  /** Called with the messages' keep-alives while a batch is handled, e.g. to keep a lease too. */
  onKeepAlive?: () => void;
  /**
   * Wraps each round (fetch and handle): a consumer whose replicas take turns runs `round` only
   * while it holds the turn, and does what else belongs to it (the turn's release) around it.
   * Resolves false when it did not run `round`: the loop asks again after `idleRetryMs`.
   */
  around?: (round: () => Promise<void>) => Promise<boolean>;
}

export interface BatchConsumerOptions {
  bus: EventBus;
  logger: Logger;
  /** How long a fetch waits for a batch to fill (the NATS client's minimum is 1 s). */
  fetchWaitMs?: number;
  /** The pause before asking again when `around` did not run a round. */
  idleRetryMs?: number;
  /** Cap of the exponential backoff after failed rounds (1 s, 2 s, 4 s, …). */
  maxBackoffMs?: number;
  /** How often a quiet stream is read anyway, for what no doorbell announced (30 s). */
  quietLookMs?: number;
}

export interface RunningBatchConsumer {
  stop(): Promise<void>;
}

/**
 * Reads a stream of plain messages (not event envelopes: `startConsumer` runs those) a batch at
 * a time on a durable pull consumer, so that a burst costs a few writes, not one per message:
 * the audit log's entries and the download counts. Nothing is lost while the service restarts
 * (the durable keeps its place); a batch is acked only once handled; a failed round is retried
 * without limit after a growing pause, because what these streams carry must not be forgotten.
 *
 * While the stream is quiet it does not pull: a plain subscription to the stream's subjects (the
 * doorbell) says when something was published, and rounds run from then until one finds nothing.
 * Pulling every second cost an idle service a pull (and, for the download counts, two writes of
 * the turn's key) a second. What no doorbell announces — a batch redelivered after its holder
 * died, messages published while NATS was reconnecting — is found by a round every `quietLookMs`.
 */
export async function startBatchConsumer<M>(consumerSpec: BatchConsumer<M>, options: BatchConsumerOptions): Promise<RunningBatchConsumer> {
  const { bus, fetchWaitMs = 1000, idleRetryMs = 200, maxBackoffMs = 30_000, quietLookMs = QUIET_LOOK_MS } = options;
  const { durable, stream, schema, batchSize, ackWaitMs, handle, onKeepAlive, around = async (round) => (await round(), true) } = consumerSpec;
  const log = options.logger.child({ consumer: durable });
  try {
    await bus.jsm.consumers.info(stream, durable);
  } catch {
    await bus.jsm.consumers.add(stream, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: ackWaitMs * 1e6,
      max_deliver: -1,
      ...(consumerSpec.maxAckPending ? { max_ack_pending: consumerSpec.maxAckPending } : {}),
    });
  }
  const consumer = await bus.js.consumers.get(stream, durable);
  let stopping = false;
  let failures = 0;

  // Rung at the start: whatever the stream holds from before is read first.
  let rung = true;
  let wake: (() => void) | undefined;
  const ring = () => {
    rung = true;
    wake?.();
  };
  const { subjects = [] } = (await bus.jsm.streams.info(stream)).config;
  const doorbell = subjects.map((subject) => bus.nc.subscribe(subject, { callback: ring }));
  const quiet = () =>
    rung
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const timer = setTimeout(ring, quietLookMs).unref();
          wake = () => {
            clearTimeout(timer);
            wake = undefined;
            resolve();
          };
        });

  async function round(batch: JsMsg[]): Promise<void> {
    const fetched = await consumer.fetch({ max_messages: batchSize, expires: Math.max(1000, fetchWaitMs) });
    for await (const msg of fetched) batch.push(msg);
    const valid: JsMsg[] = [];
    const messages: BatchMessage<M>[] = [];
    for (const msg of batch) {
      const parsed = schema.safeParse(safeJson(msg.string()));
      if (parsed.success) {
        valid.push(msg);
        messages.push({ data: parsed.data, seq: msg.seq });
      } else {
        log.error({ seq: msg.seq }, 'terminating a malformed message');
        msg.term();
      }
    }
    if (messages.length === 0) return;
    const keepAlive = setInterval(() => {
      for (const msg of valid) msg.working();
      onKeepAlive?.();
    }, ackWaitMs / 3);
    try {
      await handle(messages);
    } finally {
      clearInterval(keepAlive);
    }
    for (const msg of valid) msg.ack();
  }

  const loop = (async () => {
    while (!stopping) {
      await quiet();
      if (stopping) break;
      rung = false;
      const batch: JsMsg[] = [];
      try {
        const ran = await around(() => round(batch));
        failures = 0;
        if (!ran) {
          // Another replica holds the turn: ask again while there may be work.
          rung = true;
          await pause(idleRetryMs);
        } else if (batch.length > 0) {
          // A batch was read: more may be waiting.
          rung = true;
        }
      } catch (err) {
        rung = true;
        if (stopping) break;
        if (batch.length === 0) {
          // Nothing fetched: NATS (or the turn's KV) is away. Its client reconnects by itself, and a
          // fetch waits anyway: ask again soon, so the stream is read as soon as it answers.
          log.warn({ err, retryInMs: FETCH_RETRY_MS }, 'stream unavailable; retrying');
          await pause(FETCH_RETRY_MS);
          continue;
        }
        failures += 1;
        const delayMs = Math.min(1_000 * 2 ** (failures - 1), maxBackoffMs);
        log.warn({ err, messages: batch.length, retryInMs: delayMs }, 'could not handle a batch; retrying');
        // Only what is still pending: a malformed message was already terminated.
        for (const msg of batch) if (!(msg as JsMsg & { didAck?: boolean }).didAck) msg.nak(delayMs);
        await pause(delayMs);
      }
    }
  })();

  return {
    async stop() {
      stopping = true;
      for (const subscription of doorbell) subscription.unsubscribe();
      wake?.();
      await loop;
    },
  };
}

const FETCH_RETRY_MS = 1_000;
/** How often a quiet stream is read anyway, for what no doorbell announced. */
const QUIET_LOOK_MS = 30_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
