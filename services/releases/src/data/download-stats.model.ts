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
  /** The highest downloads-stream sequence counted here: a redelivered message is not counted twice. */
  lastSeq: number;
}

/** One release's downloads on one UTC day. */
export interface DownloadDayDocument {
  /** `<release id>:<YYYY-MM-DD>` */
  _id: string;
  releaseId: number;
  day: string;
  total: number;
  unique: number;
  lastSeq: number;
}

/** A client seen downloading a release on a day: a salted hash, never an address. */
export interface DownloadClientDocument {
  /** `<release id>:<YYYY-MM-DD>:<client hash>` */
  _id: string;
  /** The stream sequence of the message that first counted it. */
  seq: number;
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
    lastSeq: { type: Number, default: 0 },
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
    lastSeq: { type: Number, default: 0 },
  },
  { collection: 'download_days', versionKey: false },
);
// GET /api/releases/:id/stats.
daySchema.index({ releaseId: 1 });

const clientSchema = new Schema<DownloadClientDocument>(
  { _id: { type: String, required: true }, seq: { type: Number, required: true } },
  { collection: 'download_clients', versionKey: false },
);

export function downloadStatsModels(connection: Connection) {
  return {
    totals: connection.model<DownloadTotalDocument>('DownloadTotal', totalSchema),
    days: connection.model<DownloadDayDocument>('DownloadDay', daySchema),
    clients: connection.model<DownloadClientDocument>('DownloadClient', clientSchema),
  };
}

export type DownloadStatsModels = ReturnType<typeof downloadStatsModels>;
