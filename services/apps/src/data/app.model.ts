import { Connection, Schema } from 'mongoose';
import { OutboxFields, outboxSchemaFields } from '@hangar/events';

export interface AppDocument extends OutboxFields {
  _id: number;
  name: string;
  /**
   * Unique key that makes concurrent "find or create" of an upload's app
   * create one app (FerretDB has no atomic read-modify-write, only unique
   * inserts): `upload:<userId>:<name>` for apps made by an upload, else
   * `id:<id>`.
   */
  ensureKey: string;
  createdAt: Date;
  updatedAt: Date;
  /** Tombstone: set by delete together with app.deleted; the outbox relay removes the document. */
  deletedAt?: Date;
}

const appSchema = new Schema<AppDocument>(
  {
    _id: { type: Number, required: true },
    name: { type: String, required: true, index: true },
    ensureKey: { type: String, required: true, unique: true },
    deletedAt: { type: Date },
    ...outboxSchemaFields,
  },
  { collection: 'apps', timestamps: true, versionKey: false },
);

export function appModel(connection: Connection) {
  return connection.model<AppDocument>('App', appSchema);
}

export type AppModel = ReturnType<typeof appModel>;
