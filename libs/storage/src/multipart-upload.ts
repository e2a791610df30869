import { Readable } from 'node:stream';
import type { Client } from 'minio';
import { PayloadTooLarge } from '@hangar/errors';
import type { PartPool } from './part-pool';

export interface MultipartUploadOptions {
  client: Client;
  /** Sends the parts (it may sign them with UNSIGNED-PAYLOAD); `client` when absent. */
  partClient?: Client;
  bucket: string;
  key: string;
  source: Readable;
  partConcurrency: number;
  maxBytes?: number;
  contentType: string;
  /** The process-wide part buffers every upload fills; their size is the part size. */
  pool: PartPool;
}

/**
 * Errors that came from the source stream (the uploading client went away),
 * not from S3: the caller must not report them as storage outages even when
 * they carry a network code such as ECONNRESET.
 */
const sourceFailures = new WeakSet<object>();

export function isSourceFailure(err: unknown): boolean {
  return typeof err === 'object' && err !== null && sourceFailures.has(err);
}

/**
 * Uploads a stream of unknown length with bounded memory. The minio client's
 * own putObject assumes 5 TiB for unknown sizes and buffers 528 MiB parts one
 * at a time; here one pooled part buffer fills while up to `partConcurrency`
 * parts upload, and the stream is not read further until a slot and a buffer
 * are free (backpressure to the socket). A stream that fits in one part
 * becomes a single PUT. Any failure — the source erroring (client gone), the
 * size limit, S3 — aborts the multipart upload so no partial object or orphan
 * parts remain. Returns the byte count.
 */
export async function multipartUpload(options: MultipartUploadOptions): Promise<number> {
  const { client, bucket, key, source, maxBytes, contentType, pool } = options;
  const partClient = options.partClient ?? client;
  const partSize = pool.partSize;
  // 0 would wait forever for a free slot.
  const partConcurrency = Math.max(1, Math.floor(options.partConcurrency));
  // The pooled buffer being filled, and how much of it is filled. Bytes are
  // copied in as they arrive, so socket chunks are garbage at once and no part
  // is ever joined into a second buffer.
  let part: Buffer | undefined;
  let filled = 0;
  let uploadId: string | undefined;
  let total = 0;
  let partNumber = 0;
  const inFlight = new Set<Promise<void>>();
  const etags: { part: number; etag: string }[] = [];
  // A flag, not the error's truthiness: a rejection with a falsy reason must
  // still stop the upload instead of completing it without that part.
  let failed = false;
  let failure: unknown;

  /** Hands the filled buffer to a part upload, which gives it back to the pool when done. */
  const sendPart = async (): Promise<void> => {
    const buffer = part!;
    const data = buffer.subarray(0, filled);
    part = undefined;
    filled = 0;
    try {
      // Wait for a slot before starting, not after: once this returns, up to
      // partConcurrency parts upload while the next one fills (waiting after
      // starting left only partConcurrency - 1 overlapping with reading, none at 1).
      while (inFlight.size >= partConcurrency && !failed) await Promise.race(inFlight);
      if (failed) throw failure;
      uploadId ??= await client.initiateNewMultipartUpload(bucket, key, { 'Content-Type': contentType });
    } catch (err) {
      // The part never started: its buffer goes back now.
      pool.release(buffer);
      throw err;
    }
    const number = ++partNumber;
    const task = partClient
      .uploadPart({ bucketName: bucket, objectName: key, uploadID: uploadId, partNumber: number, headers: {} }, data)
      .then(({ etag }) => {
        etags.push({ part: number, etag });
      })
      .catch((err: unknown) => {
        if (!failed) failure = err;
        failed = true;
      });
    const tracked = task.finally(() => {
      inFlight.delete(tracked);
      pool.release(buffer);
    });
    inFlight.add(tracked);
  };

  const chunks = (source as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<Buffer>;
      try {
        next = await chunks.next();
      } catch (err) {
        if (typeof err === 'object' && err !== null) sourceFailures.add(err);
        throw err;
      }
      if (next.done) break;
      const chunk = next.value;
      total += chunk.length;
      if (maxBytes !== undefined && total > maxBytes) {
        throw new PayloadTooLarge(`File is larger than the limit of ${maxBytes} bytes`);
      }
      let offset = 0;
      while (offset < chunk.length) {
        part ??= await pool.acquire();
        const copied = chunk.copy(part, filled, offset);
        filled += copied;
        offset += copied;
        if (filled === partSize) await sendPart();
      }
    }

    if (uploadId === undefined && partNumber === 0) {
      // Fits in one part (or is empty): a single PUT.
      const buffer = part;
      part = undefined;
      try {
        const data = buffer ? buffer.subarray(0, filled) : Buffer.alloc(0);
        await client.putObject(bucket, key, data, data.length, { 'Content-Type': contentType });
      } finally {
        if (buffer) pool.release(buffer);
      }
      return total;
    }
    if (part && filled > 0) await sendPart();
    await Promise.all(inFlight);
    if (failed) throw failure;
    etags.sort((a, b) => a.part - b.part);
    await client.completeMultipartUpload(bucket, key, uploadId!, etags);
    return total;
  } catch (err) {
    await Promise.allSettled(inFlight);
    if (uploadId) await client.abortMultipartUpload(bucket, key, uploadId).catch(() => undefined);
    // The source may still be flowing (size limit): stop reading it.
    source.destroy();
    throw err;
  } finally {
    // A buffer still held here was never handed to a part: back to the pool.
    if (part) pool.release(part);
  }
}
