import { Connection, Schema } from 'mongoose';
import { OutboxFields, outboxSchemaFields } from '@hangar/events';

/** A release's downloads of all time, and what its last `release.downloaded` reported. */
export interface DownloadTotalDocument extends OutboxFields {
  /** The release id. */
  _id: number;
  appId: number;
  schemeId: number;
  channelId: number;
  total: number;
  /** `total` as the last release.downloaded reported it. */
  notified: number;
  notifiedAt: Date;
  /** Counted since the last release.downloaded: the minute's flush looks for these. */
  dirty: boolean;
}

/** One release's downloads on one UTC day. */
export interface DownloadDayDocument {
  /** `<release id>:<YYYY-MM-DD>` */
  _id: string;
  releaseId: number;
  day: string;
  total: number;
  unique: number;
}

/**
 * A downloads-stream message taken for counting: inserted before it is
 * counted, refused (atomically, on FerretDB as on MongoDB) when a redelivery
 * brings it again, so no message is counted twice, in whatever order
 * redeliveries come.
 */
export interface DownloadClaimDocument {
  /** `<stream incarnation>:<stream sequence>` */
  _id: string;
  /** UTC day of the claim: claims are pruned by day once the stream has forgotten the message. */
  day: string;
}

/** The distinct clients of a release on a day (domain/unique-clients.ts): salted hashes, never addresses. */
export interface DownloadUniquesDocument {
  /** `<release id>:<YYYY-MM-DD>` */
  _id: string;
  /** UTC day, for pruning. */
  day: string;
  /** UniqueClients.toBuffer(): at most 16 KiB. */
  sketch: Buffer;
}

const totalSchema = new Schema<DownloadTotalDocument>(
  {
    _id: { type: Number, required: true },
    appId: { type: Number, required: true },
    schemeId: { type: Number, required: true },
    channelId: { type: Number, required: true },
    total: { type: Number, default: 0 },
    notified: { type: Number, default: 0 },
    notifiedAt: { type: Date, default: () => new Date(0) },
    dirty: { type: Boolean, default: false },
    ...outboxSchemaFields,
  },
  { collection: 'download_totals', versionKey: false },
);
// download_count of every release of a channel, read at once (domain/download-counts.ts).
totalSchema.index({ channelId: 1 });
// The minute's flush of release.downloaded (domain/record-downloads.ts).
totalSchema.index({ dirty: 1 });

const daySchema = new Schema<DownloadDayDocument>(
  {
    _id: { type: String, required: true },
    releaseId: { type: Number, required: true },
    day: { type: String, required: true },
    total: { type: Number, default: 0 },
    unique: { type: Number, default: 0 },
  },
  { collection: 'download_days', versionKey: false },
);
// GET /api/releases/:id/stats.
daySchema.index({ releaseId: 1 });

const uniquesSchema = new Schema<DownloadUniquesDocument>(
  { _id: { type: String, required: true }, day: { type: String, required: true }, sketch: { type: Buffer, required: true } },
  { collection: 'download_uniques', versionKey: false },
);
// Pruned a day at a time (DownloadStatsRepository.pruneDay).
uniquesSchema.index({ day: 1 });

const claimSchema = new Schema<DownloadClaimDocument>(
  { _id: { type: String, required: true }, day: { type: String, required: true } },
  { collection: 'download_claims', versionKey: false },
);
claimSchema.index({ day: 1 });

export function downloadStatsModels(connection: Connection) {
  return {
    totals: connection.model<DownloadTotalDocument>('DownloadTotal', totalSchema),
    days: connection.model<DownloadDayDocument>('DownloadDay', daySchema),
    uniques: connection.model<DownloadUniquesDocument>('DownloadUniques', uniquesSchema),
    claims: connection.model<DownloadClaimDocument>('DownloadClaim', claimSchema),
  };
}

export type DownloadStatsModels = ReturnType<typeof downloadStatsModels>;
