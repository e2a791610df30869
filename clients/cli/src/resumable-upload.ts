import fs from 'node:fs';
import { DetailedError, Upload, type UploadOptions } from 'tus-js-client';
import { ApiError, NetworkError } from './api-client';
import { ResumeStore, resumeFingerprint } from './resume-store';

export interface ResumableUploadOptions {
  file: string;
  size: number;
  /** What resume state is kept by (`contentSample`): the whole file's SHA-256 is still being computed. */
  contentSample: string;
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
  const parallel = Math.max(1, Math.min(options.parallel, Math.floor(options.size / (5 * 1024 * 1024)) || 1));
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
    const tusOptions: UploadOptions = {
      endpoint,
      headers: options.headers,
      metadata: options.metadata,
      // Parts carry only what the server needs to accept bytes for this caller.
      metadataForPartialUploads: Object.fromEntries(Object.entries(options.metadata).filter(([k]) => k !== 'filename')),
      chunkSize: options.chunkSize,
      parallelUploads: parallel,
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
    };
    const upload = new Upload(fs.createReadStream(options.file) as unknown as Buffer, tusOptions);
    upload
      .findPreviousUploads()
      .then((previous) => {
        const last = previous.at(-1);
        if (last) {
          options.onResume?.(`resuming an upload started ${last.creationTime}`);
          upload.resumeFromPreviousUpload(last);
        }
        upload.start();
      })
      .catch(reject);
  });
}
