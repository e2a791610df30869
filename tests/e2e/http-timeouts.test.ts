import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Client } from 'minio';
import { RunningHangar, eventually, fixturesDir, startHangar, uniqueName, testS3Client, warmUp } from '@hangar/testing';

/**
 * The gateway's connection timeouts (HTTP_IDLE_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS): an upload
 * that keeps sending is never cut however long it takes, one that stalls is closed after the idle
 * time and leaves nothing behind. Short values here; the defaults are in the gateway's config.
 */
describe('HTTP connection timeouts', () => {
  // The upload deadline must stay below the idle time (config refuses otherwise) and leave
  // parsing room under load: at 5 s of 6 the first upload of CI's two-replica run (stop 28)
  // answered 503 — cold processes on a machine busy with another suite.
  const IDLE_MS = 10_000;
  const UPLOAD_DEADLINE_MS = 9_000;
  const bucket = uniqueName('e2e-timeouts');
  let hangar: RunningHangar;
  let s3: Client;
  const apk = fs.readFileSync(path.join(fixturesDir(), 'apps', 'android.apk'));

  beforeAll(async () => {
    hangar = await startHangar({ S3_BUCKET: bucket, HTTP_IDLE_TIMEOUT_MS: String(IDLE_MS), UPLOAD_DEADLINE_MS: String(UPLOAD_DEADLINE_MS) });
    await warmUp(hangar);
    s3 = testS3Client();
  });

  afterAll(async () => {
    await hangar?.stop();
  });

  /** A multipart upload of android.apk written in `pieces` pieces, `gapMs` apart; stops early at `stopAfter` pieces. */
  function trickleUpload(pieces: number, gapMs: number, stopAfter = pieces) {
    const boundary = `hangar${Date.now()}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${hangar.adminToken}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nTrickle ${uniqueName('app')}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="android.apk"\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const body = Buffer.concat([head, apk, tail]);
    const started = Date.now();
    return new Promise<{ status?: number; closedAfterMs: number; body: string }>((resolve) => {
      const req = http.request(`${hangar.baseUrl}/api/apps/upload`, {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) },
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, closedAfterMs: Date.now() - started, body: Buffer.concat(chunks).toString() }));
      });
      // Closed by the server without an answer: what a stalled client sees.
      req.on('error', () => resolve({ closedAfterMs: Date.now() - started, body: '' }));
      const size = Math.ceil(body.length / pieces);
      let sent = 0;
      const next = () => {
        if (sent >= stopAfter) return;
        const piece = body.subarray(sent * size, (sent + 1) * size);
        sent += 1;
        if (sent === pieces) req.end(piece);
        else {
          req.write(piece);
          setTimeout(next, gapMs);
        }
      };
      next();
    });
  }

  async function storedObjects(): Promise<string[]> {
    const names: string[] = [];
    for await (const item of s3.listObjectsV2(bucket, 'packages/', true)) if (item.name) names.push(item.name);
    return names;
  }

  it('when an upload keeps sending for longer than the idle time, then it is not cut and gets its 201', async () => {
    // 16 pieces 800 ms apart: ~12 s in all, longer than the idle time, never silent for long.
    const res = await trickleUpload(16, 800);
    // The body in the comparison: a refusal's message says which part answered it.
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 201 });
    expect(res.closedAfterMs).toBeGreaterThan(IDLE_MS);
    expect(JSON.parse(res.body).bundle_id).toBeTruthy();
  });

  it('when a client stops sending in the middle of the file, then the gateway closes the connection after the idle time and stores nothing', async () => {
    const before = await storedObjects();
    const res = await trickleUpload(10, 100, 4);
    expect(res.status).toBeUndefined();
    expect(res.closedAfterMs).toBeGreaterThanOrEqual(IDLE_MS);
    expect(res.closedAfterMs).toBeLessThan(IDLE_MS + 5_000);
    // The part already sent is not left as an object (the multipart upload is aborted).
    let now: string[] = [];
    await eventually(async () => (now = await storedObjects()).length === before.length, { timeoutMs: 10_000, stepMs: 100 }).catch(() => undefined);
    expect(now.sort()).toEqual(before.sort());
  });
});
