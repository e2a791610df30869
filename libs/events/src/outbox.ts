import type { Model, UpdateQuery } from 'mongoose';
import type { JetStreamClient } from '@nats-io/jetstream';
import { Logger, currentRequestId } from '@hangar/logger';
import { Metrics, outboxRelayMetrics } from '@hangar/metrics';
import { contextFromTraceparent, currentTraceparent, withoutAutoSpans } from '@hangar/telemetry';
import { DEFAULT_SUBJECT_PREFIX } from './event-registry';
import type { Envelope } from './envelope';
import { publishEnvelope } from './publisher';

/**
 * The transactional outbox without transactions: FerretDB 1.x has none, so an
 * event is written inside the same single-document write as the change it
 * reports (`outbox` array on the changed document), and a relay publishes it
 * afterwards. If NATS is down the events wait in the documents; if the
 * process dies between publish and clear, the relay publishes again and the
 * stream drops the duplicate by event id.
 */
export interface OutboxEntry {
  id: string;
  type: string;
  /** The envelope as JSON: payload keys are never interpreted by the database. */
  payload: string;
  requestId?: string;
  /** W3C traceparent of the write that queued the event: the relay's publish continues that trace. */
  traceparent?: string;
}

export interface OutboxFields {
  outbox: OutboxEntry[];
  /** Bumped on every append, so the relay clears only what it has published. */
  outboxSeq: number;
  outboxPending: boolean;
}

/** Schema fields to spread into any mongoose schema that records events. */
export const outboxSchemaFields = {
  outbox: { type: [{ _id: false, id: String, type: { type: String }, payload: String, requestId: String, traceparent: String }], default: [] },
  outboxSeq: { type: Number, default: 0 },
  outboxPending: { type: Boolean, default: false, index: true },
};

function toEntry(envelope: Envelope): OutboxEntry {
  const requestId = currentRequestId();
  const traceparent = currentTraceparent();
  return { id: envelope.id, type: envelope.type, payload: JSON.stringify(envelope), ...(requestId ? { requestId } : {}), ...(traceparent ? { traceparent } : {}) };
}

/** Outbox fields of a document created together with its events. */
export function newOutbox(...envelopes: Envelope[]): OutboxFields {
  return { outbox: envelopes.map(toEntry), outboxSeq: envelopes.length ? 1 : 0, outboxPending: envelopes.length > 0 };
}

/** Adds events to an update so they are written with it, atomically. */
export function withEvents<T>(update: UpdateQuery<T>, ...envelopes: Envelope[]): UpdateQuery<T> {
  const u = update as Record<string, Record<string, unknown> | undefined>;
  return {
    ...update,
    $push: { ...(u.$push ?? {}), outbox: { $each: envelopes.map(toEntry) } },
    $inc: { ...(u.$inc ?? {}), outboxSeq: 1 },
    $set: { ...(u.$set ?? {}), outboxPending: true },
  } as UpdateQuery<T>;
}

interface PendingDocument {
  _id: unknown;
  outbox: OutboxEntry[];
  outboxSeq: number;
  deletedAt?: Date;
}

export interface OutboxRelayOptions {
  /** Models whose documents carry outbox fields. */
  models: Model<any>[];
  js: JetStreamClient;
  logger: Logger;
  prefix?: string;
  /** How often to look for events that could not be published yet, while there are some. */
  intervalMs?: number;
  /** The longest pause between two looks while every look finds nothing (see OutboxRelay). */
  idleIntervalMs?: number;
  batchSize?: number;
  /**
   * Models whose tombstones must outlive their events (their consumers still
   * need the document, e.g. to find the files to delete); those consumers
   * remove the tombstones themselves.
   */
  keepTombstonesOf?: Model<any>[];
  /** hangar_outbox_lag_seconds and hangar_outbox_relay_failures_total. */
  metrics?: Metrics;
}

/** Doubled after each look that finds nothing, up to this: an idle service asks a few times a minute. */
const IDLE_INTERVAL_MS = 8_000;

/**
 * Publishes pending events and clears them. Documents marked deleted
 * (tombstones, `deletedAt` set) are removed once their events are out, so a
 * delete and its event stay one atomic write.
 *
 * Every write that records events pokes the relay of its process, so the timer
 * is only for what no poke announced: a pass that failed (NATS away; retried
 * every `intervalMs`), and events a replica or an earlier run wrote before it
 * died. Looking every second found nothing almost always and was a sixth of an
 * idle service's work (one query per model per second, and its share of the
 * database's), so the pause doubles after each look that finds nothing, up to
 * `idleIntervalMs`; a poke, a pass that published, or one that failed starts
 * it again at `intervalMs`.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  private pauseMs: number;

  private readonly series?: ReturnType<typeof outboxRelayMetrics>;

  constructor(private readonly options: OutboxRelayOptions) {
    // Registered now, so a scrape shows the series (at zero) before the first event.
    this.series = options.metrics ? outboxRelayMetrics(options.metrics) : undefined;
    this.pauseMs = this.baseIntervalMs;
  }

  private get baseIntervalMs(): number {
    return this.options.intervalMs ?? 1_000;
  }

  start(): void {
    this.stopped = false;
    this.poke();
  }

  /** Publish now (called right after a write that recorded events). */
  poke(): void {
    this.pauseMs = this.baseIntervalMs;
    this.pass();
  }

  private pass(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    // Its queries trace nothing (each poll would be a trace of its own, and a
    // poke from a request would hang them on that request); every publish
    // continues the trace of the write that queued the event.
    this.running = withoutAutoSpans(() => this.drain())
      .then((published) => {
        if (published > 0) this.pauseMs = this.baseIntervalMs;
      })
      .catch((err) => {
        this.pauseMs = this.baseIntervalMs;
        this.series?.failedPasses.inc();
        this.options.logger.warn({ err }, 'outbox relay pass failed; will retry');
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.pass();
          return;
        }
        this.scheduleLook();
      });
  }

  /** The next look for what no poke announced; each that finds nothing waits longer. */
  private scheduleLook(): void {
    if (this.stopped) return;
    const waitMs = this.pauseMs;
    this.pauseMs = Math.min(this.pauseMs * 2, Math.max(this.baseIntervalMs, this.options.idleIntervalMs ?? IDLE_INTERVAL_MS));
    this.timer = setTimeout(() => this.pass(), waitMs);
    this.timer.unref();
  }

  /** Waits for the pass in progress (tests, shutdown). */
  async flush(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.flush();
  }

  /** Publishes what is pending; resolves with how many documents' events went out. */
  private async drain(): Promise<number> {
    const { models, js, prefix = DEFAULT_SUBJECT_PREFIX, batchSize = 100 } = this.options;
    let published = 0;
    for (const model of models) {
      const pending = (await model
        .find({ outboxPending: true }, { outbox: 1, outboxSeq: 1, deletedAt: 1 })
        .limit(batchSize)
        .lean()) as unknown as PendingDocument[];
      for (const doc of pending) {
        published += 1;
        for (const entry of doc.outbox) {
          const envelope = JSON.parse(entry.payload) as Envelope;
          await publishEnvelope(js, envelope, { prefix, requestId: entry.requestId, traceContext: contextFromTraceparent(entry.traceparent) });
          // occurredAt is stamped when the use case records the event, in the same write as the change.
          this.series?.lag.observe(Math.max(0, (Date.now() - Date.parse(envelope.occurredAt)) / 1000));
        }
        if (doc.deletedAt && !this.options.keepTombstonesOf?.includes(model)) {
          // One write removes the tombstone once its events are out. Clearing
          // first and deleting after left a tombstone forever (no longer
          // pending, never looked at again) when the process died in between.
          await model.deleteOne({ _id: doc._id, outboxSeq: doc.outboxSeq });
          continue;
        }
        // Only what was published (same seq); without timestamps, or relaying
        // an event would move the document's updatedAt.
        await model.updateOne(
          { _id: doc._id, outboxSeq: doc.outboxSeq },
          { $set: { outbox: [], outboxPending: false } },
          { timestamps: false },
        );
      }
      if (pending.length === batchSize) this.again = true;
    }
    return published;
  }
}
