import { createHash, type Hash } from 'node:crypto';
import type { ObjectStorage, UploadedPart } from '@hangar/storage';
import { TusRefusal } from './tus-headers';
import type { UploadRecord, UploadTail } from './upload-records';

export interface BodyWrite {
  storage: ObjectStorage;
  record: UploadRecord;
  body: AsyncIterable<Buffer>;
  /** Continues the SHA-256 of the whole upload when this replica has seen every byte before this request. */
  runningHash?: Hash;
  /** Told of every chunk as it arrives (metrics). */
  onBytes?: (bytes: number) => void;
  /** Hash the body on its own too (the request sent Upload-Checksum): one more pass over every byte otherwise saved. */
  digestBody?: boolean;
  /** Parts uploading at once while the next one fills. */
  partConcurrency?: number;
}

export interface WrittenBody {
  /** Bytes of this request's body kept (all of them, unless the client went away mid-body). */
  received: number;
  /** The upload's parts after this request: the earlier ones and the ones it filled. */
  parts: UploadedPart[];
  /** Bytes after the last full part, stored under a key of their own. */
  tail?: UploadTail;
  /** SHA-256 of this request's body, for the checksum extension (when asked for). */
  bodyDigest?: Buffer;
  /** The body ended before the client said it would: the connection was lost. */
  cutShort: boolean;
}

/**
 * Writes one request body into the upload's S3 multipart upload. Bytes fill pooled part
 * buffers (the same pool as every other upload: memory stays bounded); each full part goes to
 * S3 while the next fills; what is left after the last full part is stored as a small tail
 * object, which the next request reads back first, because S3 takes no part under 5 MiB but
 * the last. The upload's record is not touched here: the caller commits the outcome, so a
 * body whose checksum does not match leaves the upload as it was (its parts are overwritten
 * by the next try, and S3 drops parts a completion does not list).
 */
export async function writeBody(write: BodyWrite): Promise<WrittenBody> {
  const { storage, record, body, runningHash, onBytes } = write;
  const pool = storage.partPool;
  const partSize = pool.partSize;
  const remaining = record.length - record.offset;
  const concurrency = Math.max(1, write.partConcurrency ?? 2);
  const parts = [...record.parts];
  // A placed partial numbers its parts from its place in the whole file's multipart upload.
  const firstPart = record.placed?.firstPart ?? 1;
  const bodyHash = write.digestBody ? createHash('sha256') : undefined;
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  let failed = false;
  let buffer: Buffer | undefined = await pool.acquire();
  let filled = 0;
  let received = 0;
  let cutShort = false;

  const sendPart = async (): Promise<void> => {
    const data = buffer!;
    const length = filled;
    buffer = undefined;
    filled = 0;
    while (inFlight.size >= concurrency && !failed) await Promise.race(inFlight);
    if (failed) {
      pool.release(data);
      throw failure;
    }
    const number = firstPart + parts.length;
    const placeholder: UploadedPart = { part: number, etag: '' };
    parts.push(placeholder);
    const task = storage
      .uploadPart(record.objectKey, record.multipartId!, number, data.subarray(0, length))
      .then((uploaded) => {
        placeholder.etag = uploaded.etag;
      })
      .catch((err: unknown) => {
        if (!failed) failure = err;
        failed = true;
      })
      .finally(() => {
        inFlight.delete(task);
        pool.release(data);
      });
    inFlight.add(task);
  };

  try {
    if (record.tail) filled = await readTail(storage, record.tail, buffer!);
    try {
      for await (const chunk of body) {
        if (received + chunk.length > remaining) {
          throw new TusRefusal(413, `The body goes past Upload-Length (${record.length} bytes)`);
        }
        bodyHash?.update(chunk);
        runningHash?.update(chunk);
        received += chunk.length;
        onBytes?.(chunk.length);
        let at = 0;
        while (at < chunk.length) {
          buffer ??= await pool.acquire();
          const copied = chunk.copy(buffer, filled, at);
          filled += copied;
          at += copied;
          if (filled === partSize) await sendPart();
        }
      }
    } catch (err) {
      if (err instanceof TusRefusal || failed) throw err;
      // The client went away mid-body: what arrived is kept, and it resumes from there.
      cutShort = true;
    }

    const complete = record.offset + received === record.length && !cutShort;
    let tail: UploadTail | undefined;
    if (complete) {
      // The last part may be short; an upload whose bytes all fit the tail has just this one.
      if (filled > 0 || parts.length === 0) {
        buffer ??= await pool.acquire();
        await sendPart();
      }
    } else if (filled > 0) {
      // A part already refused (its upload gone, say): no tail for an upload that cannot go on.
      if (failed) throw failure;
      // Placed partials share their object key: each tail is named by its first part too.
      const owner = record.placed ? `${record.objectKey}.part-${firstPart}` : record.objectKey;
      tail = { key: `${owner}.tail-${record.offset + received}`, size: filled };
      await storage.putBuffer(tail.key, buffer!.subarray(0, filled));
    }
    await Promise.all(inFlight);
    if (failed) {
      // A part was refused while the tail was stored: the request keeps nothing, so neither does S3.
      if (tail) await storage.delete(tail.key).catch(() => undefined);
      throw failure;
    }
    return { received, parts, ...(tail ? { tail } : {}), ...(bodyHash ? { bodyDigest: bodyHash.digest() } : {}), cutShort };
  } finally {
    await Promise.allSettled(inFlight);
    if (buffer) pool.release(buffer);
  }
}

/** The tail a previous request left, into the start of the part buffer. */
async function readTail(storage: ObjectStorage, tail: UploadTail, into: Buffer): Promise<number> {
  let filled = 0;
  for await (const chunk of await storage.getStream(tail.key)) {
    const bytes = chunk as Buffer;
    if (filled + bytes.length > tail.size) throw new Error(`upload tail ${tail.key} is longer than recorded`);
    bytes.copy(into, filled);
    filled += bytes.length;
  }
  if (filled !== tail.size) throw new Error(`upload tail ${tail.key} is shorter than recorded`);
  return filled;
}
