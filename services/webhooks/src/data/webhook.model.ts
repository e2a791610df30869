import { Connection, Schema } from 'mongoose';

export interface WebhookDocument {
  _id: number;
  appId: number;
  url: string;
  /** The signing secret, AES-256-GCM encrypted (webhooks/secret-box.ts); never answered after creation. */
  secretEnc: string;
  /** Event types it receives; empty means every event of its app. */
  events: string[];
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
  },
  { collection: 'webhooks', timestamps: true, versionKey: false },
);

export function webhookModel(connection: Connection) {
  return connection.model<WebhookDocument>('Webhook', webhookSchema);
}

export type WebhookModel = ReturnType<typeof webhookModel>;
