import { Readable } from 'node:stream';
import { Client, CopyDestinationOptions, CopySourceOptions } from 'minio';
import { DomainError, PayloadTooLarge, StorageFull, Unavailable, withCause } from '@hangar/errors';
import { Metrics, storageErrorsCounter } from '@hangar/metrics';
import { PartPool } from './part-pool';
import { isSourceFailure, multipartUpload } from './multipart-upload';
import { RangeReader, type RangeReaderOptions } from './range-reader';

export interface StorageConfig {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region?: string;
  /** The origin clients reach S3 at, when it differs from `endpoint`: presigned URLs are signed for it. */
  publicEndpoint?: string;
  /** Bytes per multipart part; S3 needs at least 5 MiB except for the last. */
  partSize?: number;
  /** Parts in flight at once per upload; with partSize, bounds memory. */
  partConcurrency?: number;
  /** Part buffers of all uploads of this process together (default 32 MiB, DEFAULT_UPLOAD_MEMORY_BYTES). */
  uploadMemoryBytes?: number;
  /**
   * Sign the parts of multipart uploads with UNSIGNED-PAYLOAD instead of the SHA-256 of each
   * part (default true). Over https the minio client does so anyway; over http it hashed every
   * part again only to sign it — a second SHA-256 pass over every uploaded byte in this process.
   * Turn it off when S3 is reached over a link that someone could alter bytes on.
   */
  unsignedParts?: boolean;
  /** Counts failed calls in hangar_storage_errors_total{operation}. */
  metrics?: Metrics;
}

export interface PutOptions {
  /** Refuse (and remove what was sent) past this many bytes. */
  maxBytes?: number;
  contentType?: string;
}

export interface StoredObject {
  key: string;
  size: number;
}

export interface ListedObject {
  key: string;
  size: number;
  lastModified: Date;
}

export interface IncompleteUpload {
  key: string;
  uploadId: string;
  /** When the multipart upload was begun. */
  initiated: Date;
}

/** A part of a multipart upload, as S3 needs it to complete the upload. */
export interface UploadedPart {
  part: number;
  etag: string;
}

export interface PresignOptions {
  /** Suggested file name for the browser's download. */
  fileName?: string;
  contentType?: string;
  /** When the URL is signed, which its expiry counts from (default now; tests: a URL signed in the past). */
  signedAt?: Date;
}

/** The part buffers of all uploads of a process together, unless `uploadMemoryBytes` says otherwise. */
export const DEFAULT_UPLOAD_MEMORY_BYTES = 32 * 1024 * 1024;

/**
 * S3-compatible object storage through the minio client. Streams go up in
 * parts we drive ourselves (see multipart-upload.ts) so memory stays at
 * partSize × (partConcurrency + 1) whatever the file size.
 */
export class ObjectStorage {
  readonly client: Client;
  /** Sends the parts of multipart uploads (unsigned payloads unless `unsignedParts: false`). */
  readonly partClient: Client;
  /** Signs URLs for clients: for the public endpoint when there is one (the signature covers the host). */
  private readonly presigner: Client;
  readonly bucket: string;
  private readonly partSize: number;
  private readonly partConcurrency: number;
  /** The part buffers every upload of this process fills (resumable uploads borrow them too). */
  readonly partPool: PartPool;
  private readonly errors?: ReturnType<typeof storageErrorsCounter>;

  constructor(config: StorageConfig) {
    this.client = minioClient(config.endpoint, config);
    this.presigner = config.publicEndpoint ? minioClient(config.publicEndpoint, config) : this.client;
    this.partClient = config.unsignedParts === false ? this.client : unsignedPayloadClient(config.endpoint, config);
    this.bucket = config.bucket;
    this.errors = config.metrics ? storageErrorsCounter(config.metrics) : undefined;
    this.partSize = config.partSize ?? 8 * 1024 * 1024;
    this.partConcurrency = config.partConcurrency ?? 2;
    // Every upload of the process fills its parts from this pool: uploadMemoryBytes bounds them all.
    // 32 MiB (four 8 MiB parts) by default: the gateway's peak RSS under uploads is its rest
    // plus this plus socket chunks awaiting collection; 96 MiB put it at 250–270 MiB.
    this.partPool = new PartPool(this.partSize, Math.max(1, Math.floor((config.uploadMemoryBytes ?? DEFAULT_UPLOAD_MEMORY_BYTES) / this.partSize)));
  }

  async ensureBucket(): Promise<void> {
    await this.guard('ensureBucket', async () => {
      if (!(await this.client.bucketExists(this.bucket))) {
        await this.client.makeBucket(this.bucket).catch(async (err: unknown) => {
          // Another replica created it first.
          if (!(await this.client.bucketExists(this.bucket))) throw err;
        });
      }
    });
  }

  /** Streams `source` to `key`. PayloadTooLarge past maxBytes; nothing is left behind on failure. */
  putStream(key: string, source: Readable, options: PutOptions = {}): Promise<StoredObject> {
    return this.guard('putStream', async () => {
      const size = await multipartUpload({
        client: this.client,
        partClient: this.partClient,
        bucket: this.bucket,
        key,
        source,
        partConcurrency: this.partConcurrency,
        maxBytes: options.maxBytes,
        contentType: options.contentType ?? 'application/octet-stream',
        pool: this.partPool,
      });
      return { key, size };
    });
  }

  putBuffer(key: string, data: Buffer, contentType = 'application/octet-stream'): Promise<StoredObject> {
    return this.guard('putBuffer', async () => {
      await this.client.putObject(this.bucket, key, data, data.length, { 'Content-Type': contentType });
      return { key, size: data.length };
    });
  }

  getStream(key: string): Promise<Readable> {
    return this.guard('getStream', () => this.client.getObject(this.bucket, key));
  }

  /** Reads part of an object: parsers fetch only what they need. */
  getRange(key: string, offset: number, length: number): Promise<Readable> {
    return this.guard('getRange', () => this.client.getPartialObject(this.bucket, key, offset, length));
  }

  /**
   * Opens `key` for positional reads through ranged GETs with a small block cache (see
   * RangeReader): a parser reads a zip's central directory and a few members, never the whole
   * object. Fails (NotFound from S3) when the object does not exist. Close it when done.
   */
  openRangeSource(key: string, options: Omit<RangeReaderOptions, 'mapError'> = {}): Promise<RangeReader> {
    return this.guard('openRangeSource', async () => {
      const { size } = await this.client.statObject(this.bucket, key);
      return new RangeReader(size, (offset, length) => this.client.getPartialObject(this.bucket, key, offset, length), {
        ...options,
        mapError: (err: unknown) => this.failed('rangeRead', err),
      });
    });
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.statObject(this.bucket, key);
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw this.failed('exists', err);
    }
  }

  /** Idempotent: deleting what is already gone succeeds. */
  delete(key: string): Promise<void> {
    return this.guard('delete', () => this.client.removeObject(this.bucket, key));
  }

  /** A server-side copy of `from` to `to` in this bucket (the orphan janitor's move to `trash/`). */
  copy(from: string, to: string): Promise<void> {
    return this.guard('copy', async () => {
      await this.client.copyObject(new CopySourceOptions({ Bucket: this.bucket, Object: from }), new CopyDestinationOptions({ Bucket: this.bucket, Object: to }));
    });
  }

  presignedGetUrl(key: string, expiresSeconds: number, options: PresignOptions = {}): Promise<string> {
    const response: Record<string, string> = {};
    if (options.fileName) response['response-content-disposition'] = contentDisposition(options.fileName);
    if (options.contentType) response['response-content-type'] = options.contentType;
    return this.guard('presignedGetUrl', () => this.presigner.presignedGetObject(this.bucket, key, expiresSeconds, response, options.signedAt));
  }

  async ping(): Promise<boolean> {
    try {
      await this.client.bucketExists(this.bucket);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The objects under `prefix`, one page (at most `pageSize`, ≤ 1000) at a time in key order:
   * memory holds a page whatever the bucket holds. For sweeps such as the orphan janitor.
   */
  async *listObjectPages(prefix: string, pageSize = 1000): AsyncGenerator<ListedObject[]> {
    let token = '';
    for (;;) {
      const page = await this.guard('listObjectPages', () => this.client.listObjectsV2Query(this.bucket, prefix, token, '', pageSize, ''));
      const objects: ListedObject[] = [];
      for (const item of page.objects) {
        if (item.name) objects.push({ key: item.name, size: item.size, lastModified: new Date(item.lastModified) });
      }
      if (objects.length > 0) yield objects;
      if (!page.isTruncated || !page.nextContinuationToken) return;
      token = page.nextContinuationToken;
    }
  }

  /**
   * Multipart uploads begun under `prefix` and neither completed nor aborted (a process killed
   * mid-upload leaves them, holding their parts), a page of up to 1000 at a time.
   */
  async *listIncompleteUploadPages(prefix: string): AsyncGenerator<IncompleteUpload[]> {
    let keyMarker = '';
    let uploadIdMarker = '';
    for (;;) {
      const page = await this.guard('listIncompleteUploadPages', () => this.client.listIncompleteUploadsQuery(this.bucket, prefix, keyMarker, uploadIdMarker, ''));
      const uploads = page.uploads.map((u) => ({ key: u.key, uploadId: String(u.uploadId), initiated: new Date(u.initiated) }));
      if (uploads.length > 0) yield uploads;
      const last = uploads[uploads.length - 1];
      if (!page.isTruncated || !last) return;
      // minio 8.0.7 never reads NextUploadIdMarker (it looks for a lowercase tag): continue after
      // the last upload seen, which S3 defines as the same (key, upload id) pair.
      keyMarker = page.nextKeyMarker || last.key;
      uploadIdMarker = last.key === keyMarker ? last.uploadId : '';
    }
  }

  /**
   * The steps of a multipart upload, for callers that drive one across several requests
   * (resumable uploads): begin, send numbered parts (every part but the last at least 5 MiB),
   * complete with the parts to keep — parts sent but not listed are dropped by S3.
   */
  beginMultipart(key: string, contentType = 'application/octet-stream'): Promise<string> {
    return this.guard('beginMultipart', () => this.client.initiateNewMultipartUpload(this.bucket, key, { 'Content-Type': contentType }));
  }

  uploadPart(key: string, uploadId: string, part: number, data: Buffer): Promise<UploadedPart> {
    return this.guard('uploadPart', async () => {
      const { etag } = await this.partClient.uploadPart({ bucketName: this.bucket, objectName: key, uploadID: uploadId, partNumber: part, headers: {} }, data);
      return { part, etag };
    });
  }

  completeMultipart(key: string, uploadId: string, parts: readonly UploadedPart[]): Promise<void> {
    return this.guard('completeMultipart', async () => {
      await this.client.completeMultipartUpload(this.bucket, key, uploadId, [...parts].sort((a, b) => a.part - b.part));
    });
  }

  /**
   * Copies `sources` end to end into `key` inside S3 (UploadPartCopy): no byte crosses this
   * process. Every source but the last must be at least 5 MiB (S3's smallest part).
   */
  concatenate(key: string, sources: readonly string[]): Promise<void> {
    return this.guard('concatenate', async () => {
      const uploadId = await this.client.initiateNewMultipartUpload(this.bucket, key, { 'Content-Type': 'application/octet-stream' });
      try {
        // A part with a copy-source header and no body is S3's UploadPartCopy. (minio's own
        // composeObject answers a failed copy with the abort's result instead of the error.)
        const copyPart = async (index: number): Promise<UploadedPart> => {
          const copied = await this.client.uploadPart({
            bucketName: this.bucket,
            objectName: key,
            uploadID: uploadId,
            partNumber: index + 1,
            headers: { 'x-amz-copy-source': `${this.bucket}/${sources[index]}` },
          }, undefined as unknown as Buffer);
          return { part: index + 1, etag: copied.etag };
        };
        // A few copies at once: S3 copies each on its own, and a client's many parts stay a bounded load.
        const parts = await mapBounded(sources.length, COPY_CONCURRENCY, copyPart);
        await this.client.completeMultipartUpload(this.bucket, key, uploadId, parts);
      } catch (err) {
        await this.client.abortMultipartUpload(this.bucket, key, uploadId).catch(() => undefined);
        throw err;
      }
    });
  }

  /** Whether presigned URLs are made for a public endpoint clients reach (S3_PUBLIC_ENDPOINT). */
  get signsForPublicEndpoint(): boolean {
    return this.presigner !== this.client;
  }

  /** A URL the client PUTs one part of a multipart upload to, straight into S3. */
  presignedPartUrl(key: string, uploadId: string, part: number, expiresSeconds: number): Promise<string> {
    return this.guard('presignedPartUrl', () => this.presigner.presignedUrl('PUT', this.bucket, key, expiresSeconds, { partNumber: String(part), uploadId }));
  }

  /** The parts S3 holds for a multipart upload, in part order. */
  listUploadedParts(key: string, uploadId: string): Promise<(UploadedPart & { size: number })[]> {
    return this.guard('listUploadedParts', async () => {
      // listParts is public in minio's JavaScript, protected only in its typings.
      const parts = await (this.client as unknown as { listParts(b: string, k: string, u: string): Promise<{ part: number; etag: string; size: number }[]> }).listParts(this.bucket, key, uploadId);
      return parts.map((p) => ({ part: p.part, etag: p.etag, size: p.size })).sort((a, b) => a.part - b.part);
    });
  }

  /** The object's size in bytes; NotFound when it does not exist. */
  size(key: string): Promise<number> {
    return this.guard('size', async () => (await this.client.statObject(this.bucket, key)).size);
  }

  /** Aborts a multipart upload, dropping its parts. Idempotent: an upload already gone is success. */
  async abortIncompleteUpload(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.abortMultipartUpload(this.bucket, key, uploadId);
    } catch (err) {
      if ((err as { code?: string })?.code === 'NoSuchUpload') return;
      throw this.failed('abortIncompleteUpload', err);
    }
  }

  private async guard<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw this.failed(operation, err);
    }
  }

  /** The error callers see (toStorageError), counted when storage itself failed. */
  private failed(operation: string, err: unknown): Error {
    const mapped = toStorageError(err);
    if (isStorageFailure(err, mapped)) this.errors?.inc({ operation });
    return mapped;
  }
}

/** `attachment; filename="…"` with an RFC 5987 form for non-ASCII names. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * Storage itself failing (unreachable, 5xx, credentials refused), as opposed to
 * what was asked for: a missing object, an over-size upload, a client whose
 * upload stream broke.
 */
function isStorageFailure(original: unknown, mapped: Error): boolean {
  if (mapped instanceof Unavailable || mapped instanceof StorageFull) return true;
  return !(mapped instanceof DomainError) && !isSourceFailure(original) && !isGoneFromStorage(original);
}

/**
 * What was asked for is no longer in S3: a multipart upload aborted (NoSuchUpload) or an
 * object removed (NoSuchKey). For an unfinished upload this is its expiry having run out and
 * the janitor having swept its parts — the client's upload is gone, not storage failing.
 */
export function isGoneFromStorage(err: unknown): boolean {
  return (err as { code?: string })?.code === 'NoSuchUpload' || isNotFound(err);
}

function isNotFound(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return code === 'NotFound' || code === 'NoSuchKey';
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN']);

/** Storage outages are 503s; our own domain errors pass through. */
export function toStorageError(err: unknown): Error {
  if (err instanceof DomainError) return err;
  // A dropped upload connection (ECONNRESET from the source) is the client's
  // problem, not a storage outage: keep it as it is.
  if (isSourceFailure(err)) return err as Error;
  const code = (err as { code?: string })?.code;
  if (code && NETWORK_CODES.has(code)) return withCause(new Unavailable('Object storage is unavailable, try again shortly'), err);
  if (isStorageFull(err)) return withCause(new StorageFull(), err);
  return err instanceof Error ? err : new Error(String(err));
}

/** S3 codes for a store with no room left: versitygw (a full disk under it), AWS, MinIO. */
const STORAGE_FULL_CODES = new Set(['InsufficientStorage', 'XMinioStorageFull', 'StorageFull']);

/**
 * S3 out of room: its code, or a disk error passed through in its text (`No space left on
 * device`, ENOSPC). It was answered as a malformed body (400), which told CI not to retry.
 */
export function isStorageFull(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (STORAGE_FULL_CODES.has(code) || code === 'ENOSPC')) return true;
  return typeof message === 'string' && /no space left on device|\bENOSPC\b/i.test(message);
}

export { PayloadTooLarge };

/** The storage settings every service reads (`storageFields` of @hangar/config). */
export interface StorageEnvironment {
  S3_ENDPOINT: string;
  S3_PUBLIC_ENDPOINT?: string;
  S3_ACCESS_KEY: string;
  S3_SECRET_KEY: string;
  S3_BUCKET: string;
  S3_REGION: string;
  S3_UNSIGNED_PARTS?: boolean;
  UPLOAD_MEMORY_BYTES?: number;
}

/** Connects to the configured bucket, creating it on first use. */
export async function openStorage(config: StorageEnvironment, metrics?: Metrics): Promise<ObjectStorage> {
  const storage = new ObjectStorage({
    metrics,
    endpoint: config.S3_ENDPOINT,
    accessKey: config.S3_ACCESS_KEY,
    secretKey: config.S3_SECRET_KEY,
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
    ...(config.S3_UNSIGNED_PARTS === false ? { unsignedParts: false } : {}),
    ...(config.UPLOAD_MEMORY_BYTES ? { uploadMemoryBytes: config.UPLOAD_MEMORY_BYTES } : {}),
    ...(config.S3_PUBLIC_ENDPOINT ? { publicEndpoint: config.S3_PUBLIC_ENDPOINT } : {}),
  });
  await storage.ensureBucket();
  return storage;
}

/**
 * A client whose requests carry x-amz-content-sha256: UNSIGNED-PAYLOAD, as minio's own client
 * does over https: the signature covers the request but not the body, so a part is not hashed
 * just to be signed. minio 8 decides this by its `enableSHA256` field alone (set from useSSL);
 * storage's tests check the header S3 receives, so a minio that stops reading it is noticed.
 */
function unsignedPayloadClient(endpoint: string, config: StorageConfig): Client {
  const client = minioClient(endpoint, config);
  const fields = client as unknown as { enableSHA256: boolean };
  if (typeof fields.enableSHA256 !== 'boolean') throw new Error('this minio client has no enableSHA256 field: unsigned parts cannot be turned on');
  fields.enableSHA256 = false;
  return client;
}

function minioClient(endpoint: string, config: StorageConfig): Client {
  const url = new URL(endpoint);
  return new Client({
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    useSSL: url.protocol === 'https:',
    accessKey: config.accessKey,
    secretKey: config.secretKey,
    region: config.region ?? 'us-east-1',
    pathStyle: true,
  });
}

/** UploadPartCopy requests in flight for one concatenation. */
const COPY_CONCURRENCY = 4;

/** `work(0..count-1)` with at most `limit` running at once; results in index order. */
async function mapBounded<T>(count: number, limit: number, work: (index: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < count; index = next++) results[index] = await work(index);
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return results;
}
