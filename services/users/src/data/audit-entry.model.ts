import { Connection, Schema } from 'mongoose';
import { OutboxFields, outboxSchemaFields } from '@hangar/events';

/**
 * One write through the HTTP API. Appended by the audit consumer,
 * removed only by the retention job: no RPC edits an entry.
 */
export interface AuditEntryDocument extends OutboxFields {
  /** The gateway's entry id: a redelivered message is refused by the unique _id. */
  _id: string;
  at: Date;
  /** UTC `YYYY-MM-DD` of `at`: time filters and retention ask by day, with equality (FerretDB serves no range from an index). */
  day: string;
  userId: number | null;
  tokenId: number | null;
  operation: string;
  method: string;
  path: string;
  /** Path parameters; as `{name, value}` pairs, since names are the client's to choose only in the template. */
  resourceIds: { name: string; value: string }[];
  appId: number | null;
  /** Body fields as pairs: a field name may hold a dot, which FerretDB refuses as a key. */
  fields: { name: string; value: string }[];
  address: string;
  requestId: string;
  status: number;
}

const pair = new Schema({ name: { type: String, required: true }, value: { type: String, default: '' } }, { _id: false });

const auditEntrySchema = new Schema<AuditEntryDocument>(
  {
    _id: { type: String, required: true },
    at: { type: Date, required: true },
    day: { type: String, required: true, index: true },
    userId: { type: Number, default: null, index: true },
    tokenId: { type: Number, default: null },
    operation: { type: String, required: true, index: true },
    method: { type: String, required: true },
    path: { type: String, required: true },
    resourceIds: { type: [pair], default: [] },
    appId: { type: Number, default: null, index: true },
    fields: { type: [pair], default: [] },
    address: { type: String, default: '' },
    requestId: { type: String, default: '' },
    status: { type: Number, required: true },
    ...outboxSchemaFields,
  },
  { collection: 'audit_entries', versionKey: false },
);

export function auditEntryModel(connection: Connection) {
  return connection.model<AuditEntryDocument>('AuditEntry', auditEntrySchema);
}

export type AuditEntryModel = ReturnType<typeof auditEntryModel>;
