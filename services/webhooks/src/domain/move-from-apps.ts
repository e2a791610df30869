import type { Logger } from '@hangar/logger';
import type { apps } from '@hangar/proto';
import type { LegacyImportRepository } from '../data/legacy-import.repository';
import type { DeliveryDocument } from '../data/webhook-delivery.model';

/** The marker of the move, in this service's `migrations` collection. */
export const MOVE_FROM_APPS = 'webhooks-from-apps-v1';

/** The apps service's side of the move: its old records, streamed, and their removal. */
export interface LegacyWebhookSource {
  records(): AsyncIterable<apps.LegacyWebhookRecord>;
  drop(): Promise<void>;
}

export interface MoveOutcome {
  webhooks: number;
  deliveries: number;
  attempts: number;
}

const date = (ms: number) => new Date(ms);

/**
 * Webhooks left the apps service. Once per installation, before
 * this service serves or sends anything, every webhook (its secret still
 * sealed under the same WEBHOOK_SECRET_KEY), delivery (pending ones with
 * their schedule, so retries in progress continue here) and attempt (the
 * delivery log) the apps service kept is copied here with its id, the id
 * counters are moved past them, apps drops its copies and the move is
 * marked done. Each insert is refused when the record is here already, so a move
 * cut short runs again from the start and a second replica's move is
 * harmless. Answers undefined when the move had been made before.
 */
export async function moveWebhooksFromApps(imports: LegacyImportRepository, source: LegacyWebhookSource, logger: Logger): Promise<MoveOutcome | undefined> {
  if (await imports.isDone(MOVE_FROM_APPS)) return undefined;
  const moved: MoveOutcome = { webhooks: 0, deliveries: 0, attempts: 0 };
  const highest = { webhooks: 0, 'webhook-attempts': 0 } as Record<string, number>;
  for await (const record of source.records()) {
    if (record.webhook) {
      const w = record.webhook;
      highest.webhooks = Math.max(highest.webhooks!, w.id);
      if (await imports.insertWebhook({ _id: w.id, appId: w.appId, url: w.url, secretEnc: w.secretEnc, events: w.events, createdAt: date(w.createdAtMs), updatedAt: date(w.updatedAtMs) })) moved.webhooks += 1;
    } else if (record.delivery) {
      const d = record.delivery;
      const delivery: DeliveryDocument = {
        _id: d.id, webhookId: d.webhookId, appId: d.appId, event: d.event, eventId: d.eventId, payloadJson: d.payloadJson, url: d.url, secretEnc: d.secretEnc,
        state: d.state as DeliveryDocument['state'], maxAttempts: d.maxAttempts, nextAttemptAt: date(d.nextAttemptAtMs),
        ...(d.traceparent ? { traceparent: d.traceparent } : {}), createdAt: date(d.createdAtMs), updatedAt: date(d.updatedAtMs),
      };
      if (await imports.insertDelivery(delivery)) moved.deliveries += 1;
    } else if (record.attempt) {
      const a = record.attempt;
      highest['webhook-attempts'] = Math.max(highest['webhook-attempts']!, a.id);
      const inserted = await imports.insertAttempt({
        _id: a.id, deliveryId: a.deliveryId, webhookId: a.webhookId, appId: a.appId, event: a.event, eventId: a.eventId, attempt: a.attempt,
        statusCode: a.statusCode, success: a.success, error: a.error, durationMs: a.durationMs, startedAt: date(a.startedAtMs),
        ...(a.finishedAtMs !== undefined ? { finishedAt: date(a.finishedAtMs) } : {}), createdAt: date(a.createdAtMs),
      });
      if (inserted) moved.attempts += 1;
    } else if (record.counter && record.counter.name in highest) {
      highest[record.counter.name] = Math.max(highest[record.counter.name]!, record.counter.seq);
    }
  }
  for (const [name, seq] of Object.entries(highest)) if (seq > 0) await imports.raiseCounter(name, seq);
  // Only once every record is here; a move cut short before the mark runs again (finding nothing, once apps dropped them).
  await source.drop();
  await imports.markDone(MOVE_FROM_APPS);
  logger.info(moved, 'webhooks moved from the apps service');
  return moved;
}
