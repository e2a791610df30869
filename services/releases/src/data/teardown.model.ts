import { Connection, Schema } from 'mongoose';

/** A package read without a release (teardown), kept for its uploader until it expires. */
export interface TeardownDocument {
  /** Random base62: unguessable, since it names the result in URLs. */
  _id: string;
  ownerId: number;
  objectKey: string;
  fileName: string;
  size: number;
  format: string;
  platform: string;
  deviceType: string;
  name: string;
  bundleId: string;
  releaseVersion: string;
  buildVersion: string;
  minOsVersion: string;
  releaseType: string;
  /** Parsed details as JSON text, as on releases (entitlement keys contain dots). */
  metadataJson: string;
  createdAt: Date;
  expiresAt: Date;
  /**
   * Whole days since the epoch of `expiresAt`. The expiry sweep asks for each past day by
   * equality: FerretDB pushes no range filter down to PostgreSQL, so `expiresAt < now` would
   * read the whole collection (see jobs/teardown-expiry.job.ts).
   */
  expiresDay: number;
}

const teardownSchema = new Schema<TeardownDocument>(
  {
    _id: { type: String, required: true },
    ownerId: { type: Number, required: true },
    objectKey: { type: String, required: true },
    fileName: { type: String, default: '' },
    size: { type: Number, required: true },
    format: { type: String, required: true },
    platform: { type: String, required: true },
    deviceType: { type: String, default: '' },
    name: { type: String, default: '' },
    bundleId: { type: String, default: '' },
    releaseVersion: { type: String, default: '' },
    buildVersion: { type: String, default: '' },
    minOsVersion: { type: String, default: '' },
    releaseType: { type: String, default: '' },
    metadataJson: { type: String, default: '{}' },
    createdAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
    expiresDay: { type: Number, required: true },
  },
  { collection: 'teardowns', versionKey: false },
);

// The expiry sweep (jobs/teardown-expiry.job.ts) and the orphan janitor's reference check.
teardownSchema.index({ expiresDay: 1 });
teardownSchema.index({ objectKey: 1 });

export const teardownModel = (connection: Connection) => connection.model<TeardownDocument>('Teardown', teardownSchema);
export type TeardownModel = ReturnType<typeof teardownModel>;
