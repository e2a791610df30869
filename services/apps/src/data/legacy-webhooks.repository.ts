import type { Connection } from 'mongoose';

/**
 * The records the apps service kept for webhooks before they moved to the
 * webhooks service, read as they were stored — no model: nothing
 * here writes them any more. Read once, by the webhooks service's move, then
 * dropped.
 */
export const LEGACY_WEBHOOK_COLLECTIONS = { webhooks: 'webhooks', deliveries: 'webhook_deliveries', attempts: 'webhook_attempts' } as const;

/** The counters webhook and attempt ids were taken from. */
export const LEGACY_WEBHOOK_COUNTERS = ['webhooks', 'webhook-attempts'] as const;

export interface LegacyWebhookDoc {
  _id: number;
  appId: number;
  url: string;
  secretEnc: string;
  events?: string[];
  createdAt?: Date;
  updatedAt?: Date;
}

export interface LegacyDeliveryDoc {
  _id: string;
  webhookId: number;
  appId: number;
  event: string;
  eventId: string;
  payloadJson: string;
  url: string;
  secretEnc: string;
  state: string;
  maxAttempts: number;
  nextAttemptAt: Date;
  traceparent?: string;
  createdAt?: Date;
  updatedAt?: Date;
}

export interface LegacyAttemptDoc {
  _id: number;
  deliveryId: string;
  webhookId: number;
  appId: number;
  event: string;
  eventId: string;
  attempt: number;
  statusCode?: number;
  success?: boolean;
  error?: string;
  durationMs?: number;
  startedAt: Date;
  finishedAt?: Date;
  createdAt?: Date;
}

const BATCH = 500;

export class LegacyWebhooksRepository {
  constructor(private readonly connection: Connection) {}

  // Each of these reads a whole collection on purpose: the move carries every record (tests/plans lists them as such).
  webhooks(): AsyncIterable<LegacyWebhookDoc> {
    return this.connection.collection<LegacyWebhookDoc>(LEGACY_WEBHOOK_COLLECTIONS.webhooks).find({}, { batchSize: BATCH });
  }

  deliveries(): AsyncIterable<LegacyDeliveryDoc> {
    return this.connection.collection<LegacyDeliveryDoc>(LEGACY_WEBHOOK_COLLECTIONS.deliveries).find({}, { batchSize: BATCH });
  }

  attempts(): AsyncIterable<LegacyAttemptDoc> {
    return this.connection.collection<LegacyAttemptDoc>(LEGACY_WEBHOOK_COLLECTIONS.attempts).find({}, { batchSize: BATCH });
  }

  /** The last id each webhook counter handed out (0 when never used), so the webhooks service never hands one out again. */
  async counter(name: (typeof LEGACY_WEBHOOK_COUNTERS)[number]): Promise<number> {
    const found = await this.connection.collection<{ _id: string; seq: number }>('counters').findOne({ _id: name });
    return found?.seq ?? 0;
  }

  /** Drops the legacy collections; those already gone are skipped, so a second call is harmless. */
  async drop(): Promise<void> {
    const present = new Set((await this.connection.db!.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
    for (const name of Object.values(LEGACY_WEBHOOK_COLLECTIONS)) if (present.has(name)) await this.connection.db!.dropCollection(name);
  }
}
