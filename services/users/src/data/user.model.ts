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
    deletedAt: { type: Date },
    ...outboxSchemaFields,
  },
  { collection: 'users', timestamps: true, versionKey: false },
);

export function userModel(connection: Connection) {
  return connection.model<UserDocument>('User', userSchema);
}

export type UserModel = ReturnType<typeof userModel>;
