import { createHash } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import type { KV } from '@nats-io/kv';
import { openKvBucket } from '@hangar/events';
import type { UploadedPart } from '@hangar/storage';

export type UploadPurpose = 'package' | 'debug_file';

/** Bytes received after the last full part, kept as a small object until the next request fills the part. */
export interface UploadTail {
  key: string;
  size: number;
}

/**
 * What every gateway replica knows of a resumable upload. Kept in NATS KV (not in a
 * process): the next request of an upload may reach any replica, or a restarted one.
 */
export interface UploadRecord {
  id: string;
  /** The user who created it; everyone else is told it does not exist. */
  ownerId: number;
  purpose: UploadPurpose;
  channelKey: string;
  fileName: string;
  /** Upload-Length. */
  length: number;
  /** Bytes received and kept: full parts, then the tail. */
  offset: number;
  /** Where the file is assembled, and where it stays for the build it becomes. */
  objectKey: string;
  /** S3 multipart upload id; absent for a final concatenation, which is assembled in one step. */
  multipartId?: string;
  parts: UploadedPart[];
  tail?: UploadTail;
  concat?: 'partial' | 'final';
  /**
   * A partial of a parallel upload whose client said which upload it is part of (`parallel_upload`
   * in its metadata): its first PATCH places it, by where its bytes start in the whole file, into
   * that upload's one S3 multipart upload, so the final joins by completing it, copying nothing.
   */
  joins?: { group: string; size: number };
  /** Where a joining partial went: its first byte's place in the whole file, and its first S3 part number there. */
  placed?: { start: number; firstPart: number };
  /** A direct upload: the client PUTs parts of `partSize` bytes to presigned S3 URLs; the finishing call completes it. */
  direct?: { partSize: number };
  createdAt: number;
  expiresAt: number;
  /** SHA-256 (hex) of every byte, once the upload is complete ('' for a partial: only the joined file's is kept). */
  sha256?: string;
  /** A request writing into the upload: others wait (423) until it ends or stops beating. */
  writer?: { token: string; beatAt: number };
  /** The finishing call: claimed by one request, then the build it made. */
  finish?: { claimedAt: number; releaseId?: number; debugFileId?: number };
  /** The final upload this partial became part of: a partial serves one final. */
  usedBy?: string;
  /**
   * Thrown away by a finishing call whose SHA-256 did not match the bytes: its bytes are gone, and
   * the record stays (until the bucket's TTL) only so a retry is told why rather than "not yours".
   */
  discarded?: 'sha256-mismatch';
}

/**
 * The one S3 multipart upload a parallel upload's partials are placed into, made by the first of
 * them to arrive. Kept under a key no upload id can take (ids have no dots).
 */
export interface UploadGroup {
  key: string;
  ownerId: number;
  purpose: UploadPurpose;
  size: number;
  objectKey: string;
  multipartId: string;
  /** After this the group is not joined again (its multipart upload may have been swept): a new one takes its key. */
  expiresAt: number;
}

export const isComplete = (record: UploadRecord) => record.offset === record.length && record.sha256 !== undefined;

export interface StoredRecord {
  record: UploadRecord;
  revision: number;
}

/** Upload records with compare-and-set writes: two replicas never both win a change. */
export class UploadRecords {
  private constructor(private readonly kv: KV) {}

  static async open(nc: NatsConnection, prefix: string, keepMs: number): Promise<UploadRecords> {
    // Records outlive their uploads' expiry, so a late finishing retry or HEAD is told
    // 410 Gone rather than 404; KV drops them after that on its own.
    const kv = await openKvBucket(nc, `${prefix}-uploads`, { history: 1, ttl: keepMs });
    return new UploadRecords(kv);
  }

  async get(id: string): Promise<StoredRecord | undefined> {
    const entry = await this.liveEntry(id);
    return entry && { record: entry.json<UploadRecord>(), revision: entry.revision };
  }

  /** The key's value, unless it was never written or is deleted. */
  private async liveEntry(key: string) {
    const entry = await this.kv.get(key);
    return entry && entry.operation === 'PUT' && entry.length > 0 ? entry : undefined;
  }

  async create(record: UploadRecord): Promise<StoredRecord> {
    const revision = await this.kv.create(record.id, JSON.stringify(record));
    return { record, revision };
  }

  /** Writes `record` if nobody wrote since `revision`; undefined when someone did. */
  async replace(record: UploadRecord, revision: number): Promise<StoredRecord | undefined> {
    try {
      return { record, revision: await this.kv.update(record.id, JSON.stringify(record), revision) };
    } catch (err) {
      if (isWrongRevision(err)) return undefined;
      throw err;
    }
  }

  async getGroup(key: string): Promise<UploadGroup | undefined> {
    return (await this.liveEntry(key))?.json<UploadGroup>();
  }

  /** Records `group` unless a live one is there already: whichever was first is the group. */
  async createGroup(group: UploadGroup, now: number): Promise<UploadGroup> {
    const entry = await this.liveEntry(group.key);
    if (entry) {
      const existing = entry.json<UploadGroup>();
      if (existing.expiresAt > now) return existing;
      // An expired group is replaced, if nobody replaced it since it was read.
      try {
        await this.kv.update(group.key, JSON.stringify(group), entry.revision);
        return group;
      } catch (err) {
        if (!isWrongRevision(err)) throw err;
        return (await this.getGroup(group.key)) ?? group;
      }
    }
    try {
      await this.kv.create(group.key, JSON.stringify(group));
      return group;
    } catch (err) {
      const first = await this.getGroup(group.key);
      if (!first) throw err;
      return first;
    }
  }

  /**
   * Claims, for upload `id`, the place of a group's file whose parts start at `firstPart`; false when
   * another upload holds it. Two uploads of one caller that share a parallel upload's name and size
   * would otherwise write the same S3 part numbers, the later overwriting the earlier's bytes (whose
   * completion S3 then fails). The key names the group's object, so a later group under the same
   * name starts with every place free; claims expire with the bucket's other keys.
   */
  async claimPlace(group: UploadGroup, firstPart: number, id: string): Promise<boolean> {
    const key = `${group.key}.${createHash('sha256').update(group.objectKey).digest('hex').slice(0, 16)}.${firstPart}`;
    try {
      await this.kv.create(key, id);
      return true;
    } catch (err) {
      const holder = await this.liveEntry(key);
      if (!holder) throw err;
      // The same upload asking again (a request retried after its place was claimed) keeps it.
      return holder.string() === id;
    }
  }

  async remove(id: string): Promise<void> {
    await this.kv.delete(id);
  }
}

function isWrongRevision(err: unknown): boolean {
  const text = String((err as { message?: string })?.message ?? err);
  return /wrong last sequence|10071/i.test(text);
}
