import { Connection, Schema } from 'mongoose';

export interface TokenDocument {
  _id: number;
  userId: number;
  name: string;
  /** SHA-256 of the token; the token itself is never stored. */
  tokenHash: string;
  hint: string;
  /** Empty or absent (tokens made before scopes): all of the user's rights. */
  scopes?: string[];
  /** Empty or absent: every app of the user. */
  appIds?: number[];
  expiresAt?: Date;
  lastUsedAt?: Date;
  lastUsedAddress?: string;
  createdAt: Date;
}

const tokenSchema = new Schema<TokenDocument>(
  {
    _id: { type: Number, required: true },
    userId: { type: Number, required: true, index: true },
    name: { type: String, required: true },
    tokenHash: { type: String, required: true, unique: true },
    hint: { type: String, required: true },
    scopes: { type: [String], default: undefined },
    appIds: { type: [Number], default: undefined },
    expiresAt: { type: Date },
    lastUsedAt: { type: Date },
    lastUsedAddress: { type: String },
  },
  { collection: 'tokens', timestamps: { createdAt: true, updatedAt: false }, versionKey: false },
);

export function tokenModel(connection: Connection) {
  return connection.model<TokenDocument>('Token', tokenSchema);
}

export type TokenModel = ReturnType<typeof tokenModel>;
