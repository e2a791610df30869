import { EventBus, RunningBatchConsumer, downloadMessageSchema, ensureDownloadStream, startBatchConsumer } from '@hangar/events';
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

export type RunningDownloadsConsumer = RunningBatchConsumer;

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
  const stream = await ensureDownloadStream(bus.jsm, prefix);
  // A replica that died holding the turn delays counting by at most the lease.
  const turn = await CountingTurn.open(bus.nc, prefix, TURN_LEASE_MS);
  // Sequences start again at 1 in a stream made anew: its creation time tells them apart.
  const incarnation = Date.parse((await bus.jsm.streams.info(stream)).created).toString(36);
  let lastFlush = 0;
  let lastPrune = 0;

  return startBatchConsumer(
    {
      durable: DURABLE,
      stream,
      schema: downloadMessageSchema,
      batchSize,
      // Short, so a batch held by a process that died is redelivered soon; a batch being
      // counted is kept alive meanwhile.
      ackWaitMs: ACK_WAIT_MS,
      maxAckPending: batchSize,
      handle: (batch) => recordDownloads(deps, batch.map(({ data, seq }): CountedMessage => ({ id: `${incarnation}:${seq}`, tallies: data }))),
      onKeepAlive: () => void turn.keep().catch(() => undefined),
      // Only the replica holding the turn fetches and counts.
      async around(round) {
        if (!(await turn.take())) return false;
        try {
          await round();
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
        } finally {
          await turn.give();
        }
        return true;
      },
    },
    // A quiet stream is still read every quarter of the notice interval: the round is what reports
    // a release's downloads since its last notice once that is a minute old (flushDownloadNotices).
    { bus, logger: options.logger, fetchWaitMs, idleRetryMs: TURN_RETRY_MS, quietLookMs: deps.noticeIntervalMs / 4 },
  );
}
