import { Connection, Schema } from 'mongoose';
import { OutboxFields, outboxSchemaFields } from '@hangar/events';

/** One metadata row: a Mach-O slice of a dSYM, or one file of a mapping archive. */
export interface DebugFileEntry {
  /** Integer id from its own counter: the API's DebugFileMetadata.id. */
  id: number;
  uuid: string;
  /** Architecture (arm64, armv7, …) or, for Android, mapping | r_txt | manifest. */
  type: string;
  object: string;
  size: number;
  /** Parser extras as JSON text, like releases keep theirs: never interpreted by the database. */
  dataJson: string;
  /**
   * An ELF file that came inside a zip is stored on its own too (`<archive key>.member-<n>`):
   * symbol servers hand out the file, not the archive. Absent for every other entry.
   */
  objectKey?: string;
}

export interface DebugFileDocument extends OutboxFields {
  _id: number;
  appId: number;
  schemeId: number;
  channelId: number;
  appName: string;
  /** ios | android, from the archive's content. */
  deviceType: string;
  kind: 'dsym' | 'proguard' | 'elf' | 'breakpad' | 'pdb' | 'pe';
  bundleId: string;
  releaseVersion: string;
  buildVersion: string;
  /** Byte-orderable form of (releaseVersion, buildVersion): see version-order.ts. */
  versionKey: string;
  objectKey: string;
  fileName: string;
  size: number;
  /** sha256 of the archive, computed while it was read. */
  checksum: string;
  /**
   * `checksum` while the file is live, `deleted:<id>` once tombstoned: the
   * unique (appId, contentKey) index is what keeps one copy per content and
   * app, also under concurrent uploads (FerretDB: inserts are atomic, a
   * read-then-write check is not), and a deleted file frees its content.
   */
  contentKey: string;
  /** Every entry's UUID, lowercased, in an indexed array: lookup by any UUID. */
  uuids: string[];
  entries: DebugFileEntry[];
  /** When the current archive arrived (an update replaces it): order=upload_date. */
  uploadedAt: Date;
  createdAt: Date;
  updatedAt: Date;
  /** Tombstone: set with debug_file.deleted; the files consumer removes the archive, then the document. */
  deletedAt?: Date;
}

const debugFileSchema = new Schema<DebugFileDocument>(
  {
    _id: { type: Number, required: true },
    appId: { type: Number, required: true },
    schemeId: { type: Number, required: true, index: true },
    channelId: { type: Number, required: true },
    appName: { type: String, default: '' },
    deviceType: { type: String, required: true },
    kind: { type: String, required: true },
    bundleId: { type: String, default: '' },
    releaseVersion: { type: String, default: '' },
    buildVersion: { type: String, default: '' },
    versionKey: { type: String, required: true },
    objectKey: { type: String, required: true },
    fileName: { type: String, default: '' },
    size: { type: Number, required: true },
    checksum: { type: String, required: true },
    contentKey: { type: String, required: true },
    uuids: { type: [String], default: [] },
    entries: {
      type: [{ _id: false, id: Number, uuid: String, type: { type: String }, object: String, size: Number, dataJson: String, objectKey: String }],
      default: [],
    },
    uploadedAt: { type: Date, required: true },
    deletedAt: { type: Date },
    ...outboxSchemaFields,
  },
  { collection: 'debug_files', timestamps: true, versionKey: false },
);

// List: a channel's files, newest first.
debugFileSchema.index({ channelId: 1, _id: -1 });
// Lookup by any Mach-O UUID (multikey on the array).
debugFileSchema.index({ channelId: 1, uuids: 1 });
// Symbol servers: by debug id (GNU build-id, …) across channels, the caller's rights decided after.
debugFileSchema.index({ uuids: 1 });
// Download: exact (release, build); highest version of a release (Android) or
// of the channel (iOS, release_version ignored); newest upload.
debugFileSchema.index({ channelId: 1, releaseVersion: 1, buildVersion: 1, uploadedAt: -1 });
debugFileSchema.index({ channelId: 1, releaseVersion: 1, versionKey: -1 });
debugFileSchema.index({ channelId: 1, buildVersion: 1, versionKey: -1 });
debugFileSchema.index({ channelId: 1, versionKey: -1 });
debugFileSchema.index({ channelId: 1, uploadedAt: -1 });
// One copy per content per app; its prefix also serves app deletion.
debugFileSchema.index({ appId: 1, contentKey: 1 }, { unique: true });
// The orphan janitor asks which stored keys a debug file refers to (jobs/orphan-objects.job.ts).
debugFileSchema.index({ objectKey: 1 });

export function debugFileModel(connection: Connection) {
  return connection.model<DebugFileDocument>('DebugFile', debugFileSchema);
}

export type DebugFileModel = ReturnType<typeof debugFileModel>;
