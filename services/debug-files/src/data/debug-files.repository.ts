import type { Connection } from 'mongoose';
import { Envelope, newOutbox, withEvents } from '@hangar/events';
import { findEach, isDuplicateKeyError, nextSequence } from '@hangar/mongo';
import type { DebugFileDocument, DebugFileEntry, DebugFileModel } from './debug-file.model';

const LIVE = { deletedAt: { $exists: false } };

export type NewEntry = Omit<DebugFileEntry, 'id'>;

/** What an archive says about itself, with where it is stored. */
export type ArchiveFields = Pick<
  DebugFileDocument,
  'deviceType' | 'kind' | 'bundleId' | 'releaseVersion' | 'buildVersion' | 'versionKey' | 'objectKey' | 'fileName' | 'size' | 'checksum'
> & { entries: NewEntry[] };

export type NewDebugFile = ArchiveFields & Pick<DebugFileDocument, 'appId' | 'schemeId' | 'channelId' | 'appName'>;

/** A write either lands or meets the same content already stored for the app. */
export type WriteResult =
  | { ok: true; file: DebugFileDocument; previous?: DebugFileDocument }
  | { ok: false; reason: 'duplicate'; duplicateOf?: number }
  | { ok: false; reason: 'missing' };

export interface DownloadMatch {
  releaseVersion?: string;
  buildVersion?: string;
}

export type DownloadOrder = 'version' | 'upload_date';

/** Everything under an app, a scheme or a channel. */
export type Scope = { appId: number } | { schemeId: number } | { channelId: number };

/**
 * A unique index refused the write. MongoDB says E11000 for inserts and
 * updates; FerretDB 1.24 (SQLite) says E11000 for inserts but, for updates,
 * an InternalError whose message names the violated UNIQUE constraint.
 */
function isUniqueViolation(err: unknown): boolean {
  return isDuplicateKeyError(err) || (err instanceof Error && /UNIQUE constraint failed|duplicate key/i.test(err.message));
}

/** Where a member of an archive is stored: beside the archive, under the prefix the janitor owns. */
const archiveKeyOf = (key: string) => key.replace(/\.member-\d+$/, '');

/** Every object a file's record stands for: its archive and its stored members. */
export const objectKeysOf = (file: Pick<DebugFileDocument, 'objectKey' | 'entries'>): string[] => [
  file.objectKey,
  ...file.entries.flatMap((e) => (e.objectKey ? [e.objectKey] : [])),
];

export class DebugFilesRepository {
  constructor(
    private readonly connection: Connection,
    private readonly files: DebugFileModel,
  ) {}

  /**
   * The unique (appId, contentKey) index decides duplicates: of two identical
   * uploads at once exactly one insert succeeds, on FerretDB as on MongoDB.
   */
  async create(file: NewDebugFile, event: (id: number, uuids: string[]) => Envelope): Promise<WriteResult> {
    const id = await nextSequence(this.connection, 'debug_files');
    const fields = await this.archiveDocumentFields(file);
    try {
      const created = await this.files.create({
        _id: id,
        appId: file.appId,
        schemeId: file.schemeId,
        channelId: file.channelId,
        appName: file.appName,
        ...fields,
        ...newOutbox(event(id, fields.uuids)),
      });
      return { ok: true, file: created.toObject() };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      return { ok: false, reason: 'duplicate', duplicateOf: await this.idOfContent(file.appId, file.checksum) };
    }
  }

  /** Replaces the archive and its parsed rows; a content another live file of the app holds is refused by the index. */
  async replaceArchive(id: number, archive: ArchiveFields): Promise<WriteResult> {
    const fields = await this.archiveDocumentFields(archive);
    try {
      const previous = await this.files.findOneAndUpdate({ _id: id, ...LIVE }, { $set: fields }, { new: false }).lean<DebugFileDocument>();
      const file = previous && (await this.findById(id));
      if (!previous || !file) return { ok: false, reason: 'missing' };
      return { ok: true, file, previous };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const current = await this.findAnyById(id);
      return { ok: false, reason: 'duplicate', duplicateOf: current ? await this.idOfContent(current.appId, archive.checksum) : undefined };
    }
  }

  findById(id: number): Promise<DebugFileDocument | null> {
    return this.files.findOne({ _id: id, ...LIVE }).lean<DebugFileDocument>();
  }

  /** Including tombstoned ones: the files consumer needs their keys. */
  findAnyById(id: number): Promise<DebugFileDocument | null> {
    return this.files.findOne({ _id: id }).lean<DebugFileDocument>();
  }

  async pageOfChannel(channelId: number, uuid: string | undefined, skip: number, limit: number): Promise<{ files: DebugFileDocument[]; total: number }> {
    const filter = { channelId, ...(uuid ? { uuids: uuid } : {}), ...LIVE };
    const [files, total] = await Promise.all([
      this.files.find(filter).sort({ _id: -1 }).skip(skip).limit(limit).lean<DebugFileDocument[]>(),
      this.files.countDocuments(filter),
    ]);
    return { files, total };
  }

  /**
   * A page of the live files carrying this debug id in any channel, newest first, from the (uuids)
   * index: a symbol server walks the pages until one answers, however many files there are.
   */
  liveByDebugId(debugId: string, skip: number, limit: number): Promise<DebugFileDocument[]> {
    return this.files.find({ uuids: debugId, ...LIVE }).sort({ _id: -1 }).skip(skip).limit(limit).lean<DebugFileDocument[]>();
  }

  /** The same within one channel: the (channelId, uuids) index. */
  liveByDebugIdInChannel(channelId: number, debugId: string, skip: number, limit: number): Promise<DebugFileDocument[]> {
    return this.files.find({ channelId, uuids: debugId, ...LIVE }).sort({ _id: -1 }).skip(skip).limit(limit).lean<DebugFileDocument[]>();
  }

  /**
   * Live files of one build of a channel, newest upload first: what a release lists. A build has
   * a handful (a dSYM, a mapping, the ELF files of a Linux build); the limit bounds a pathological one.
   */
  liveOfBuild(channelId: number, releaseVersion: string, buildVersion: string, limit = 50): Promise<DebugFileDocument[]> {
    return this.files
      .find({ channelId, releaseVersion, buildVersion, ...LIVE })
      .sort({ uploadedAt: -1, _id: -1 })
      .limit(limit)
      .lean<DebugFileDocument[]>();
  }

  /** The first file of the channel matching `match` in `order` (see download-rule.ts). */
  findForDownload(channelId: number, match: DownloadMatch, order: DownloadOrder): Promise<DebugFileDocument | null> {
    const sort: Record<string, 1 | -1> = order === 'version' ? { versionKey: -1, uploadedAt: -1, _id: -1 } : { uploadedAt: -1, _id: -1 };
    return this.files
      .findOne({ channelId, ...match, ...LIVE })
      .sort(sort)
      .lean<DebugFileDocument>();
  }

  async markDeleted(id: number, event: Envelope): Promise<boolean> {
    const result = await this.files.updateOne(
      { _id: id, ...LIVE },
      // The content is free again at once: the same archive may be uploaded anew.
      withEvents<DebugFileDocument>({ $set: { deletedAt: new Date(), contentKey: `deleted:${id}` } }, event),
    );
    return result.modifiedCount === 1;
  }

  async purge(id: number): Promise<void> {
    await this.files.deleteOne({ _id: id, deletedAt: { $exists: true } });
  }

  /** A batch of files (live or tombstoned) under a scope, for removal with their archives. */
  batchUnder(scope: Scope, limit: number): Promise<Pick<DebugFileDocument, '_id' | 'objectKey' | 'entries'>[]> {
    return this.files.find(scope, { _id: 1, objectKey: 1, entries: 1 }).sort({ _id: 1 }).limit(limit).lean<Pick<DebugFileDocument, '_id' | 'objectKey' | 'entries'>[]>();
  }

  async remove(id: number): Promise<void> {
    await this.files.deleteOne({ _id: id });
  }

  /**
   * Of these storage keys, the ones a debug file (live or tombstoned) refers to: its archive, or a
   * member stored beside it (`<archive key>.member-<n>`, referenced while its archive is).
   */
  async referencedKeys(keys: string[]): Promise<Set<string>> {
    const archiveOf = (key: string) => archiveKeyOf(key);
    const found = await findEach(keys.map(archiveOf), (objectKey) => this.files.find({ objectKey }, { _id: 0, objectKey: 1 }).lean<Pick<DebugFileDocument, 'objectKey'>[]>());
    const archives = new Set(found.map((f) => f.objectKey));
    return new Set(keys.filter((key) => archives.has(archiveOf(key))));
  }

  /** The live debug file of `appId` whose archive has this SHA-256, if any. */
  async idOfContent(appId: number, checksum: string): Promise<number | undefined> {
    const existing = await this.files.findOne({ appId, contentKey: checksum }, { _id: 1 }).lean<Pick<DebugFileDocument, '_id'>>();
    return existing?._id;
  }

  private async archiveDocumentFields(archive: ArchiveFields) {
    const entries: DebugFileEntry[] = [];
    // One at a time: nextSequence serialises per counter anyway.
    for (const entry of archive.entries) entries.push({ id: await nextSequence(this.connection, 'debug_file_entries'), ...entry });
    return {
      deviceType: archive.deviceType,
      kind: archive.kind,
      bundleId: archive.bundleId,
      releaseVersion: archive.releaseVersion,
      buildVersion: archive.buildVersion,
      versionKey: archive.versionKey,
      objectKey: archive.objectKey,
      fileName: archive.fileName,
      size: archive.size,
      checksum: archive.checksum,
      contentKey: archive.checksum,
      uuids: [...new Set(archive.entries.map((e) => e.uuid.toLowerCase()).filter(Boolean))],
      entries,
      uploadedAt: new Date(),
    };
  }
}
