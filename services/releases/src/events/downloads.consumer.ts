import { AckPolicy, DeliverPolicy, JsMsg } from '@nats-io/jetstream';
import { EventBus, downloadMessageSchema, ensureDownloadStream } from '@hangar/events';
import type { Logger } from '@hangar/logger';
import { CountedMessage, RecordDownloadsDeps, flushDownloadNotices, pruneOldClaims, recordDownloads } from '../domain/record-downloads';
import { CountingTurn } from './counting-turn';

export interface DownloadsConsumerOptions {
  bus: EventBus;
  prefix: string;
  logger: Logger;
  /** Messages counted per batch (and the durable's max_ack_pending). */
  batchSize?: number;
  /** How long a fetch waits for a batch to fill (the NATS client's minimum is 1 s). */
  fetchWaitMs?: number;
}

export interface RunningDownloadsConsumer {
  stop(): Promise<void>;
}

const DURABLE = 'releases-downloads';
const ACK_WAIT_MS = 10_000;
const TURN_RETRY_MS = 200;
/** Longer than a fetch (1 s) plus the gap between two keeps while counting (a third of the ack wait). */
const TURN_LEASE_MS = 15_000;

/**
 * Counts what the gateway reports, from the downloads stream on a durable
 * consumer (so nothing is lost while this service restarts), a batch at a
 * time: a burst of downloads costs a few writes, not one per download.
 * Replicas take turns (`CountingTurn`, NATS KV): only the replica holding the
 * turn fetches and counts, so no two count one release at the same moment —
 * the durable's max_ack_pending of one batch alone did not stop two replicas
 * each fetching part of a burst. A batch that fails is redelivered
 * whole after a pause; what it had already claimed is skipped then
 * (domain/record-downloads.ts).
 */
export async function startDownloadsConsumer(deps: RecordDownloadsDeps, options: DownloadsConsumerOptions): Promise<RunningDownloadsConsumer> {
  const { bus, prefix, batchSize = 1000, fetchWaitMs = 1000 } = options;
  const log = options.logger.child({ consumer: DURABLE });
  const stream = await ensureDownloadStream(bus.jsm, prefix);
  try {
    await bus.jsm.consumers.info(stream, DURABLE);
  } catch {
    await bus.jsm.consumers.add(stream, {
      durable_name: DURABLE,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      // Short, so a batch held by a process that died is redelivered soon; a batch being
      // counted is kept alive by `working()` meanwhile.
      ack_wait: ACK_WAIT_MS * 1e6,
      max_ack_pending: batchSize,
      max_deliver: -1,
    });
  }
  const consumer = await bus.js.consumers.get(stream, DURABLE);
  // A replica that died holding the turn delays counting by at most the lease.
  const turn = await CountingTurn.open(bus.nc, prefix, TURN_LEASE_MS);
  // Sequences start again at 1 in a stream made anew: its creation time tells them apart.
  const incarnation = Date.parse((await bus.jsm.streams.info(stream)).created).toString(36);
  let stopping = false;
  let lastFlush = 0;
  let lastPrune = 0;
  let failures = 0;

  const loop = (async () => {
    while (!stopping) {
      const batch: JsMsg[] = [];
      let holding = false;
      try {
        holding = await turn.take();
        if (!holding) {
          // Another replica is counting: ask again shortly.
          await new Promise((r) => setTimeout(r, TURN_RETRY_MS).unref());
          continue;
        }
        const fetched = await consumer.fetch({ max_messages: batchSize, expires: Math.max(1000, fetchWaitMs) });
        for await (const msg of fetched) batch.push(msg);
        if (batch.length > 0) await countBatch(batch);
        // Under the turn too: a notice rewrites the total's document, which on FerretDB
        // would undo an increment another replica made at the same moment.
        if (Date.now() - lastFlush >= deps.noticeIntervalMs / 4) {
          await flushDownloadNotices(deps);
          lastFlush = Date.now();
        }
        if (Date.now() - lastPrune >= 3_600_000) {
          await pruneOldClaims(deps.stats);
          lastPrune = Date.now();
        }
        await turn.give();
        holding = false;
        failures = 0;
      } catch (err) {
        if (holding) await turn.give();
        if (stopping) break;
        failures += 1;
        const delayMs = Math.min(1_000 * 2 ** (failures - 1), 30_000);
        log.warn({ err, messages: batch.length, retryInMs: delayMs }, 'could not count downloads; retrying');
        // Only what is still pending: a malformed message was already terminated.
        for (const msg of batch) if (!(msg as JsMsg & { didAck?: boolean }).didAck) msg.nak(delayMs);
        await new Promise((r) => setTimeout(r, delayMs).unref());
      }
    }
  })();

  async function countBatch(batch: JsMsg[]): Promise<void> {
    const counted: CountedMessage[] = [];
    const valid: JsMsg[] = [];
    for (const msg of batch) {
      const parsed = downloadMessageSchema.safeParse(safeJson(msg.string()));
      if (parsed.success) {
        counted.push({ id: `${incarnation}:${msg.seq}`, tallies: parsed.data });
        valid.push(msg);
      } else {
        log.error({ seq: msg.seq }, 'terminating a malformed download message');
        msg.term();
      }
    }
    const heartbeat = setInterval(() => {
      valid.forEach((msg) => msg.working());
      void turn.keep().catch(() => undefined);
    }, ACK_WAIT_MS / 3);
    try {
      await recordDownloads(deps, counted);
    } finally {
      clearInterval(heartbeat);
    }
    for (const msg of valid) msg.ack();
  }

  return {
    async stop() {
      stopping = true;
      await loop;
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
