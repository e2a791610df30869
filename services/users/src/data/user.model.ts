import { Connection, Schema } from 'mongoose';
import { OutboxFields, outboxSchemaFields } from '@hangar/events';

export interface UserDocument extends OutboxFields {
  _id: number;
  username: string;
  /** Lowercased username: uniqueness ignores case. */
  usernameKey: string;
  email: string;
  passwordHash: string;
  locale: string;
  appearance: string;
  timezone: string;
  role: string;
  /** The password was generated (bootstrap admin): the console asks for a new one. */
  mustChangePassword?: boolean;
  /**
   * The single sign-on identity bound to this user: the provider's issuer and subject
   * (`identityKeyOf`). Set by the first sign-in through the provider; absent for users
   * who never signed in that way.
   */
  identityKey?: string;
  createdAt: Date;
  updatedAt: Date;
  /** Tombstone: set by delete together with the user.deleted event; the outbox relay removes the document. */
  deletedAt?: Date;
}

const userSchema = new Schema<UserDocument>(
  {
    _id: { type: Number, required: true },
    username: { type: String, required: true },
    usernameKey: { type: String, required: true, unique: true },
    email: { type: String, required: true, unique: true },
    passwordHash: { type: String, required: true },
    locale: { type: String, required: true },
    appearance: { type: String, required: true },
    timezone: { type: String, required: true },
    role: { type: String, required: true, index: true },
    mustChangePassword: { type: Boolean },
    // Not unique: most users have none, and FerretDB has no partial or sparse unique index.
    // One person's sign-ins are serialised by the email they share (unique above).
    identityKey: { type: String, index: true },
    deletedAt: { type: Date },
    ...outboxSchemaFields,
  },
  { collection: 'users', timestamps: true, versionKey: false },
);

/** Issuer and subject as one indexed value; a newline appears in neither (both are URLs or opaque ids). */
export function identityKeyOf(issuer: string, subject: string): string {
  return `${issuer}\n${subject}`;
}

/** The identity key names a subject of this issuer. */
export function isOfIssuer(identityKey: string, issuer: string): boolean {
  return identityKey.startsWith(identityKeyOf(issuer, ''));
}

export function userModel(connection: Connection) {
  return connection.model<UserDocument>('User', userSchema);
}

export type UserModel = ReturnType<typeof userModel>;
