import { Connection, Schema } from 'mongoose';
import { OutboxFields, outboxSchemaFields } from '@hangar/events';

export interface SchemeDocument extends OutboxFields {
  _id: number;
  appId: number;
  name: string;
  newBuildCallout: boolean;
  retainedBuilds: number;
  /** `upload:<appId>` for the `Adhoc` scheme an upload made, else `id:<id>` (see AppDocument.ensureKey). */
  ensureKey: string;
  createdAt: Date;
  updatedAt: Date;
  deletedAt?: Date;
}

const schemeSchema = new Schema<SchemeDocument>(
  {
    _id: { type: Number, required: true },
    appId: { type: Number, required: true, index: true },
    name: { type: String, required: true },
    newBuildCallout: { type: Boolean, required: true },
    retainedBuilds: { type: Number, required: true },
    ensureKey: { type: String, required: true, unique: true },
    deletedAt: { type: Date },
    ...outboxSchemaFields,
  },
  { collection: 'schemes', timestamps: true, versionKey: false },
);

export function schemeModel(connection: Connection) {
  return connection.model<SchemeDocument>('Scheme', schemeSchema);
}

export type SchemeModel = ReturnType<typeof schemeModel>;
