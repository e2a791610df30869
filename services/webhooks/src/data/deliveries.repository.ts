import type { Connection } from 'mongoose';
import { findEach, isDuplicateKeyError, nextSequence } from '@hangar/mongo';
import { currentTraceparent } from '@hangar/telemetry';
import type { AttemptDocument, AttemptModel, DeliveryDocument, DeliveryModel } from './webhook-delivery.model';

export type NewDelivery = Omit<DeliveryDocument, 'createdAt' | 'updatedAt'>;
export type AttemptResult = Pick<AttemptDocument, 'statusCode' | 'success' | 'error' | 'durationMs'>;

/** Deliveries and their attempts. Every claim is a unique insert: FerretDB updates are not atomic, inserts are. */
const FINISHED_STATES = ['delivered', 'failed'] as const;

export class DeliveriesRepository {
  constructor(
    private readonly connection: Connection,
    private readonly deliveries: DeliveryModel,
    private readonly attempts: AttemptModel,
  ) {}

  /**
   * False when this (webhook, event) already has its delivery: a redelivered
   * event. The delivery keeps the trace it was made in, for its attempts.
   */
  async create(delivery: NewDelivery): Promise<boolean> {
    const traceparent = currentTraceparent();
    try {
      await this.deliveries.create({ ...delivery, ...(traceparent ? { traceparent } : {}) });
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }

  findById(id: string): Promise<DeliveryDocument | null> {
    return this.deliveries.findOne({ _id: id }).lean<DeliveryDocument>();
  }

  /** Pending deliveries, the soonest due first: those due now, then when the next one is. */
  pending(limit: number): Promise<DeliveryDocument[]> {
    return this.deliveries.find({ state: 'pending' }).sort({ nextAttemptAt: 1 }).limit(limit).lean<DeliveryDocument[]>();
  }

  async setSchedule(id: string, changes: Partial<Pick<DeliveryDocument, 'state' | 'nextAttemptAt'>>): Promise<void> {
    await this.deliveries.updateOne({ _id: id }, { $set: changes });
  }

  /** A changed URL or secret applies to the retries still to come. */
  async retarget(webhookId: number, changes: Partial<Pick<DeliveryDocument, 'url' | 'secretEnc' | 'format'>>): Promise<void> {
    await this.deliveries.updateMany({ webhookId, state: 'pending' }, { $set: changes });
  }

  /** The newest attempt of a delivery, finished or not. */
  lastAttempt(deliveryId: string): Promise<AttemptDocument | null> {
    return this.attempts.findOne({ deliveryId }).sort({ attempt: -1 }).lean<AttemptDocument>();
  }

  /** Claims attempt `n` of the delivery; null when another process (or an earlier life of this one) holds it. */
  async claimAttempt(delivery: DeliveryDocument, attempt: number, startedAt: Date): Promise<AttemptDocument | null> {
    const id = await nextSequence(this.connection, 'webhook-attempts');
    try {
      const created = await this.attempts.create({
        _id: id,
        deliveryId: delivery._id,
        webhookId: delivery.webhookId,
        appId: delivery.appId,
        event: delivery.event,
        eventId: delivery.eventId,
        attempt,
        startedAt,
      });
      return created.toObject();
    } catch (err) {
      if (isDuplicateKeyError(err)) return null;
      throw err;
    }
  }

  async finishAttempt(id: number, result: AttemptResult): Promise<AttemptDocument | null> {
    return this.attempts.findOneAndUpdate({ _id: id }, { $set: { ...result, finishedAt: new Date() } }, { new: true }).lean<AttemptDocument>();
  }

  async pageOfWebhook(webhookId: number, skip: number, limit: number): Promise<{ attempts: AttemptDocument[]; total: number }> {
    const [attempts, total] = await Promise.all([
      this.attempts.find({ webhookId }).sort({ _id: -1 }).skip(skip).limit(limit).lean<AttemptDocument[]>(),
      this.attempts.countDocuments({ webhookId }),
    ]);
    return { attempts, total };
  }

  async removeAllOfWebhook(webhookId: number): Promise<void> {
    await this.deliveries.deleteMany({ webhookId });
    await this.attempts.deleteMany({ webhookId });
  }

  /** Finished deliveries older than `before`, with their attempts. */
  async removeFinishedBefore(before: Date): Promise<number> {
    // One equality query per finished state, each served by the { state, nextAttemptAt } index
    // (FerretDB pushes no `$ne` or `$in` down to an index).
    const old = await findEach(FINISHED_STATES, (state) =>
      this.deliveries.find({ state, updatedAt: { $lt: before } }, { _id: 1 }).limit(1_000).lean<{ _id: string }[]>(),
    );
    if (old.length === 0) return 0;
    const ids = old.map((d) => d._id);
    await findEach(ids, async (deliveryId) => {
      await this.attempts.deleteMany({ deliveryId });
      await this.deliveries.deleteOne({ _id: deliveryId });
      return [];
    });
    return ids.length;
  }
}
