import { Connection, Schema } from 'mongoose';
import type { WebhookFormat } from '../domain/chat/formats';

/**
 * One event for one webhook: made once per (webhook, event id) — its `_id`
 * is derived from both and a unique index holds the pair, so a redelivered
 * event cannot make a second one — then attempted until it succeeds or its
 * attempts run out. The body is frozen when the delivery is made; each
 * attempt adds only `delivered_at`.
 */
export interface DeliveryDocument {
  /** UUID derived from (webhook id, event id): the X-Hangar-Delivery header. */
  _id: string;
  webhookId: number;
  appId: number;
  event: string;
  eventId: string;
  /** The payload without `event` and `delivered_at`, as JSON. */
  payloadJson: string;
  /** Where and with what it is signed, as the webhook was when the delivery was made (kept up to date by webhook updates). */
  url: string;
  secretEnc: string;
  /** The webhook's format (kept up to date like the URL); absent: generic. The body is rendered in it at each attempt. */
  format?: WebhookFormat;
  state: 'pending' | 'delivered' | 'failed';
  maxAttempts: number;
  /** When the dispatcher should look at it next (a due attempt, or a lease while one is in flight). */
  nextAttemptAt: Date;
  /** W3C traceparent of the event handling that made the delivery: every attempt's span continues that trace. */
  traceparent?: string;
  createdAt: Date;
  updatedAt: Date;
}

const deliverySchema = new Schema<DeliveryDocument>(
  {
    _id: { type: String, required: true },
    webhookId: { type: Number, required: true },
    appId: { type: Number, required: true },
    event: { type: String, required: true },
    eventId: { type: String, required: true },
    payloadJson: { type: String, required: true },
    url: { type: String, required: true },
    secretEnc: { type: String, required: true },
    format: { type: String },
    state: { type: String, required: true },
    maxAttempts: { type: Number, required: true },
    nextAttemptAt: { type: Date, required: true },
    traceparent: { type: String },
  },
  { collection: 'webhook_deliveries', timestamps: true, versionKey: false },
);
deliverySchema.index({ webhookId: 1, eventId: 1 }, { unique: true });
deliverySchema.index({ state: 1, nextAttemptAt: 1 });

/**
 * One HTTP call of a delivery: the log the API lists. Inserted *before* the
 * call; the unique (delivery, attempt) index makes that insert the claim, so
 * across processes (and after a crash and a redelivery) no attempt number is
 * ever sent twice. `finishedAt` stays unset while the call is in flight.
 */
export interface AttemptDocument {
  _id: number;
  deliveryId: string;
  webhookId: number;
  appId: number;
  event: string;
  eventId: string;
  attempt: number;
  statusCode: number;
  success: boolean;
  error: string;
  durationMs: number;
  startedAt: Date;
  finishedAt?: Date;
  createdAt: Date;
}

const attemptSchema = new Schema<AttemptDocument>(
  {
    _id: { type: Number, required: true },
    deliveryId: { type: String, required: true },
    webhookId: { type: Number, required: true },
    appId: { type: Number, required: true },
    event: { type: String, required: true },
    eventId: { type: String, required: true },
    attempt: { type: Number, required: true },
    statusCode: { type: Number, default: 0 },
    success: { type: Boolean, default: false },
    error: { type: String, default: '' },
    durationMs: { type: Number, default: 0 },
    startedAt: { type: Date, required: true },
    finishedAt: { type: Date },
  },
  { collection: 'webhook_attempts', timestamps: { createdAt: true, updatedAt: false }, versionKey: false },
);
attemptSchema.index({ deliveryId: 1, attempt: 1 }, { unique: true });
attemptSchema.index({ webhookId: 1, _id: -1 });

export function deliveryModel(connection: Connection) {
  return connection.model<DeliveryDocument>('WebhookDelivery', deliverySchema);
}

export function attemptModel(connection: Connection) {
  return connection.model<AttemptDocument>('WebhookAttempt', attemptSchema);
}

export type DeliveryModel = ReturnType<typeof deliveryModel>;
export type AttemptModel = ReturnType<typeof attemptModel>;
