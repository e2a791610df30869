import { Readable } from 'node:stream';
import type { Client } from 'minio';
import { PayloadTooLarge } from '@hangar/errors';
import type { ByteBudget } from './byte-budget';

export interface MultipartUploadOptions {
  client: Client;
  bucket: string;
  key: string;
  source: Readable;
  partSize: number;
  partConcurrency: number;
  maxBytes?: number;
  contentType: string;
  /** The process-wide allowance every part buffer is drawn from. */
  budget?: ByteBudget;
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
 * at a time; here one part fills while up to `partConcurrency` upload, and the
 * stream is not read further until a slot frees (backpressure to the socket).
 * A stream that fits in one part becomes a single PUT. Any failure — the
 * source erroring (client gone), the size limit, S3 — aborts the multipart
 * upload so no partial object or orphan parts remain. Returns the byte count.
 */
export async function multipartUpload(options: MultipartUploadOptions): Promise<number> {
  const { client, bucket, key, source, partSize, maxBytes, contentType, budget } = options;
  // Budget held for the part being filled; handed to the part's upload, which
  // gives it back when that part is stored (or has failed).
  let reserved = 0;
  const reserve = async () => {
    if (budget && reserved === 0) {
      await budget.acquire(partSize);
      reserved = partSize;
    }
  };
  const handOver = (): number => {
    const held = reserved;
    reserved = 0;
    return held;
  };
  // 0 would wait forever for a free slot.
  const partConcurrency = Math.max(1, Math.floor(options.partConcurrency));
  let uploadId: string | undefined;
  let total = 0;
  // The chunks of the part being filled, kept as received: a small file costs
  // its own size, not a whole preallocated part (8 MiB per concurrent upload).
  let pending: Buffer[] = [];
  let filled = 0;
  let partNumber = 0;
  const inFlight = new Set<Promise<void>>();
  const etags: { part: number; etag: string }[] = [];
  // A flag, not the error's truthiness: a rejection with a falsy reason must
  // still stop the upload instead of completing it without that part.
  let failed = false;
  let failure: unknown;

  const sendPart = async (data: Buffer, held: number): Promise<void> => {
    try {
      // Wait for a slot before starting, not after: once this returns, up to
      // partConcurrency parts upload while the next one fills (waiting after
      // starting left only partConcurrency - 1 overlapping with reading, none at 1).
      while (inFlight.size >= partConcurrency && !failed) await Promise.race(inFlight);
      if (failed) throw failure;
      uploadId ??= await client.initiateNewMultipartUpload(bucket, key, { 'Content-Type': contentType });
    } catch (err) {
      // The part never started: its share of the budget goes back now.
      if (held) budget?.release(held);
      throw err;
    }
    const number = ++partNumber;
    const task = client
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
      if (held) budget?.release(held);
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
      let rest = next.value;
      total += rest.length;
      if (maxBytes !== undefined && total > maxBytes) {
        throw new PayloadTooLarge(`File is larger than the limit of ${maxBytes} bytes`);
      }
      await reserve();
      while (filled + rest.length >= partSize) {
        const take = partSize - filled;
        pending.push(rest.subarray(0, take));
        const full = Buffer.concat(pending, partSize);
        pending = [];
        filled = 0;
        rest = rest.subarray(take);
        await sendPart(full, handOver());
        if (rest.length > 0) await reserve();
      }
      if (rest.length > 0) {
        pending.push(rest);
        filled += rest.length;
      }
    }

    const last = Buffer.concat(pending, filled);
    pending = [];
    if (uploadId === undefined && partNumber === 0) {
      try {
        await client.putObject(bucket, key, last, last.length, { 'Content-Type': contentType });
      } finally {
        if (reserved) budget?.release(handOver());
      }
      return total;
    }
    if (last.length > 0) await sendPart(last, handOver());
    else if (reserved) budget?.release(handOver());
    await Promise.all(inFlight);
    if (failed) throw failure;
    etags.sort((a, b) => a.part - b.part);
    await client.completeMultipartUpload(bucket, key, uploadId!, etags);
    return total;
  } catch (err) {
    if (reserved) budget?.release(handOver());
    await Promise.allSettled(inFlight);
    if (uploadId) await client.abortMultipartUpload(bucket, key, uploadId).catch(() => undefined);
    // The source may still be flowing (size limit): stop reading it.
    source.destroy();
    throw err;
  }
}
