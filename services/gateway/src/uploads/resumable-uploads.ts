import { createHash, randomBytes, randomUUID, timingSafeEqual, type Hash } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { FailedPrecondition, InvalidArgument } from '@hangar/errors';
import type { UploadJoin } from '@hangar/metrics';
import { isGoneFromStorage, type ObjectStorage } from '@hangar/storage';
import { writeBody } from './part-writer';
import { RunningHashes } from './running-hashes';
import { TusRefusal } from './tus-headers';
import { WriterClaim } from './writer-claim';
import { S3_MAX_PARTS, S3_MIN_PART, firstPartAt, groupKey } from './partial-placement';
import { StoredRecord, UploadGroup, UploadPurpose, UploadRecord, UploadRecords, isComplete } from './upload-records';

export interface ResumableUploadOptions {
  /** Unfinished uploads are refused (410) after this, and their parts removed by the owning service's janitor. */
  expiryMs: number;
  maxBytes: number;
  /** A writer that has not said it is alive for this long has gone; another request may take over. */
  writerStaleMs?: number;
  now?: () => number;
  onBytes?: (purpose: UploadPurpose, bytes: number) => void;
  /** Told how each final concatenation joined its parts (metrics). */
  onJoin?: (how: UploadJoin) => void;
}

export interface NewUpload {
  ownerId: number;
  purpose: UploadPurpose;
  channelKey: string;
  fileName: string;
  length: number;
  concat?: 'partial';
  /** A partial's parallel upload, as its client names it (`parallel_upload`), and that whole file's size. */
  joins?: { name: string; size: number };
}
const DIRECT_PART_SIZE = 16 * 1024 * 1024;
const BEAT_EVERY_MS = 5_000;

/** Every later request of an upload a wrong SHA-256 threw away is told this. */
const DISCARDED = 'The upload was discarded: the SHA-256 sent to finish it did not match the bytes received. Upload the file again, as a new upload';

/** Where each kind of upload is assembled: the owning service's prefix, whose janitor removes what nothing claims. */
const KEY_PREFIX: Record<UploadPurpose, string> = { package: 'packages', debug_file: 'debug-files' };

/**
 * Resumable uploads (tus 1.0) assembled straight into S3 multipart uploads, with their state
 * in NATS KV so any replica can take the next request. One request writes into an upload at a
 * time; a request that took over from a vanished one continues from what that one kept.
 */
export class ResumableUploads {
  private readonly hashes = new RunningHashes();
  /** Requests writing on this replica, so a client's retry can end its own stalled request at once. */
  private readonly localWriters = new Map<string, { abort: AbortController; done: Promise<unknown> }>();
  private readonly now: () => number;
  private readonly writerStaleMs: number;

  constructor(
    private readonly records: UploadRecords,
    private readonly storage: ObjectStorage,
    private readonly options: ResumableUploadOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.writerStaleMs = options.writerStaleMs ?? 3 * BEAT_EVERY_MS;
  }

  get maxBytes(): number {
    return this.options.maxBytes;
  }

  async create(upload: NewUpload): Promise<StoredRecord> {
    if (upload.length > this.options.maxBytes) throw new TusRefusal(413, `Upload-Length is over the limit of ${this.options.maxBytes} bytes`);
    const now = this.now();
    const objectKey = `${KEY_PREFIX[upload.purpose]}/${randomUUID()}`;
    const record: UploadRecord = {
      id: randomBytes(18).toString('base64url'),
      ownerId: upload.ownerId,
      purpose: upload.purpose,
      channelKey: upload.channelKey,
      fileName: upload.fileName,
      length: upload.length,
      offset: 0,
      objectKey,
      parts: [],
      ...(upload.concat ? { concat: upload.concat } : {}),
      ...(upload.concat === 'partial' && upload.joins ? { joins: { group: groupKey(upload.ownerId, upload.joins.name), size: upload.joins.size } } : {}),
      createdAt: now,
      expiresAt: now + this.options.expiryMs,
    };
    if (upload.length === 0) {
      delete record.joins;
      await this.storage.putBuffer(objectKey, Buffer.alloc(0));
      record.sha256 = createHash('sha256').digest('hex');
    } else if (!record.joins) {
      // A joining partial gets its multipart upload at its first bytes, when its place is known.
      record.multipartId = await this.storage.beginMultipart(objectKey);
    }
    return this.records.create(record);
  }

  /**
   * A direct upload: the bytes go from the client to S3 through presigned part URLs and never
   * cross the gateway. The finishing call checks what S3 holds, completes it and hashes it.
   */
  async createDirect(upload: Omit<NewUpload, 'concat'>, urlTtlSeconds: number): Promise<{ record: UploadRecord; partUrls: { part: number; offset: number; length: number; url: string }[] }> {
    if (!this.storage.signsForPublicEndpoint) throw new TusRefusal(404, 'Direct uploads need S3_PUBLIC_ENDPOINT: use the tus protocol at /api/uploads');
    if (upload.length === 0) throw new TusRefusal(400, 'A direct upload needs at least one byte');
    if (upload.length > this.options.maxBytes) throw new TusRefusal(413, `length is over the limit of ${this.options.maxBytes} bytes`);
    const partSize = Math.max(DIRECT_PART_SIZE, Math.ceil(upload.length / S3_MAX_PARTS));
    const { record } = await this.create({ ...upload, length: upload.length });
    const direct: UploadRecord = { ...record, direct: { partSize } };
    const stored = await this.records.get(record.id);
    await this.records.replace(direct, stored!.revision);
    const partUrls = [];
    for (let offset = 0, part = 1; offset < upload.length; offset += partSize, part++) {
      const length = Math.min(partSize, upload.length - offset);
      partUrls.push({ part, offset, length, url: await this.storage.presignedPartUrl(record.objectKey, record.multipartId!, part, urlTtlSeconds) });
    }
    return { record: direct, partUrls };
  }

  /** The caller's upload, live: 404 for anyone else's or an unknown id, 410 once expired. */
  async find(id: string, ownerId: number): Promise<StoredRecord> {
    const stored = /^[A-Za-z0-9_-]{1,64}$/.test(id) ? await this.records.get(id) : undefined;
    if (!stored || stored.record.ownerId !== ownerId) throw new TusRefusal(404, 'Upload not found');
    if (stored.record.discarded) throw new TusRefusal(404, DISCARDED);
    if (this.now() > stored.record.expiresAt && !stored.record.finish) throw new TusRefusal(410, 'Upload expired');
    return stored;
  }

  /**
   * PATCH: appends `body` at `offset`. `partialStart` is where a partial's bytes start in the
   * whole file (`Hangar-Partial-Start`), which places a joining partial at its first bytes.
   */
  async append(id: string, ownerId: number, offset: number, body: Readable, checksum?: Buffer, partialStart?: number): Promise<UploadRecord> {
    await this.endLocalWriter(id);
    let stored = await this.find(id, ownerId);
    if (stored.record.concat === 'final') throw new TusRefusal(403, 'A final concatenation takes no bytes of its own');
    if (stored.record.direct) throw new TusRefusal(403, 'A direct upload takes its bytes at its presigned S3 part URLs');
    if (stored.record.usedBy) throw new TusRefusal(410, 'This partial upload is already part of a final upload');
    if (offset !== stored.record.offset) {
      throw new TusRefusal(409, `Upload-Offset ${offset} does not match the upload's offset ${stored.record.offset}`);
    }
    if (isComplete(stored.record)) return stored.record;
    if (stored.record.joins && !stored.record.multipartId) stored = await this.place(stored, partialStart);
    const claim = new WriterClaim(this.records, await this.claimWriter(stored), this.now);
    claim.startBeating(BEAT_EVERY_MS);
    const abort = new AbortController();
    const work = this.writeAndCommit(claim, body, abort.signal, checksum);
    this.localWriters.set(id, { abort, done: work.catch(() => undefined) });
    try {
      return await work;
    } finally {
      await claim.release();
      if (this.localWriters.get(id)?.abort === abort) this.localWriters.delete(id);
    }
  }

  private async writeAndCommit(claim: WriterClaim, body: Readable, signal: AbortSignal, checksum?: Buffer): Promise<UploadRecord> {
    const before = claim.record;
    const onAbort = () => body.destroy(new Error('another request took over this upload'));
    signal.addEventListener('abort', onAbort);
    try {
      // A partial upload is never a build of its own: only the joined file's SHA-256 is used,
      // so its bytes are not hashed here (one pass over every byte saved).
      const partial = before.concat === 'partial';
      const running = partial ? undefined : this.hashes.continueAt(before.id, before.offset);
      const written = await writeBody({
        storage: this.storage,
        record: before,
        body,
        ...(running ? { runningHash: running } : {}),
        onBytes: (bytes) => this.options.onBytes?.(before.purpose, bytes),
        digestBody: checksum !== undefined,
      });
      if (checksum && (written.cutShort || !timingSafeEqual(checksum, written.bodyDigest!))) {
        // The chunk is dropped whole: the upload stays where it was (the claim is released unchanged).
        if (written.cutShort) throw new TusRefusal(400, 'The body ended early; with Upload-Checksum nothing of it is kept');
        throw new TusRefusal(460, 'Upload-Checksum does not match the body: nothing of it was kept');
      }
      const offset = before.offset + written.received;
      let sha256: string | undefined;
      if (offset === before.length) {
        // A placed partial's parts stay in the whole file's multipart upload, for the final to complete.
        if (!before.placed) await this.storage.completeMultipart(before.objectKey, before.multipartId!, written.parts);
        sha256 = partial ? '' : running ? running.digest('hex') : await this.hashObject(before.objectKey);
        this.hashes.forget(before.id);
      } else if (running) {
        this.hashes.remember(before.id, offset, running);
      } else {
        this.hashes.forget(before.id);
      }
      const committed = await claim.finish((current) => {
        const next: UploadRecord = { ...current, offset, parts: written.parts, ...(sha256 !== undefined ? { sha256 } : {}) };
        delete next.tail;
        if (written.tail) next.tail = written.tail;
        return next;
      });
      if (!committed) throw new TusRefusal(409, 'Another request took over this upload; ask for its offset and resume');
      if (before.tail && before.tail.key !== written.tail?.key) await this.storage.delete(before.tail.key).catch(() => undefined);
      return committed.record;
    } catch (err) {
      if (!(err instanceof TusRefusal) && (await this.partsAreGone(before, err))) throw await this.markGone(claim);
      throw err;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /**
   * A joining partial's first bytes: into the whole file's multipart upload at the part numbers its
   * place gives, or — placed nowhere (no `Hangar-Partial-Start`, a place S3's part rules refuse, a
   * group of another kind, a place another upload of the same name holds) — into a multipart upload
   * of its own, to be joined by a copy.
   */
  private async place(stored: StoredRecord, start: number | undefined): Promise<StoredRecord> {
    const { record } = stored;
    const joins = record.joins!;
    const firstPart = start === undefined ? undefined : firstPartAt(start, record.length, joins.size, this.storage.partPool.partSize);
    const group = firstPart === undefined ? undefined : await this.groupFor(record, joins);
    // A place another upload of the same name holds is not shared: this partial goes on its own.
    const claimed = group !== undefined && firstPart !== undefined && (await this.records.claimPlace(group, firstPart, record.id));
    let next: UploadRecord;
    if (group && firstPart !== undefined && claimed) {
      next = { ...record, objectKey: group.objectKey, multipartId: group.multipartId, placed: { start: start!, firstPart } };
    } else {
      next = { ...record, multipartId: await this.storage.beginMultipart(record.objectKey) };
      delete next.joins;
    }
    const replaced = await this.records.replace(next, stored.revision);
    if (replaced) return replaced;
    // Another request placed it first: its choice stands.
    if (!next.placed) await this.storage.abortIncompleteUpload(next.objectKey, next.multipartId!).catch(() => undefined);
    const now = await this.find(record.id, record.ownerId);
    if (!now.record.multipartId) throw new TusRefusal(409, 'The upload changed under this request; ask for its offset and resume');
    return now;
  }

  /** The group a partial joins, made by the first of its partials to arrive; undefined when it is another caller's kind or size. */
  private async groupFor(record: UploadRecord, joins: NonNullable<UploadRecord['joins']>): Promise<UploadGroup | undefined> {
    const now = this.now();
    const existing = await this.records.getGroup(joins.group);
    let group = existing && existing.expiresAt > now ? existing : undefined;
    if (!group) {
      const objectKey = `${KEY_PREFIX[record.purpose]}/${randomUUID()}`;
      const multipartId = await this.storage.beginMultipart(objectKey);
      const made: UploadGroup = { key: joins.group, ownerId: record.ownerId, purpose: record.purpose, size: joins.size, objectKey, multipartId, expiresAt: now + this.options.expiryMs };
      group = await this.records.createGroup(made, now);
      if (group.multipartId !== multipartId) await this.storage.abortIncompleteUpload(objectKey, multipartId).catch(() => undefined);
    }
    const fits = group.ownerId === record.ownerId && group.purpose === record.purpose && group.size === joins.size;
    return fits ? group : undefined;
  }

  /** Whether a failed write failed because the upload's parts are no longer in S3. */
  private async partsAreGone(record: UploadRecord, err: unknown): Promise<boolean> {
    if (isGoneFromStorage(err)) return true;
    // S3 may refuse a part for an aborted upload before reading its body and close the
    // connection, which the client sees as a reset, not as NoSuchUpload: so ask S3 itself.
    if (!record.multipartId) return false;
    return this.storage.listUploadedParts(record.objectKey, record.multipartId).then(() => false, isGoneFromStorage);
  }

  /**
   * The upload's bytes were removed under a request writing into it: its expiry ran out while
   * the body streamed and the janitor swept its parts (or its tail). Nothing of the request is
   * kept, and the upload is gone (410) for every later request too, not a storage failure (500).
   */
  private async markGone(claim: WriterClaim): Promise<TusRefusal> {
    this.hashes.forget(claim.record.id);
    await claim.finish((current) => ({ ...current, expiresAt: Math.min(current.expiresAt, this.now() - 1) })).catch(() => undefined);
    return new TusRefusal(410, 'Upload expired: its parts were removed from storage');
  }

  /** DELETE: the upload and every byte of it go (a build already made from it stays). */
  async terminate(id: string, ownerId: number): Promise<void> {
    await this.endLocalWriter(id);
    const { record } = await this.find(id, ownerId);
    await this.records.remove(id);
    this.hashes.forget(id);
    await this.discardBytes(record);
  }

  /**
   * Upload-Concat: final. The partials (the caller's, complete, not used by another final) become
   * an upload that is complete at once: placed partials by completing the one multipart upload
   * their bytes went into, others by a copy inside S3, or through the gateway when under 5 MiB.
   * Either way the joined file is read once for its SHA-256 (hashes of parts sent side by side
   * cannot be combined).
   */
  async concatenate(final: Omit<NewUpload, 'length' | 'concat'>, partIds: string[]): Promise<StoredRecord> {
    // A part named twice would be marked twice (the second mark fails on the first's revision),
    // leaving it marked for a final that never came to be: refused before anything is touched.
    const seen = new Set<string>();
    for (const partId of partIds) {
      if (seen.has(partId)) throw new TusRefusal(400, `Partial upload ${partId} is named more than once`);
      seen.add(partId);
    }
    const joined = await this.alreadyJoined(final.ownerId, partIds);
    if (joined) return joined;
    const partials: StoredRecord[] = [];
    for (const partId of partIds) {
      const part = await this.find(partId, final.ownerId).catch((err) => {
        throw err instanceof TusRefusal ? new TusRefusal(400, `Partial upload ${partId}: ${err.message}`) : err;
      });
      if (part.record.concat !== 'partial') throw new TusRefusal(400, `Upload ${partId} is not a partial upload`);
      if (!isComplete(part.record)) throw new TusRefusal(400, `Partial upload ${partId} is not complete`);
      if (part.record.usedBy) throw new TusRefusal(400, `Partial upload ${partId} is already part of another final upload`);
      partials.push(part);
    }
    const length = partials.reduce((sum, p) => sum + p.record.length, 0);
    if (length > this.options.maxBytes) throw new TusRefusal(413, `The parts add up to more than the limit of ${this.options.maxBytes} bytes`);
    const now = this.now();
    const record: UploadRecord = {
      id: randomBytes(18).toString('base64url'),
      ownerId: final.ownerId,
      purpose: final.purpose,
      channelKey: final.channelKey,
      fileName: final.fileName,
      length,
      offset: length,
      objectKey: `${KEY_PREFIX[final.purpose]}/${randomUUID()}`,
      parts: [],
      concat: 'final',
      createdAt: now,
      expiresAt: now + this.options.expiryMs,
    };
    // Before any mark: placed partials are joined only as the whole file, in its order.
    const inPlace = partials.some((p) => p.record.placed) ? placedInOrder(partials.map((p) => p.record)) : undefined;
    // Else S3 copies parts of 5 MiB or more; smaller ones cross the gateway.
    const copyInside = partials.every((p, i) => i === partials.length - 1 || p.record.length >= S3_MIN_PART) && length > 0;
    // Mark the partials first: two finals racing for one partial cannot both have it.
    const marked: StoredRecord[] = [];
    let created: StoredRecord;
    try {
      for (const part of partials) {
        const used = await this.records.replace({ ...part.record, usedBy: record.id }, part.revision);
        if (!used) throw new TusRefusal(409, `Partial upload ${part.record.id} changed while being joined; try again`);
        marked.push(part);
      }
      const sources = partials.map((p) => p.record.objectKey);
      if (inPlace) {
        // Placed partials are already the parts of one multipart upload: completing it joins them.
        await this.storage.completeMultipart(inPlace.objectKey, inPlace.multipartId, partials.flatMap((p) => p.record.parts));
        record.objectKey = inPlace.objectKey;
        record.sha256 = await this.hashObject(inPlace.objectKey);
      } else if (copyInside) {
        // The partials are read for the SHA-256 while S3 copies them, not after: the join then costs
        // the longer of the two, not their sum (measured on 1 GiB in four parts: see performance.md).
        const [sha256] = await Promise.all([this.hashObjects(sources), this.storage.concatenate(record.objectKey, sources)]);
        record.sha256 = sha256;
      } else {
        // Small parts cannot be copied inside S3: they are read once, hashed as they pass on.
        const hash = createHash('sha256');
        await this.storage.putStream(record.objectKey, this.joinedStream(sources, hash));
        record.sha256 = hash.digest('hex');
      }
      created = await this.records.create(record);
    } catch (err) {
      // The final never came to be: its parts are free again, for another final.
      await this.unmark(marked, record.id);
      throw err;
    }
    this.options.onJoin?.(inPlace ? 'in_place' : copyInside ? 'copy_in_s3' : 'through_gateway');
    if (inPlace) await this.records.remove(inPlace.group).catch(() => undefined);
    for (const part of partials) await this.discardBytes(part.record);
    return created;
  }

  /** Takes back the marks of a final that failed (best effort: a part left marked expires with its upload). */
  private async unmark(parts: StoredRecord[], finalId: string): Promise<void> {
    for (const part of parts) {
      try {
        const now = await this.records.get(part.record.id);
        if (now?.record.usedBy !== finalId) continue;
        const free: UploadRecord = { ...now.record };
        delete free.usedBy;
        await this.records.replace(free, now.revision);
      } catch {
        // Nothing more to do here: the caller already gets the join's own error.
      }
    }
  }

  /**
   * The same caller joining the same parts again — a client whose connection was lost while
   * the server joined them (tus-js-client asks again): the final upload those parts became, or
   * 423 while that join is still running. Parts of different finals, or not all joined, are not this.
   */
  private async alreadyJoined(ownerId: number, partIds: string[]): Promise<StoredRecord | undefined> {
    const finals = new Set<string>();
    let length = 0;
    for (const partId of partIds) {
      const stored = /^[A-Za-z0-9_-]{1,64}$/.test(partId) ? await this.records.get(partId) : undefined;
      if (!stored || stored.record.ownerId !== ownerId || !stored.record.usedBy) return undefined;
      finals.add(stored.record.usedBy);
      length += stored.record.length;
    }
    if (finals.size !== 1) return undefined;
    const [finalId] = finals;
    const final = await this.records.get(finalId!);
    if (!final) throw new TusRefusal(423, 'These parts are being joined by an earlier request; try again');
    // Every part of that final, not some of them.
    if (final.record.ownerId !== ownerId || final.record.concat !== 'final' || final.record.length !== length) return undefined;
    return final;
  }

  /**
   * The finishing call's claim: one request at a time turns a complete upload into a build;
   * a retry while it runs waits for its outcome, and a retry after it gets the same build.
   */
  async claimFinish(id: string, ownerId: number, purpose: UploadPurpose, waitMs: number): Promise<{ claimed: StoredRecord } | { done: NonNullable<UploadRecord['finish']> }> {
    const deadline = this.now() + waitMs;
    for (;;) {
      const stored = await this.find(id, ownerId).catch((err) => {
        if (err instanceof TusRefusal && err.message === DISCARDED) throw new FailedPrecondition(DISCARDED, { upload_id: ['was discarded: its SHA-256 did not match; upload the file again'] });
        if (err instanceof TusRefusal && err.status === 404) throw InvalidArgument.field('upload_id', 'is not an upload of yours');
        if (err instanceof TusRefusal && err.status === 410) throw new FailedPrecondition('The upload expired before it was finished', { upload_id: ['has expired'] });
        throw err;
      });
      const { record } = stored;
      if (record.purpose !== purpose) throw InvalidArgument.field('upload_id', `is an upload for a ${record.purpose.replace('_', ' ')}`);
      if (record.concat === 'partial') throw InvalidArgument.field('upload_id', 'is a partial upload: finish the final upload that joins the parts');
      if (!isComplete(record) && !record.direct) {
        throw new FailedPrecondition(`The upload is not complete: ${record.offset} of ${record.length} bytes received`, { upload_id: ['is not complete'] });
      }
      if (record.finish?.releaseId || record.finish?.debugFileId) return { done: record.finish };
      const claimedByOther = record.finish && this.now() - record.finish.claimedAt < waitMs;
      if (!claimedByOther) {
        const claimed = await this.records.replace({ ...record, finish: { claimedAt: this.now() } }, stored.revision);
        if (claimed) return { claimed: isComplete(record) ? claimed : await this.completeDirect(claimed) };
      }
      if (this.now() > deadline) throw new FailedPrecondition('The upload is being finished by another request', { upload_id: ['is being finished'] });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  async recordFinished(claim: StoredRecord, made: { releaseId?: number; debugFileId?: number }): Promise<void> {
    const finish = { claimedAt: claim.record.finish!.claimedAt, ...made };
    await this.records.replace({ ...claim.record, finish }, claim.revision);
  }

  /** The finishing call was refused: the upload may be finished again (with other fields). */
  async releaseClaim(claim: StoredRecord): Promise<void> {
    const { finish: _finish, ...rest } = claim.record;
    await this.records.replace(rest, claim.revision).catch(() => undefined);
  }

  /**
   * A finishing call whose checksum disagrees with the bytes: the bytes are no use to anyone. The
   * record is kept, marked, so the client's next finishing call (a retry, or the same call with
   * another checksum) is told the upload was discarded and why, not that it is not theirs.
   */
  async discard(claim: StoredRecord): Promise<void> {
    const { finish: _finish, ...rest } = claim.record;
    const marked = await this.records.replace({ ...rest, discarded: 'sha256-mismatch' }, claim.revision).catch(() => undefined);
    if (!marked) await this.records.remove(claim.record.id);
    this.hashes.forget(claim.record.id);
    await this.discardBytes(claim.record);
  }

  /**
   * Every part of a direct upload must be in S3 with its planned size; then the parts are joined
   * and the whole read back once for its SHA-256 (S3 keeps no full-object SHA-256 of a multipart
   * upload). A missing or short part is the client's to send again: nothing is joined.
   */
  private async completeDirect(claim: StoredRecord): Promise<StoredRecord> {
    const { record } = claim;
    const partSize = record.direct!.partSize;
    const expected = Math.ceil(record.length / partSize);
    const held = await this.storage.listUploadedParts(record.objectKey, record.multipartId!).catch(async (err: unknown) => {
      if (!isGoneFromStorage(err)) throw err;
      // Finished after its expiry, once the janitor had swept its parts.
      await this.releaseClaim(claim);
      throw new FailedPrecondition('The upload expired before it was finished', { upload_id: ['has expired'] });
    });
    const problems: string[] = [];
    for (let part = 1; part <= expected; part++) {
      const size = part < expected ? partSize : record.length - partSize * (expected - 1);
      const found = held.find((p) => p.part === part);
      if (!found) problems.push(`part ${part} is missing`);
      else if (found.size !== size) problems.push(`part ${part} has ${found.size} bytes, not ${size}`);
    }
    if (held.some((p) => p.part > expected)) problems.push(`parts past ${expected} were sent`);
    if (problems.length > 0) {
      await this.releaseClaim(claim);
      throw new FailedPrecondition(`The direct upload is not complete: ${problems.slice(0, 5).join('; ')}`, { upload_id: ['is not complete'] });
    }
    const parts = held.map(({ part, etag }) => ({ part, etag }));
    await this.storage.completeMultipart(record.objectKey, record.multipartId!, parts);
    const sha256 = await this.hashObject(record.objectKey);
    const completed = await this.records.replace({ ...record, parts, offset: record.length, sha256 }, claim.revision);
    if (!completed) throw new FailedPrecondition('The upload changed while being finished; try again', { upload_id: ['changed'] });
    return completed;
  }

  private async claimWriter(stored: StoredRecord): Promise<StoredRecord> {
    const writer = stored.record.writer;
    if (writer && this.now() - writer.beatAt < this.writerStaleMs) {
      throw new TusRefusal(423, 'Another request is writing into this upload; try again shortly');
    }
    const claimed = await this.records.replace({ ...stored.record, writer: { token: randomBytes(9).toString('base64url'), beatAt: this.now() } }, stored.revision);
    if (!claimed) throw new TusRefusal(423, 'Another request is writing into this upload; try again shortly');
    return claimed;
  }

  /** A new request for an upload this replica is still writing: the old one's client has given up on it. */
  private async endLocalWriter(id: string): Promise<void> {
    const writer = this.localWriters.get(id);
    if (!writer) return;
    writer.abort.abort();
    await writer.done;
  }

  private async discardBytes(record: UploadRecord): Promise<void> {
    if (record.finish?.releaseId || record.finish?.debugFileId) return; // the build owns the file now
    if (record.tail) await this.storage.delete(record.tail.key).catch(() => undefined);
    // A placed partial's parts are the whole file's: they go with that multipart upload (completed, or swept when it expires).
    if (record.placed) return;
    if (record.multipartId && !isComplete(record)) await this.storage.abortIncompleteUpload(record.objectKey, record.multipartId).catch(() => undefined);
    await this.storage.delete(record.objectKey).catch(() => undefined);
  }

  private hashObject(key: string): Promise<string> {
    return this.hashObjects([key]);
  }

  /** The SHA-256 of `keys` read end to end, as one file. */
  private async hashObjects(keys: readonly string[]): Promise<string> {
    const hash = createHash('sha256');
    for (const key of keys) for await (const chunk of await this.storage.getStream(key)) hash.update(chunk as Buffer);
    return hash.digest('hex');
  }

  private joinedStream(keys: string[], hash: Hash): Readable {
    const out = new PassThrough();
    void (async () => {
      try {
        for (const key of keys)
          for await (const chunk of await this.storage.getStream(key)) {
            hash.update(chunk as Buffer);
            if (!out.write(chunk)) await new Promise((r) => out.once('drain', r));
          }
        out.end();
      } catch (err) {
        out.destroy(err as Error);
      }
    })();
    return out;
  }
}

/**
 * The one multipart upload placed partials, named in this order, complete: all of one group, each
 * starting where the one before ended, from the file's first byte to its last. Else a 400: the
 * same parts may be sent again in the right order.
 */
function placedInOrder(partials: UploadRecord[]): { group: string; objectKey: string; multipartId: string } {
  const first = partials[0]!;
  const refuse = (why: string) => new TusRefusal(400, `These partial uploads were placed into one file as they arrived: ${why}`);
  let end = 0;
  for (const part of partials) {
    if (!part.placed || part.joins?.group !== first.joins?.group || part.multipartId !== first.multipartId) throw refuse('join them with each other alone, not with other uploads (where two uploads share a parallel_upload name, the first to reach a place keeps it: send the file again under a name of its own)');
    if (part.placed.start !== end) throw refuse(`name every one of them, in the order of their bytes in the file (a part starting at byte ${end} is missing)`);
    end += part.length;
  }
  if (end !== first.joins!.size) throw refuse(`the parts named end at byte ${end} of the file's ${first.joins!.size}`);
  return { group: first.joins!.group, objectKey: first.objectKey, multipartId: first.multipartId! };
}
