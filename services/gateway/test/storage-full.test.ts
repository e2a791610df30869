import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { StorageFull, httpStatusOf } from '@hangar/errors';
import { freePort, versitygwBinary, waitFor } from '@hangar/infra';
import { createLogger } from '@hangar/logger';
import { ObjectStorage } from '@hangar/storage';
import { errorHandler } from '../src/http/error-handler';
import { receiveUpload } from '../src/http/streamed-upload';

/**
 * A full disk under S3: versitygw on a 6 MiB tmpfs answers InsufficientStorage
 * ("No space left on device"). An upload then gets 507 with Retry-After and "storage is full",
 * not a 400 blaming its body; once space is freed, uploads succeed again. Mounting needs root
 * (CI and this machine run as root); elsewhere the file says why it did not run.
 */
const isRoot = process.getuid?.() === 0;
const describeAsRoot = isRoot ? describe : describe.skip;
if (!isRoot) console.warn('storage-full.test.ts needs root to mount a tmpfs; skipped');

const BOUNDARY = 'storage-full-boundary';

describeAsRoot('uploads when the disk under S3 is full', () => {
  let mount: string;
  let versitygw: ChildProcess;
  let storage: ObjectStorage;
  let server: http.Server;
  let baseUrl: string;

  beforeAll(async () => {
    mount = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-full-s3-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', mount]);
    fs.mkdirSync(path.join(mount, 'data'));
    fs.mkdirSync(path.join(mount, 'meta'));
    const port = await freePort();
    versitygw = spawn(versitygwBinary(), ['--port', `127.0.0.1:${port}`, 'posix', '--sidecar', path.join(mount, 'meta'), path.join(mount, 'data')], {
      env: { ...process.env, ROOT_ACCESS_KEY: 'full-access', ROOT_SECRET_KEY: 'full-secret-key-1234' },
      stdio: 'ignore',
    });
    storage = new ObjectStorage({ endpoint: `http://127.0.0.1:${port}`, accessKey: 'full-access', secretKey: 'full-secret-key-1234', bucket: 'full', partSize: 5 * 1024 * 1024, partConcurrency: 2 });
    await waitFor('versitygw', () => storage.ensureBucket().then(() => true, () => false), { timeoutMs: 30_000 });

    // The gateway's upload edge: receiveUpload and the error handler, as the upload routes use them.
    const app = express();
    app.post('/upload', async (req, res, next) => {
      try {
        const upload = await receiveUpload(req, { storage, maxBytes: 64 * 1024 * 1024, keyPrefix: 'packages' });
        res.status(201).json({ key: upload.file?.objectKey });
      } catch (err) {
        next(err);
      }
    });
    app.use(errorHandler(createLogger({ service: 'storage-full-test', level: 'silent' })));
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 60_000);

  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    versitygw?.kill();
    if (versitygw && versitygw.exitCode === null) await new Promise((r) => versitygw.once('exit', r));
    execFileSync('umount', [mount]);
    fs.rmSync(mount, { recursive: true, force: true });
  });

  const multipart = (size: number) =>
    Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="app.apk"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      Buffer.alloc(size, 7),
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
  const post = (size: number) => fetch(`${baseUrl}/upload`, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, body: multipart(size) });

  it('when a streamed upload does not fit, then it is StorageFull: 507 with Retry-After and no internal text', async () => {
    const err = await storage.putStream('too-big', (await import('node:stream')).Readable.from([Buffer.alloc(12 * 1024 * 1024, 1)])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageFull);
    expect(httpStatusOf(err as StorageFull)).toBe(507);

    const res = await post(12 * 1024 * 1024);
    expect(res.status).toBe(507);
    expect(res.headers.get('retry-after')).toBe('60');
    const body = (await res.json()) as { error: string };
    expect(body.error).toMatch(/storage is full/i);
    expect(body.error).not.toMatch(/space left|device|InsufficientStorage/i);
  });

  it('when a resumable part does not fit, then uploadPart is StorageFull too', async () => {
    const uploadId = await storage.beginMultipart('tus-part');
    const err = await storage.uploadPart('tus-part', uploadId, 1, Buffer.alloc(8 * 1024 * 1024, 2)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageFull);
    await storage.abortIncompleteUpload('tus-part', uploadId).catch(() => undefined);
  });

  it('when space is free again, then the same upload succeeds', async () => {
    const res = await post(1024 * 1024);
    expect(res.status).toBe(201);
  });
});
