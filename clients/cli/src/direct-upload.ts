import { ApiError, NetworkError, httpFor, type ApiClient } from './api-client';
import type { DirectUpload } from './api-types';
import { pumpFileRange, type FileDigest } from './file-pump';
import { ResumeStore, resumeFingerprint, type DirectState } from './resume-store';
import type { SentUpload } from './resumable-upload';

export interface DirectUploadOptions {
  api: ApiClient;
  file: string;
  size: number;
  /** What resume state is kept by (`contentSample`): the whole file's SHA-256 is still being computed. */
  contentSample: string;
  /** The whole file's SHA-256, fed with the bytes as they are read to be sent. */
  digest: FileDigest;
  metadata: { filename: string; purpose: string; channel_key?: string };
  store: ResumeStore;
  parallel: number;
  retryDelaysMs: number[];
  onProgress?: (sent: number) => void;
  onResume?: (detail: string) => void;
  onRetry?: (reason: string) => void;
}

/** A part URL this close to expiry is not worth starting on: ask for new ones. */
const EXPIRY_MARGIN_MS = 5 * 60_000;

/**
 * PUTs bytes `offset`…`offset+length` of the file to a presigned URL, a piece at a time so
 * progress can be reported as S3 takes them (`pumpFileRange`: a few reused 1 MiB buffers).
 */
function putPart(url: string, file: string, offset: number, length: number, digest: FileDigest, onBytes: (n: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const request = httpFor(target).request(target, { method: 'PUT', headers: { 'Content-Length': String(length) } });
    request.on('error', (err) => reject(new NetworkError(`S3 part upload: ${err.message}`, err)));
    request.on('response', (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => {
        if (res.statusCode && res.statusCode >= 200 && res.statusCode < 300) resolve();
        else {
          const code = /<Code>([^<]+)<\/Code>/.exec(body)?.[1];
          reject(new ApiError(res.statusCode ?? 0, `S3 refused part at offset ${offset}: ${res.statusCode}${code ? ` ${code}` : ''}`));
        }
      });
      res.on('error', (err) => reject(new NetworkError(`S3 part upload: ${err.message}`, err)));
    });
    void pumpFileRange(file, offset, offset + length, request, { digest, onBytes });
  });
}

const retriable = (err: unknown) => err instanceof NetworkError || (err instanceof ApiError && (err.status >= 500 || err.status === 408 || err.status === 429));

/**
 * The bytes go to S3 through the part URLs the server hands out (`S3_PUBLIC_ENDPOINT`); the
 * gateway only signs and, at the finishing call, checks and joins. Resolves `unavailable`
 * when the server offers no direct uploads. Parts S3 took are remembered, so a rerun after a
 * kill sends only the others while their URLs are valid.
 */
export async function sendDirect(options: DirectUploadOptions): Promise<SentUpload | 'unavailable'> {
  const { api, store } = options;
  const fingerprint = resumeFingerprint(options.contentSample, options.size, `${api.baseUrl}/api/direct_uploads`);
  const finished = store.finishedUploadId(fingerprint);
  if (finished) {
    options.onResume?.('every byte was sent by an earlier run; finishing it');
    options.onProgress?.(options.size);
    return { uploadId: finished, fingerprint, resumed: true };
  }

  let state = store.directState(fingerprint);
  const resumed = state !== undefined && Date.parse(state.expiresAt) - Date.now() > EXPIRY_MARGIN_MS;
  if (state && resumed) {
    options.onResume?.(`resuming a direct upload: ${state.done.length} of ${state.parts.length} parts are in S3`);
  } else {
    let begun: DirectUpload;
    try {
      begun = await api.postJson<DirectUpload>('/api/direct_uploads', { ...options.metadata, length: String(options.size) });
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return 'unavailable';
      throw err;
    }
    state = { uploadId: begun.upload_id, expiresAt: begun.expires_at, parts: begun.parts, done: [] };
    store.saveDirect(fingerprint, state);
  }

  const current = state;
  const done = new Set(current.done);
  let sent = current.parts.filter((p) => done.has(p.part_number)).reduce((n, p) => n + p.length, 0);
  options.onProgress?.(sent);
  const queue = current.parts.filter((p) => !done.has(p.part_number));
  // Parts go out side by side, so only the first comes in the file's order: the hash reads the rest itself, beside them.
  if (options.parallel > 1 && queue.length > 1) void options.digest.complete();
  // Bytes of the parts in flight: progress is the finished parts plus these.
  const inFlight = new Map<number, number>();
  const report = () => options.onProgress?.(sent + [...inFlight.values()].reduce((a, b) => a + b, 0));
  const worker = async () => {
    for (let part = queue.shift(); part; part = queue.shift()) {
      const number = part.part_number;
      for (let attempt = 0; ; attempt++) {
        inFlight.set(number, 0);
        try {
          await putPart(part.url, options.file, part.offset, part.length, options.digest, (n) => {
            inFlight.set(number, (inFlight.get(number) ?? 0) + n);
            report();
          });
          inFlight.delete(number);
          sent += part.length;
          done.add(number);
          store.saveDirect(fingerprint, { ...current, done: [...done] });
          break;
        } catch (err) {
          inFlight.delete(number);
          report();
          const delay = options.retryDelaysMs[attempt];
          if (!retriable(err) || delay === undefined) throw err;
          options.onRetry?.((err as Error).message);
          await new Promise((r) => setTimeout(r, delay));
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.parallel, queue.length)) }, worker));
  store.markFinished(fingerprint, current.uploadId);
  return { uploadId: current.uploadId, fingerprint, resumed };
}
