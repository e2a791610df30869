import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import type { DetailedError as TusDetailedError, FileReader, FileSource, HttpRequest, HttpResponse, HttpStack, Upload as TusUpload, UploadOptions } from 'tus-js-client';
import { ApiError, NetworkError, httpFor } from './api-client';
import { pumpFileRange, type FileDigest } from './file-pump';
import { ResumeStore, resumeFingerprint } from './resume-store';

/**
 * tus-js-client's protocol engine only (creation, offsets, retries, resume, parallel parts and
 * their concatenation), without its Node entry point: that one loads a file-locking URL storage
 * and stream sources this CLI replaces, a quarter of the CLI's start-up CPU.
 */
const tusUpload = () => (require('tus-js-client/lib.es5/upload.js') as { default: typeof TusUpload & { defaultOptions: UploadOptions } }).default;
const tusDetailedError = () => (require('tus-js-client/lib.es5/error.js') as { default: typeof TusDetailedError }).default;

export interface ResumableUploadOptions {
  file: string;
  size: number;
  /** What resume state is kept by (`contentSample`): the whole file's SHA-256 is still being computed. */
  contentSample: string;
  /** The whole file's SHA-256, fed with the bytes as they are read to be sent. */
  digest: FileDigest;
  /** The server's base URL; the tus endpoint is `/api/uploads` under it. */
  baseUrl: string;
  headers: Record<string, string>;
  metadata: Record<string, string>;
  store: ResumeStore;
  /** Parts sent at once, each its own tus upload, concatenated by the server. */
  parallel: number;
  /** Largest PATCH body: bounds what a cut connection can cost. */
  chunkSize: number;
  retryDelaysMs: number[];
  onProgress?: (sent: number, total: number) => void;
  /** Said once when earlier bytes are found on the server. */
  onResume?: (detail: string) => void;
  onRetry?: (reason: string) => void;
}

export interface SentUpload {
  uploadId: string;
  fingerprint: string;
  /** Bytes an earlier run sent are part of it (all or some): they may be of another file with the same sample. */
  resumed: boolean;
}

export const uploadsEndpoint = (baseUrl: string) => `${baseUrl}/api/uploads`;

/** `upload_id` of the finishing call: the last path segment of the final upload's URL. */
export function uploadIdOf(uploadUrl: string): string {
  const segments = new URL(uploadUrl).pathname.split('/').filter(Boolean);
  const id = segments.at(-1);
  if (!id) throw new Error(`the server answered an upload URL without an id: ${uploadUrl}`);
  return decodeURIComponent(id);
}

/** A tus error as the user should read it: the server's own `error`, else its body, else the cause. */
export function describeTusError(err: unknown): Error {
  const DetailedError = tusDetailedError();
  if (err instanceof DetailedError && err.originalResponse) {
    const status = err.originalResponse.getStatus();
    const body = err.originalResponse.getBody() ?? '';
    let message = body.trim();
    try {
      const parsed = JSON.parse(body) as { error?: unknown };
      if (typeof parsed.error === 'string') message = parsed.error;
    } catch {
      // tus answers are often plain text
    }
    return new ApiError(status, message || `the server answered ${status}`);
  }
  if (err instanceof DetailedError) return new NetworkError(err.causingError?.message ?? err.message, err);
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * Sends the file over tus 1.0 and resolves with the final upload's id. State
 * is kept under the fingerprint (content + size + server), so a run after a
 * kill resumes each part from the offset the server reports; once every byte
 * is there, that is recorded too, and a later run only repeats the finishing call.
 */
export async function sendResumable(options: ResumableUploadOptions): Promise<SentUpload> {
  const endpoint = uploadsEndpoint(options.baseUrl);
  const fingerprint = resumeFingerprint(options.contentSample, options.size, endpoint);
  const finished = options.store.finishedUploadId(fingerprint);
  if (finished) {
    options.onResume?.('every byte was sent by an earlier run; finishing it');
    options.onProgress?.(options.size, options.size);
    return { uploadId: finished, fingerprint, resumed: true };
  }

  // A part below a few MiB buys nothing but requests.
  const parallel = alignedParts(options.size, Math.max(1, Math.min(options.parallel, Math.floor(options.size / (5 * 1024 * 1024)) || 1))).length;
  // Only the first part's bytes come in the file's order: with more, the hash reads the rest itself, beside them.
  if (parallel > 1) void options.digest.complete();
  // tus-js-client retries each request but one: the POST joining parallel parts, whose lost
  // answer ends the upload. Another round resumes from the stored part URLs and joins again.
  let uploadUrl: string | undefined;
  let resumed = false;
  const onResume = (detail: string) => {
    resumed = true;
    options.onResume?.(detail);
  };
  for (let round = 0; uploadUrl === undefined; round++) {
    try {
      uploadUrl = await sendOnce({ ...options, onResume }, endpoint, fingerprint, parallel);
    } catch (err) {
      const delay = OUTER_RETRY_DELAYS_MS[round];
      if (delay === undefined || !worthAnotherRound(err)) throw err;
      options.onRetry?.(`${(err as Error).message}; resuming the upload`);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
  const uploadId = uploadIdOf(uploadUrl);
  options.store.markFinished(fingerprint, uploadId);
  return { uploadId, fingerprint, resumed };
}

const OUTER_RETRY_DELAYS_MS = [1_000, 3_000, 10_000, 30_000];

/** A lost connection or a server briefly unable: yes; a refusal: no. */
function worthAnotherRound(err: unknown): boolean {
  if (err instanceof ApiError) return err.status >= 500 || err.status === 409 || err.status === 423 || err.status === 429;
  return true;
}

function sendOnce(options: ResumableUploadOptions, endpoint: string, fingerprint: string, parallel: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    // Parallel parts name the upload they are part of and the file's size, and each part's requests
    // say where its bytes start (PumpingRequest): the server writes them straight into the whole
    // file, and joins them without a copy. The name is kept with the resume state (tus stores the
    // metadata), so parts a later run sends join the parts an earlier one left.
    const metadata = parallel > 1 ? { ...options.metadata, parallel_upload: randomBytes(16).toString('base64url'), parallel_size: String(options.size) } : options.metadata;
    // Parts carry only what the server needs to accept bytes for this caller.
    const partialMetadata = Object.fromEntries(Object.entries(metadata).filter(([k]) => k !== 'filename'));
    const tusOptions: UploadOptions = {
      endpoint,
      headers: options.headers,
      metadata,
      metadataForPartialUploads: partialMetadata,
      chunkSize: options.chunkSize,
      parallelUploads: parallel,
      parallelUploadBoundaries: parallel > 1 ? alignedParts(options.size, parallel) : null,
      retryDelays: options.retryDelaysMs,
      fingerprint: async () => fingerprint,
      urlStorage: options.store,
      storeFingerprintForResuming: true,
      // Removed after the finishing call instead: a kill between the two must not lose the bytes.
      removeFingerprintOnSuccess: false,
      onProgress: (sent, total) => options.onProgress?.(sent, total),
      onShouldRetry: (err) => {
        const status = err.originalResponse?.getStatus() ?? 0;
        const retry = status === 0 || status >= 500 || status === 409 || status === 423 || status === 429;
        if (retry) options.onRetry?.(status ? `the server answered ${status}` : (err.causingError?.message ?? err.message));
        return retry;
      },
      onSuccess: () => (upload.url ? resolve(upload.url) : reject(new Error('the upload finished without a URL'))),
      onError: (err) => reject(describeTusError(err)),
      fileReader: FILE_RANGES,
      httpStack: new PumpingHttpStack(options.digest),
    };
    const Upload = tusUpload();
    // tus-js-client hands its input only to the fileReader above, which takes a FileRange.
    const upload = new Upload(new FileRange(options.file, 0, options.size) as unknown as Buffer, { ...Upload.defaultOptions, ...tusOptions });
    upload
      .findPreviousUploads()
      .then((previous) => {
        const last = previous.at(-1);
        if (last) {
          options.onResume?.(`resuming an upload started ${last.creationTime}`);
          const earlierName = last.metadata?.parallel_upload;
          const earlierParts = last.parallelUploadUrls?.length ?? 0;
          if (earlierName && metadata.parallel_upload && earlierParts === parallel) {
            metadata.parallel_upload = partialMetadata.parallel_upload = earlierName;
          } else if (earlierParts > 1) {
            // Parts an earlier CLI (or another --parallel) cut: tus-js-client's own even split, as that run had.
            upload.options.parallelUploads = earlierParts;
            upload.options.parallelUploadBoundaries = null;
            delete metadata.parallel_upload;
            delete partialMetadata.parallel_upload;
          }
          upload.resumeFromPreviousUpload(last);
        }
        upload.start();
      })
      .catch(reject);
  });
}

/** Where parallel parts' bytes go in the server's S3 parts: the part size of a gateway as shipped. */
const PART_ALIGNMENT = 8 * 1024 * 1024;

/**
 * At most `count` parts of a file, each but the last a whole number of gateway parts, so each goes
 * into the whole file's S3 multipart upload as it is (a part ending mid-S3-part would have to be
 * joined by a copy): the whole blocks shared out as evenly as they go, the last part taking the
 * bytes after them. Fewer parts when the file has fewer blocks than that.
 */
export function alignedParts(size: number, count: number): { start: number; end: number }[] {
  const blocks = Math.floor(size / PART_ALIGNMENT);
  const rest = size - blocks * PART_ALIGNMENT;
  const n = Math.max(1, Math.min(count, blocks + (rest > 0 ? 1 : 0)));
  const parts: { start: number; end: number }[] = [];
  let start = 0;
  for (let i = 0; i < n; i++) {
    // With fewer blocks than parts, each block is a part and the rest the last one.
    const take = blocks < n ? 1 : Math.floor(blocks / n) + (i < blocks % n ? 1 : 0);
    const end = i === n - 1 ? size : start + take * PART_ALIGNMENT;
    parts.push({ start, end });
    start = end;
  }
  return parts;
}

/** Bytes `start`…`end` of a file: what tus-js-client slices and hands to the HTTP stack as a body. */
class FileRange {
  constructor(
    readonly file: string,
    readonly start: number,
    readonly end: number,
  ) {}

  /** tus-js-client reads a body's length from `size`. */
  get size(): number {
    return this.end - this.start;
  }
}

/** The file as tus-js-client's source: slices are ranges, read only when the request body is written. */
const FILE_RANGES: FileReader = {
  async openFile(input: unknown): Promise<FileSource> {
    if (!(input instanceof FileRange)) throw new Error('tus: this source is only a FileRange');
    return {
      size: input.size,
      slice: async (start: number, end: number) => {
        const range = new FileRange(input.file, input.start + start, Math.min(input.end, input.start + end));
        return { value: range, done: range.end >= input.end };
      },
      close: () => undefined,
    };
  },
};

/**
 * node:http for tus-js-client, writing a FileRange body with `pumpFileRange` (1 MiB pieces in
 * reused buffers, each given to the digest as it goes out) instead of tus-js-client's own stack,
 * which piped a 64 KiB-read stream through a Transform per request.
 */
class PumpingHttpStack implements HttpStack {
  constructor(private readonly digest: FileDigest) {}

  createRequest(method: string, url: string): HttpRequest {
    return new PumpingRequest(method, url, this.digest);
  }

  getName(): string {
    return 'hangar-cli';
  }
}

class PumpingRequest implements HttpRequest {
  private readonly headers: Record<string, string> = {};
  private onProgress: (bytesSent: number) => void = () => undefined;
  private request: http.ClientRequest | undefined;

  constructor(
    private readonly method: string,
    private readonly url: string,
    private readonly digest: FileDigest,
  ) {}

  getMethod(): string {
    return this.method;
  }

  getURL(): string {
    return this.url;
  }

  setHeader(header: string, value: string): void {
    this.headers[header] = value;
  }

  getHeader(header: string): string | undefined {
    return this.headers[header];
  }

  setProgressHandler(handler: (bytesSent: number) => void): void {
    this.onProgress = handler;
  }

  send(body: unknown): Promise<HttpResponse> {
    return new Promise<HttpResponse>((resolve, reject) => {
      const target = new URL(this.url);
      const headers: Record<string, string> = { ...this.headers };
      if (body instanceof FileRange) {
        headers['Content-Length'] = String(body.size);
        // A part's first bytes place it in the whole file (the server reads it when the part names its upload).
        if (headers['Upload-Concat'] === 'partial') headers['Hangar-Partial-Start'] = String(body.start - Number(headers['Upload-Offset'] ?? 0));
      }
      const request = httpFor(target).request(target, { method: this.method, headers });
      this.request = request;
      request.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve(new PlainResponse(res, Buffer.concat(chunks).toString('utf8'))));
        res.on('error', reject);
      });
      request.on('error', reject);
      if (body instanceof FileRange) {
        let sent = 0;
        void pumpFileRange(body.file, body.start, body.end, request, {
          digest: this.digest,
          onBytes: (n) => this.onProgress((sent += n)),
        });
      } else request.end();
    });
  }

  async abort(): Promise<void> {
    this.request?.destroy();
  }

  getUnderlyingObject(): unknown {
    return this.request;
  }
}

class PlainResponse implements HttpResponse {
  constructor(
    private readonly res: http.IncomingMessage,
    private readonly body: string,
  ) {}

  getStatus(): number {
    return this.res.statusCode ?? 0;
  }

  getHeader(header: string): string | undefined {
    const value = this.res.headers[header.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  getBody(): string {
    return this.body;
  }

  getUnderlyingObject(): unknown {
    return this.res;
  }
}
