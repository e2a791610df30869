import type { Connection } from 'mongoose';
import { isDuplicateKeyError } from '@hangar/mongo';
import type { AttemptDocument, AttemptModel, DeliveryDocument, DeliveryModel } from './webhook-delivery.model';
import type { WebhookDocument, WebhookModel } from './webhook.model';

interface MigrationDocument {
  _id: string;
  finishedAt: Date;
}

interface CounterDocument {
  _id: string;
  seq: number;
}

/**
 * Writes records moved from another service exactly as they were (ids,
 * times, sealed secrets), each insert refused when the record is here
 * already: a move run twice, or by two replicas at once, leaves one copy and
 * never overwrites what this service changed since (a delivery attempted
 * after it arrived).
 */
export class LegacyImportRepository {
  constructor(
    private readonly connection: Connection,
    private readonly webhooks: WebhookModel,
    private readonly deliveries: DeliveryModel,
    private readonly attempts: AttemptModel,
  ) {}

  async isDone(migration: string): Promise<boolean> {
    return (await this.connection.collection<MigrationDocument>('migrations').findOne({ _id: migration })) !== null;
  }

  async markDone(migration: string): Promise<void> {
    await this.insertOnce(this.connection.collection<MigrationDocument>('migrations').insertOne({ _id: migration, finishedAt: new Date() }));
  }

  // Straight to the driver: mongoose would stamp new createdAt / updatedAt over the moved ones.
  insertWebhook(doc: WebhookDocument): Promise<boolean> {
    return this.insertOnce(this.webhooks.collection.insertOne(doc as never));
  }

  insertDelivery(doc: DeliveryDocument): Promise<boolean> {
    return this.insertOnce(this.deliveries.collection.insertOne(doc as never));
  }

  insertAttempt(doc: AttemptDocument): Promise<boolean> {
    return this.insertOnce(this.attempts.collection.insertOne(doc as never));
  }

  /** Moves an id counter up to `atLeast`, so no id it handed out before is handed out again here. */
  async raiseCounter(name: string, atLeast: number): Promise<void> {
    const counters = this.connection.collection<CounterDocument>('counters');
    const current = await counters.findOne({ _id: name });
    if ((current?.seq ?? 0) >= atLeast) return;
    await counters.updateOne({ _id: name }, { $set: { seq: atLeast } }, { upsert: true });
  }

  /** True when inserted, false when the record was there already. */
  private async insertOnce(insert: Promise<unknown>): Promise<boolean> {
    try {
      await insert;
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }
}
