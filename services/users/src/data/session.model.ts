import { Connection, Schema } from 'mongoose';

export interface SessionDocument {
  _id: number;
  userId: number;
  /** SHA-256 of the session's secret (the cookie value); the secret itself is never stored. */
  secretHash: string;
  userAgent: string;
  /** The client address it signed in from ('' for sessions made before it was kept). */
  address?: string;
  lastUsedAt: Date;
  expiresAt: Date;
  createdAt: Date;
}

const sessionSchema = new Schema<SessionDocument>(
  {
    _id: { type: Number, required: true },
    userId: { type: Number, required: true, index: true },
    secretHash: { type: String, required: true, unique: true },
    userAgent: { type: String, default: '' },
    address: { type: String, default: '' },
    lastUsedAt: { type: Date, required: true },
    // No TTL index (FerretDB has none): expiry is checked on every lookup.
    expiresAt: { type: Date, required: true },
  },
  { collection: 'sessions', timestamps: { createdAt: true, updatedAt: false }, versionKey: false },
);

export function sessionModel(connection: Connection) {
  return connection.model<SessionDocument>('Session', sessionSchema);
}

export type SessionModel = ReturnType<typeof sessionModel>;
