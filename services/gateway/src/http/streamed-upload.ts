import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import busboy from 'busboy';
import type { Request, Response } from 'express';
import { DomainError, InvalidArgument, MalformedRequest, PayloadTooLarge, isDomainError } from '@hangar/errors';
import type { ObjectStorage } from '@hangar/storage';
import { Sha256PassThrough } from './sha256-pass-through';

/** The longest a refused upload's answer waits for its stored bytes to be removed. */
const REMOVAL_WAIT_MS = 5_000;

/** The limit of a file received before its sender's token; `refusal` is thrown past it. */
export interface BeforeTokenLimit {
  maxBytes: number;
  refusal: () => DomainError;
}

/** UPLOAD_MAX_BYTES_BEFORE_TOKEN's default. */
export const DEFAULT_MAX_BYTES_BEFORE_TOKEN = 64 * 1024 * 1024;

/**
 * The limit of a file whose token comes after it (`curl -F file=@… -F token=…`, which Zealot
 * takes, since it reads the whole form first): past `maxBytes` the answer says to send the token first.
 */
export function beforeTokenLimit(maxBytes = DEFAULT_MAX_BYTES_BEFORE_TOKEN): BeforeTokenLimit {
  return {
    maxBytes,
    refusal: () => new PayloadTooLarge(`A file of more than ${maxBytes} bytes needs its token first: send Authorization: Bearer <token>, ?token=, or the token field before the file`),
  };
}

export interface UploadedFile {
  objectKey: string;
  size: number;
  /** Lowercase hex SHA-256 of the stored bytes, hashed as they streamed. */
  sha256: string;
  /** The client's file name, path and control characters removed: for display only. */
  fileName: string;
  /** Stored before the sender was known: the caller must check the token, and remove the file if refused. */
  beforeToken?: boolean;
}

export interface StreamedUpload {
  fields: Record<string, string>;
  file?: UploadedFile;
}

export interface UploadOptions {
  storage: ObjectStorage;
  maxBytes: number;
  /** Where the file goes in storage: `<prefix>/<uuid>`. */
  keyPrefix: string;
  /** The multipart field holding the file. */
  fileField?: string;
  /**
   * Runs when the file part begins, with the fields sent before it: checks
   * (token, permission) happen before a byte is stored. Answering `{ maxBytes }`
   * instead says the sender is not known yet (its token comes after the file):
   * the file is stored, up to that smaller limit, and the caller checks the
   * token once the form is read, removing the file if it is refused.
   */
  beforeFile?: (fields: Record<string, string>) => Promise<void | BeforeTokenLimit>;
  /**
   * Told the size of every chunk of the request body as it arrives (metrics).
   * The body, not the file part: the file stream is handed to storage
   * untouched, since wrapping it changed how refused uploads are cleaned up.
   */
  onBytes?: (bytes: number) => void;
  /**
   * Judges the file's first `headBytes` bytes before anything is stored (throw to refuse):
   * a teardown refuses what cannot be a package before streaming gigabytes of it.
   */
  checkHead?: { bytes: number; check: (head: Buffer) => void };
}

// Two file parts, so a second `file` is seen and refused (with `files: 1` busboy dropped it silently).
const FIELD_LIMITS = { fields: 100, fieldSize: 1024 * 1024, parts: 110, files: 2 };

/** Keeps only the last path component, without control characters. */
export function sanitizeFileName(name: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  const base = (name ?? '').split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return base === '.' || base === '..' ? '' : base.slice(0, 255);
}

/**
 * Reads a multipart upload, streaming its file part from the socket into
 * object storage (bounded memory, nothing on the gateway's disk). Text fields
 * are collected. Any failure — a malformed body, the size limit, the client
 * going away, a refused check — removes what was stored and rejects; the
 * caller decides what to answer.
 */
export function receiveUpload(req: Request, options: UploadOptions): Promise<StreamedUpload> {
  const { storage, maxBytes, keyPrefix, fileField = 'file', beforeFile, onBytes, checkHead } = options;
  return new Promise<StreamedUpload>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: FIELD_LIMITS, defParamCharset: 'utf8' });
    } catch (err) {
      reject(new MalformedRequest(`Malformed multipart body: ${(err as Error).message}`));
      return;
    }
    const fields: Record<string, string> = {};
    let upload: Promise<UploadedFile> | undefined;
    let fileStream: Readable | undefined;
    let settled = false;

    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      // Still storing: once unpiped, the file part gets no more bytes and would wait forever,
      // holding its multipart upload and part buffers. Ending it with an error makes storage
      // abort the multipart upload. Stored already: remove the object once that is over.
      // Listened to first: the stream may be the head check's copy of a short file, which nobody
      // else listens to — its 'error' ended the gateway (refused-short-upload.test.ts).
      fileStream?.on('error', () => undefined).destroy(new Error('upload abandoned'));
      const removed = upload?.then((file) => storage.delete(file.objectKey)).catch(() => undefined);
      const refusal = err instanceof DomainError ? err : new MalformedRequest(`Malformed multipart body: ${(err as Error)?.message ?? err}`);
      // The refusal is answered once what was stored is gone (a second file part arrives after the
      // first was stored whole): a client told 422 finds nothing left of its request. Bounded, so
      // a storage that does not answer cannot hold the refusal.
      if (!removed) return reject(refusal);
      const bound = new Promise((settle) => setTimeout(settle, REMOVAL_WAIT_MS).unref());
      void Promise.race([removed, bound]).then(() => reject(refusal));
    };

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(InvalidArgument.field(name, 'is too long'));
      fields[name] = value;
    });

    parser.on('file', (name, stream: Readable, info) => {
      // A body cut inside a file part destroys that part's stream with an error; unlistened, it
      // crashed the gateway. The parser reports the same problem to `fail` below.
      stream.on('error', () => undefined);
      // Busboy may still emit parts it had buffered after `fail` unpiped it; a file stored then
      // would have no one to remove it (an orphan object the hostile-input property test once found).
      if (settled || name !== fileField || upload) {
        stream.resume();
        // A second file part was dropped silently: which package was meant? Nothing is kept.
        if (!settled && name === fileField) fail(InvalidArgument.field(fileField, 'was sent twice: send one file per upload'));
        return;
      }
      fileStream = stream;
      const objectKey = `${keyPrefix}/${randomUUID()}`;
      const fileName = sanitizeFileName(info.filename);
      upload = (async () => {
        let beforeToken: BeforeTokenLimit | undefined;
        if (beforeFile) {
          try {
            beforeToken = (await beforeFile({ ...fields })) ?? undefined;
          } catch (err) {
            stream.resume();
            throw err;
          }
        }
        let body: Readable = stream;
        if (checkHead) {
          const peeked = await peekHead(stream, checkHead.bytes);
          body = peeked.stream;
          fileStream = body;
          try {
            checkHead.check(peeked.head);
          } catch (err) {
            body.resume();
            throw err;
          }
        }
        const hashed = Sha256PassThrough.of(body);
        const limit = beforeToken ? Math.min(maxBytes, beforeToken.maxBytes) : maxBytes;
        let stored: { size: number };
        try {
          stored = await storage.putStream(objectKey, hashed, { maxBytes: limit, contentType: 'application/octet-stream' });
        } catch (err) {
          throw beforeToken && isDomainError(err) && err.code === 'payload_too_large' ? beforeToken.refusal() : err;
        }
        return { objectKey, size: stored.size, sha256: hashed.digest(), fileName, ...(beforeToken ? { beforeToken: true } : {}) };
      })();
      upload.catch(fail);
    });

    parser.on('partsLimit', () => fail(new MalformedRequest('Too many form parts')));
    parser.on('filesLimit', () => fail(InvalidArgument.field(fileField, 'was sent with other files: send one file per upload')));
    parser.on('fieldsLimit', () => fail(new MalformedRequest('Too many form fields')));
    // `on`, not `once`: busboy emits 'error' once per malformed part header, so a body with two
    // of them crashed the gateway with an unhandled 'error' event; `fail` settles once.
    parser.on('error', fail);
    parser.once('close', () => {
      if (settled) return;
      (upload ?? Promise.resolve(undefined)).then(
        (file) => {
          if (settled) return;
          settled = true;
          resolve({ fields, ...(file ? { file } : {}) });
        },
        fail,
      );
    });
    // A client that goes away mid-body: busboy sees the stream end early.
    req.once('aborted', () => fail(new MalformedRequest('The client closed the connection before the upload finished')));
    // Counted as it passes to the parser; unpiping pauses the body as before.
    if (onBytes) req.on('data', (chunk: Buffer) => onBytes(chunk.length));
    req.pipe(parser);
  });
}

/**
 * The first `length` bytes of a stream (fewer if it ends first), read without consuming them:
 * they are put back, so the stream goes on to storage whole and untouched. A stream that has
 * already ended cannot take them back; a short one is then replaced by one holding its bytes.
 */
async function peekHead(stream: Readable, length: number): Promise<{ head: Buffer; stream: Readable }> {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < length && !stream.readableEnded && !stream.destroyed) {
    const chunk = stream.read() as Buffer | null;
    if (chunk) {
      chunks.push(chunk);
      total += chunk.length;
      continue;
    }
    await new Promise<void>((resolve, reject) => {
      const settle = (err?: Error) => {
        stream.off('readable', onReady).off('end', onReady).off('close', onReady).off('error', settle);
        if (err) reject(err);
        else resolve();
      };
      const onReady = () => settle();
      stream.once('readable', onReady).once('end', onReady).once('close', onReady).once('error', settle);
    });
  }
  const bytes = Buffer.concat(chunks, total);
  if (stream.readableEnded) return { head: bytes.subarray(0, length), stream: Readable.from(bytes.length ? [bytes] : []) };
  if (bytes.length) stream.unshift(bytes);
  return { head: bytes.subarray(0, length), stream };
}

const LINGER_MAX_BYTES = 64 * 1024 * 1024;
const LINGER_MAX_MS = 15_000;

/**
 * An upload refused before its body is read (bad token, unknown channel, too
 * large) is answered at once. Closing the connection right then makes most
 * clients (curl, fetch) fail with a broken pipe while still sending, so a CI
 * log shows "connection reset" instead of the error. Like nginx's lingering
 * close, the rest of the body is read and thrown away — up to a bound in bytes
 * and time, after which the connection is cut.
 */
export function lingerAfterEarlyResponse(req: Request, res: Response): void {
  res.once('finish', () => {
    if (req.complete || req.destroyed) return;
    let discarded = 0;
    const cut = () => {
      clearTimeout(timer);
      req.socket.destroy();
    };
    const timer = setTimeout(cut, LINGER_MAX_MS);
    timer.unref();
    req.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > LINGER_MAX_BYTES) cut();
    });
    req.once('end', () => clearTimeout(timer));
    req.resume();
  });
}
