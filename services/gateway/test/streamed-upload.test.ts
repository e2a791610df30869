import { PassThrough, type Readable } from 'node:stream';
import type { Request } from 'express';
import { PayloadTooLarge } from '@hangar/errors';
import { ObjectStorage, type PutOptions, type StoredObject } from '@hangar/storage';
import { testInfrastructure, uniqueName } from '@hangar/testing';
import { receiveUpload } from '../src/http/streamed-upload';

const BOUNDARY = 'hangar-test-boundary';

/** Real storage that remembers every upload it was asked to store, so a test can wait for them. */
class RecordingStorage extends ObjectStorage {
  readonly puts: { key: string; done: Promise<StoredObject> }[] = [];

  override putStream(key: string, source: Readable, options?: PutOptions): Promise<StoredObject> {
    const done = super.putStream(key, source, options);
    this.puts.push({ key, done });
    return done;
  }
}

/** A request as express hands it over: the body stream with its headers. */
function multipartRequest(): PassThrough & Request {
  const req = new PassThrough() as PassThrough & Request;
  Object.assign(req, { headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } });
  return req;
}

const fieldPart = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileHead = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="app.apk"\r\nContent-Type: application/octet-stream\r\n\r\n`;

/** receiveUpload against the real S3 server: a refused form never leaves an object or a hung upload behind. */
describe('receiveUpload', () => {
  const storage = new RecordingStorage({ ...testInfrastructure().s3, bucket: uniqueName('gateway-upload'), partSize: 5 * 1024 * 1024, partConcurrency: 2 });

  beforeAll(() => storage.ensureBucket());

  it('when a form with too many fields carries its file in the same chunk, then it is refused and the file is not stored', async () => {
    const req = multipartRequest();
    const fields = Array.from({ length: 101 }, (_, i) => fieldPart(`f${i}`, 'x')).join('');
    // One write: busboy parses the whole chunk, so the file part is emitted after the limit has failed the form.
    req.end(Buffer.from(`${fields}${fileHead}${'A'.repeat(1024)}\r\n--${BOUNDARY}--\r\n`));

    await expect(receiveUpload(req, { storage, maxBytes: 1024 * 1024, keyPrefix: 'packages' })).rejects.toThrow('Too many form fields');

    const stored = await Promise.allSettled(storage.puts.map((put) => put.done));
    for (const [i, put] of storage.puts.entries()) {
      if (stored[i]!.status === 'fulfilled') expect(await storage.exists(put.key)).toBe(false);
    }
  });

  it('when the client goes away in the middle of the file, then the storing upload ends (not left waiting) and nothing is stored', async () => {
    const req = multipartRequest();
    const before = storage.puts.length;
    req.write(Buffer.from(`${fileHead}${'B'.repeat(64 * 1024)}`));

    const received = receiveUpload(req, { storage, maxBytes: 64 * 1024 * 1024, keyPrefix: 'packages' });
    await waitFor(() => storage.puts.length > before);
    req.emit('aborted');

    await expect(received).rejects.toThrow('closed the connection');
    const put = storage.puts[before]!;
    // Before the fix the file stream, unpiped from the request, never ended and this never settled.
    const outcome = await withinMs(put.done, 5_000).then(
      () => 'stored',
      (err: Error) => err.message,
    );
    expect(outcome).not.toMatch(/stored|still pending/);
    expect(await storage.exists(put.key)).toBe(false);
  });

  /** Every put made since `before` settled, and none of their objects left in storage. */
  async function nothingStoredSince(before: number): Promise<void> {
    const puts = storage.puts.slice(before);
    await Promise.allSettled(puts.map((put) => put.done));
    await waitFor(async () => (await Promise.all(puts.map((put) => storage.exists(put.key)))).every((exists) => !exists), 15_000);
  }

  describe('what Zealot clients send', () => {
    it('when a form carries two file parts, then it is a 422 naming file and neither is kept', async () => {
      const req = multipartRequest();
      const before = storage.puts.length;
      const received = receiveUpload(req, { storage, maxBytes: 64 * 1024 * 1024, keyPrefix: 'packages' });
      req.end(Buffer.from(`${fileHead}${'A'.repeat(300 * 1024)}\r\n${fileHead}${'B'.repeat(1024)}\r\n--${BOUNDARY}--\r\n`));

      await expect(received).rejects.toMatchObject({ code: 'invalid_argument', entry: { file: [expect.stringMatching(/twice/)] } });
      await nothingStoredSince(before);
    });

    const beforeToken = { maxBytes: 256 * 1024, refusal: () => new PayloadTooLarge('token first, please') };

    it('when the sender is not known at the file part, then the file is stored up to the smaller limit and marked for the token check', async () => {
      const req = multipartRequest();
      const received = receiveUpload(req, { storage, maxBytes: 64 * 1024 * 1024, keyPrefix: 'packages', beforeFile: async () => beforeToken });
      req.end(Buffer.from(`${fileHead}${'C'.repeat(200 * 1024)}\r\n${fieldPart('token', 'after-the-file')}--${BOUNDARY}--\r\n`));

      const { file, fields } = await received;
      expect({ size: file!.size, beforeToken: file!.beforeToken, token: fields.token }).toEqual({ size: 200 * 1024, beforeToken: true, token: 'after-the-file' });
      expect(await storage.exists(file!.objectKey)).toBe(true);
      await storage.delete(file!.objectKey);
    });

    it('when a file sent before its token is past the smaller limit, then it is refused with the caller\'s refusal and nothing is kept', async () => {
      const req = multipartRequest();
      const before = storage.puts.length;
      const received = receiveUpload(req, { storage, maxBytes: 64 * 1024 * 1024, keyPrefix: 'packages', beforeFile: async () => beforeToken });
      req.end(Buffer.from(`${fileHead}${'D'.repeat(300 * 1024)}\r\n${fieldPart('token', 'after-the-file')}--${BOUNDARY}--\r\n`));

      await expect(received).rejects.toThrow('token first, please');
      await nothingStoredSince(before);
    });
  });

  describe('with a check of the first bytes (teardown)', () => {
    const zipHead = (size: number) => Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(size - 4, 0x5a)]);
    const check = { bytes: 1536, check: (head: Buffer) => { if (head.toString('latin1', 0, 2) !== 'PK') throw new Error('not a zip'); } };

    async function storedBytes(key: string): Promise<Buffer> {
      const chunks: Buffer[] = [];
      for await (const chunk of await storage.getStream(key)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    }

    it.each([
      ['smaller than the bytes looked at', 300],
      ['of many body chunks', 3 * 1024 * 1024 + 17],
    ])('when the file is %s and passes, then it is stored whole, the looked-at bytes included', async (_label, size) => {
      const req = multipartRequest();
      const data = zipHead(size);
      const received = receiveUpload(req, { storage, maxBytes: 64 * 1024 * 1024, keyPrefix: 'teardowns', checkHead: check });
      req.write(Buffer.from(fileHead));
      // Written in small pieces, so the head arrives over several reads.
      for (let at = 0; at < data.length; at += 700) req.write(data.subarray(at, at + 700));
      req.end(Buffer.from(`\r\n--${BOUNDARY}--\r\n`));

      const { file } = await received;
      expect(file!.size).toBe(size);
      expect((await storedBytes(file!.objectKey)).equals(data)).toBe(true);
    });

    it('when the first bytes fail the check, then the upload is refused before anything is stored', async () => {
      const req = multipartRequest();
      const before = storage.puts.length;
      const received = receiveUpload(req, { storage, maxBytes: 64 * 1024 * 1024, keyPrefix: 'teardowns', checkHead: check });
      req.write(Buffer.from(fileHead));
      req.write(Buffer.alloc(256 * 1024, 'x'));

      await expect(received).rejects.toThrow('not a zip');
      expect(storage.puts.length).toBe(before);
      req.destroy();
    });
  });
});

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function withinMs<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
