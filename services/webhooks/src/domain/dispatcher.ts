import { SpanStatusCode, trace } from '@opentelemetry/api';
import type { Logger } from '@hangar/logger';
import { SpanKind, contextFromTraceparent, inSpan, withoutAutoSpans } from '@hangar/telemetry';
import { Metrics, WebhookOutcome, webhookDeliveriesCounter } from '@hangar/metrics';
import type { DeliveriesRepository } from '../data/deliveries.repository';
import type { AttemptDocument, DeliveryDocument } from '../data/webhook-delivery.model';
import { SIGNATURE_HEADER, SendOutcome, sendWebhook, signBody } from './http-sender';
import { chatBody } from './chat/formats';
import { webhookBody } from './payloads';
import type { SecretBox } from './secret-box';
import type { WebhookTargetPolicy } from './target-policy';

export interface DispatcherOptions {
  deliveries: DeliveriesRepository;
  policy: WebhookTargetPolicy;
  box: SecretBox;
  logger: Logger;
  timeoutMs: number;
  retryBaseMs: number;
  /** The shortest pause between two looks for due deliveries (see WebhookDispatcher). */
  pollMs: number;
  concurrency: number;
  retentionDays: number;
  /** hangar_webhook_deliveries_total{outcome}: one increment per attempt made. */
  metrics?: Metrics;
}

/** Delay after failed attempt `n`: base, 2·base, 4·base, … */
export function retryDelayMs(attempt: number, baseMs: number): number {
  return baseMs * 2 ** Math.max(0, attempt - 1);
}

/** The longest pause between two looks while nothing is pending: an idle service asks a few times a minute. */
const IDLE_POLL_MS = 8_000;

/**
 * Drives deliveries from their records: each look takes the pending
 * deliveries that are due and makes their next attempt. A new delivery pokes
 * it, as does each attempt that ends; between pokes it looks again when the
 * next retry is due (never sooner than `pollMs` after the last look), and,
 * while nothing is pending, after a pause that doubles up to IDLE_POLL_MS —
 * looking every second cost an idle service a query a second. The records are the
 * state, so retries survive restarts, and any replica may make any attempt:
 * an attempt is claimed by inserting its (delivery, attempt number) row
 * before the call, which a unique index lets exactly one process do. An
 * attempt whose process died mid-call (claimed, never finished) is closed as
 * interrupted once it is older than twice the call time limit, and the next
 * attempt follows with the usual backoff — so an attempt number is never sent
 * twice and a delivery is never forgotten.
 */
export class WebhookDispatcher {
  private timer?: NodeJS.Timeout;
  private sweepTimer?: NodeJS.Timeout;
  private ticking?: Promise<void>;
  private again = false;
  /** The pause before the next look, set by each look. */
  private nextLookMs: number;
  private idlePauseMs: number;
  private stopped = true;
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly log: Logger;
  private readonly attempts?: ReturnType<typeof webhookDeliveriesCounter>;
  readonly staleAfterMs: number;

  constructor(private readonly options: DispatcherOptions) {
    this.log = options.logger.child({ component: 'webhook-dispatcher' });
    this.attempts = options.metrics ? webhookDeliveriesCounter(options.metrics) : undefined;
    this.staleAfterMs = options.timeoutMs * 2 + 5_000;
    this.nextLookMs = this.idlePauseMs = options.pollMs;
  }

  start(): void {
    this.stopped = false;
    this.sweepTimer = setInterval(() => void this.sweep(), 60 * 60 * 1_000);
    this.sweepTimer.unref();
    void this.sweep();
    this.poke();
  }

  /** Look for due deliveries now (called when a delivery was just made). */
  poke(): void {
    this.idlePauseMs = this.options.pollMs;
    this.look();
  }

  private look(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.nextLookMs = this.options.pollMs;
    // The polling's own queries trace nothing (a trace a poll would be noise);
    // each attempt's span continues the trace its delivery was made in.
    this.ticking = withoutAutoSpans(() => this.tick())
      .catch((err) => this.log.warn({ err }, 'webhook dispatch pass failed; will retry'))
      .finally(() => {
        this.ticking = undefined;
        if (this.again) {
          this.again = false;
          this.look();
          return;
        }
        if (this.stopped) return;
        this.timer = setTimeout(() => this.look(), this.nextLookMs);
        this.timer.unref();
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.ticking;
    await Promise.allSettled(this.inFlight.values());
  }

  private async tick(): Promise<void> {
    const free = this.options.concurrency - this.inFlight.size;
    // Every slot taken: each attempt that ends pokes.
    if (free <= 0) return;
    const limit = free + this.inFlight.size + 1;
    const pending = await this.options.deliveries.pending(limit);
    const now = Date.now();
    const due = pending.filter((delivery) => delivery.nextAttemptAt.getTime() <= now);
    const next = pending.find((delivery) => delivery.nextAttemptAt.getTime() > now);
    if (next) this.nextLookMs = Math.max(this.options.pollMs, Math.min(next.nextAttemptAt.getTime() - now, IDLE_POLL_MS));
    else if (pending.length === limit) this.nextLookMs = this.options.pollMs;
    else if (due.length === 0) {
      this.nextLookMs = this.idlePauseMs;
      this.idlePauseMs = Math.min(this.idlePauseMs * 2, Math.max(IDLE_POLL_MS, this.options.pollMs));
    }
    for (const delivery of due) {
      if (this.inFlight.size >= this.options.concurrency) break;
      if (this.inFlight.has(delivery._id)) continue;
      const task = this.attempt(delivery)
        .catch((err) => this.log.warn({ err, deliveryId: delivery._id }, 'webhook attempt failed to run; will retry'))
        .finally(() => {
          this.inFlight.delete(delivery._id);
          // A slot is free: more may be due.
          this.poke();
        });
      this.inFlight.set(delivery._id, task);
    }
  }

  /**
   * Makes the next attempt of a delivery if it is this process's to make;
   * answers the finished attempt, or null when there was nothing to do here.
   */
  async attempt(delivery: DeliveryDocument, timeoutMs = this.options.timeoutMs): Promise<AttemptDocument | null> {
    const { deliveries } = this.options;
    const last = await deliveries.lastAttempt(delivery._id);
    if (last && !last.finishedAt) {
      if (Date.now() - last.startedAt.getTime() < this.staleAfterMs) return null; // in flight, here or elsewhere
      await deliveries.finishAttempt(last._id, {
        statusCode: 0,
        success: false,
        error: 'interrupted: the process making this attempt stopped before its answer was recorded',
        durationMs: 0,
      });
      this.log.warn({ deliveryId: delivery._id, attempt: last.attempt }, 'webhook attempt interrupted; the next one follows');
      await this.reschedule(delivery, last.attempt, false);
      return null;
    }
    if (last?.success) {
      await deliveries.setSchedule(delivery._id, { state: 'delivered' });
      return null;
    }
    const n = (last?.attempt ?? 0) + 1;
    if (n > delivery.maxAttempts) {
      await deliveries.setSchedule(delivery._id, { state: 'failed' });
      return null;
    }
    const claimed = await deliveries.claimAttempt(delivery, n, new Date());
    if (!claimed) return null;
    // A lease: others skip it while the call runs (the claim alone already stops a second send).
    await deliveries.setSchedule(delivery._id, { nextAttemptAt: new Date(Date.now() + this.staleAfterMs) });

    // A client span in the trace that made the delivery (the upload's, for release.created); the receiver gets its traceparent.
    const span = { kind: SpanKind.CLIENT, parent: contextFromTraceparent(delivery.traceparent), attributes: { 'hangar.webhook.id': delivery.webhookId, 'hangar.webhook.event': delivery.event, 'hangar.webhook.attempt': n } };
    const outcome = await inSpan('webhook deliver', span, async () => {
      const sent = await this.send(delivery, n, timeoutMs);
      if (sent.statusCode) trace.getActiveSpan()?.setAttribute('http.response.status_code', sent.statusCode);
      if (!sent.success) trace.getActiveSpan()?.setStatus({ code: SpanStatusCode.ERROR, message: sent.error });
      return sent;
    });
    const { detail, ...recorded } = outcome;
    const finished = await deliveries.finishAttempt(claimed._id, recorded);
    await this.reschedule(delivery, n, outcome.success);
    // The last allowed attempt failing is the delivery given up (reschedule marked it failed).
    const counted: WebhookOutcome = outcome.success ? 'success' : n >= delivery.maxAttempts ? 'gave_up' : 'failure';
    this.attempts?.inc({ outcome: counted });
    const fields = { deliveryId: delivery._id, webhookId: delivery.webhookId, event: delivery.event, attempt: n, statusCode: outcome.statusCode, ms: outcome.durationMs };
    if (outcome.success) this.log.info(fields, 'webhook delivered');
    else this.log.warn({ ...fields, error: detail ?? outcome.error }, 'webhook attempt failed');
    return finished;
  }

  private async send(delivery: DeliveryDocument, attempt: number, timeoutMs: number): Promise<SendOutcome> {
    let secret: string;
    try {
      secret = this.options.box.open(delivery.secretEnc, delivery.webhookId);
    } catch {
      return { statusCode: 0, success: false, error: 'the webhook secret cannot be decrypted (was WEBHOOK_SECRET_KEY changed or left unset?)', durationMs: 0 };
    }
    const format = delivery.format ?? 'generic';
    const body = format === 'generic' ? webhookBody(delivery.event, delivery.payloadJson, new Date()) : chatBody(format, delivery.event, delivery.payloadJson);
    // Chat platforms ignore the signature; it is still sent (over the exact body posted), so a
    // relay in front of one, or a receiver moved from generic, can check it the usual way.
    return sendWebhook(this.options.policy, {
      url: delivery.url,
      body,
      timeoutMs,
      headers: {
        'Content-Type': 'application/json',
        'X-Hangar-Event': delivery.event,
        'X-Hangar-Delivery': delivery._id,
        'X-Hangar-Attempt': String(attempt),
        [SIGNATURE_HEADER]: signBody(body, secret),
      },
    });
  }

  private async reschedule(delivery: DeliveryDocument, attempt: number, success: boolean): Promise<void> {
    if (success) return this.options.deliveries.setSchedule(delivery._id, { state: 'delivered' });
    if (attempt >= delivery.maxAttempts) return this.options.deliveries.setSchedule(delivery._id, { state: 'failed' });
    return this.options.deliveries.setSchedule(delivery._id, {
      state: 'pending',
      nextAttemptAt: new Date(Date.now() + retryDelayMs(attempt, this.options.retryBaseMs)),
    });
  }

  private async sweep(): Promise<void> {
    try {
      const before = new Date(Date.now() - this.options.retentionDays * 24 * 60 * 60 * 1_000);
      const removed = await this.options.deliveries.removeFinishedBefore(before);
      if (removed > 0) this.log.info({ removed }, 'old webhook deliveries removed');
    } catch (err) {
      this.log.warn({ err }, 'webhook delivery cleanup failed; will retry');
    }
  }
}
