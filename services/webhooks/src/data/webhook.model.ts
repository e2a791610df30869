import { Connection, Schema } from 'mongoose';
import type { WebhookFormat } from '../domain/chat/formats';

export interface WebhookDocument {
  _id: number;
  appId: number;
  url: string;
  /** The signing secret, AES-256-GCM encrypted (webhooks/secret-box.ts); never answered after creation. */
  secretEnc: string;
  /** Event types it receives; empty means every event of its app. */
  events: string[];
  /** The body's shape: Hangar's JSON, or a chat platform's message. Absent on records older than formats: generic. */
  format?: WebhookFormat;
  createdAt: Date;
  updatedAt: Date;
}

const webhookSchema = new Schema<WebhookDocument>(
  {
    _id: { type: Number, required: true },
    appId: { type: Number, required: true, index: true },
    url: { type: String, required: true },
    secretEnc: { type: String, required: true },
    events: { type: [String], default: [] },
    format: { type: String },
  },
  { collection: 'webhooks', timestamps: true, versionKey: false },
);

export function webhookModel(connection: Connection) {
  return connection.model<WebhookDocument>('Webhook', webhookSchema);
}

export type WebhookModel = ReturnType<typeof webhookModel>;
