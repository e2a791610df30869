import { Connection, Schema } from 'mongoose';
import { OutboxFields, outboxSchemaFields } from '@hangar/events';

export interface ReleaseDocument extends OutboxFields {
  _id: number;
  /** Per-channel sequence number. */
  version: number;
  appId: number;
  schemeId: number;
  channelId: number;
  appName: string;
  bundleId: string;
  releaseVersion: string;
  buildVersion: string;
  /** Byte-orderable form of (releaseVersion, buildVersion): see version-order.ts. */
  versionKey: string;
  source: string;
  branch: string;
  gitCommit: string;
  ciUrl: string;
  releaseType: string;
  size: number;
  platform: string;
  deviceType: string;
  minOsVersion: string;
  changelog: { message: string; author?: string; email?: string; date?: string }[];
  customFields: { name: string; value: string; icon?: string }[];
  objectKey: string;
  fileName: string;
  fileExtension: string;
  iconKey?: string;
  /** Parsed details as JSON text: keys like entitlements contain dots, which FerretDB refuses. */
  metadataJson: string;
  /** Lowercase hex SHA-256 of the package, hashed by the gateway as it streamed ('' for builds uploaded before the hash was recorded). */
  sha256: string;
  /** Installs of older builds must update to this one (update_check). */
  mandatory: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** Tombstone: set with release.deleted; the files consumer removes the files, then the document. */
  deletedAt?: Date;
}

const releaseSchema = new Schema<ReleaseDocument>(
  {
    _id: { type: Number, required: true },
    version: { type: Number, required: true },
    appId: { type: Number, required: true, index: true },
    schemeId: { type: Number, required: true, index: true },
    channelId: { type: Number, required: true },
    appName: { type: String, required: true },
    bundleId: { type: String, default: '' },
    releaseVersion: { type: String, default: '' },
    buildVersion: { type: String, default: '' },
    versionKey: { type: String, required: true },
    source: { type: String, default: 'api' },
    branch: { type: String, default: '' },
    gitCommit: { type: String, default: '' },
    ciUrl: { type: String, default: '' },
    releaseType: { type: String, default: '' },
    size: { type: Number, required: true },
    platform: { type: String, required: true },
    deviceType: { type: String, default: '' },
    minOsVersion: { type: String, default: '' },
    changelog: { type: [{ _id: false, message: String, author: String, email: String, date: String }], default: [] },
    customFields: { type: [{ _id: false, name: String, value: String, icon: String }], default: [] },
    objectKey: { type: String, required: true },
    fileName: { type: String, default: '' },
    fileExtension: { type: String, default: '' },
    iconKey: { type: String },
    metadataJson: { type: String, default: '{}' },
    sha256: { type: String, default: '' },
    mandatory: { type: Boolean, default: false },
    deletedAt: { type: Date },
    ...outboxSchemaFields,
  },
  { collection: 'releases', timestamps: true, versionKey: false },
);

// Version queries (versions, latest, version_exist) are answered from a channel's
// live releases, newest upload first, read through this index and kept in memory
// while the channel is unchanged (domain/channel-releases.ts).
releaseSchema.index({ channelId: 1, _id: -1 });
releaseSchema.index({ channelId: 1, version: 1 }, { unique: true });
// The orphan janitor asks which stored keys a release refers to (jobs/orphan-objects.job.ts).
releaseSchema.index({ objectKey: 1 });
releaseSchema.index({ iconKey: 1 });

export function releaseModel(connection: Connection) {
  return connection.model<ReleaseDocument>('Release', releaseSchema);
}

export type ReleaseModel = ReturnType<typeof releaseModel>;
