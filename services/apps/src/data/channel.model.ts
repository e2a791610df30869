import { Connection, Schema } from 'mongoose';
import { OutboxFields, outboxSchemaFields } from '@hangar/events';

export interface ChannelDocument extends OutboxFields {
  _id: number;
  schemeId: number;
  /** Denormalised (never changes) so a channel key resolves and deletes without walking up. */
  appId: number;
  name: string;
  /** The channel key; unique. Released (`deleted:<id>`) when the channel is deleted. */
  slug: string;
  deviceType: string;
  bundleId: string;
  gitUrl?: string | null;
  /** In-app update checks: installs with an older release version must update. */
  minSupportedVersion?: string | null;
  /** scrypt hash of the visit password; never leaves the service. */
  passwordHash?: string | null;
  /** `upload:<schemeId>:<device_type>` for a channel an upload made, else `id:<id>`. */
  ensureKey: string;
  createdAt: Date;
  updatedAt: Date;
  deletedAt?: Date;
}

const channelSchema = new Schema<ChannelDocument>(
  {
    _id: { type: Number, required: true },
    schemeId: { type: Number, required: true, index: true },
    appId: { type: Number, required: true, index: true },
    name: { type: String, required: true },
    slug: { type: String, required: true, unique: true },
    deviceType: { type: String, required: true },
    bundleId: { type: String, required: true },
    gitUrl: { type: String, default: null },
    minSupportedVersion: { type: String, default: null },
    passwordHash: { type: String, default: null },
    ensureKey: { type: String, required: true, unique: true },
    deletedAt: { type: Date },
    ...outboxSchemaFields,
  },
  { collection: 'channels', timestamps: true, versionKey: false },
);

export function channelModel(connection: Connection) {
  return connection.model<ChannelDocument>('Channel', channelSchema);
}

export type ChannelModel = ReturnType<typeof channelModel>;
