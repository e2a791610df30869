import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ManagedProcess, ferretdbBinary, freePort, isListening, spawnManaged, versitygwBinary, waitFor } from '@hangar/infra';
import { RunningHangar, apiClient, fixturesDir, startHangar, uniqueName } from '@hangar/testing';

/**
 * A dependency that goes away: requests get a clear 503 quickly while it is
 * down, and Hangar recovers by itself when it returns — nothing restarted by
 * hand. The suite runs its own MongoDB-wire and S3 servers so it can stop
 * them without disturbing other suites.
 */
describe('when MongoDB or S3 is down for a while', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-outage-'));
  const s3Keys = { accessKey: 'outage-access', secretKey: 'outage-secret-key' };
  let mongoPort: number;
  let s3Port: number;
  let mongo: ManagedProcess;
  let s3: ManagedProcess;
  let hangar: RunningHangar;
  let api: ReturnType<typeof apiClient>;

  const startMongo = async () => {
    mongo = spawnManaged({ name: 'ferretdb', command: ferretdbBinary(), args: ['-listen', `127.0.0.1:${mongoPort}`, '-data-dir', path.join(dir, 'ferretdb')], logFile: path.join(dir, 'ferretdb.log') });
    await waitFor('ferretdb', () => isListening('127.0.0.1', mongoPort));
  };
  const startS3 = async () => {
    fs.mkdirSync(path.join(dir, 's3', 'data'), { recursive: true });
    fs.mkdirSync(path.join(dir, 's3', 'meta'), { recursive: true });
    s3 = spawnManaged({
      name: 'versitygw',
      command: versitygwBinary(),
      args: ['--port', `127.0.0.1:${s3Port}`, 'posix', '--sidecar', path.join(dir, 's3', 'meta'), path.join(dir, 's3', 'data')],
      env: { ...process.env, ROOT_ACCESS_KEY: s3Keys.accessKey, ROOT_SECRET_KEY: s3Keys.secretKey },
      logFile: path.join(dir, 'versitygw.log'),
    });
    await waitFor('versitygw', () => isListening('127.0.0.1', s3Port));
  };

  let channelKey = '';
  async function upload(): Promise<number> {
    const form = new FormData();
    form.append('token', hangar.adminToken);
    form.append('file', new Blob([fs.readFileSync(path.join(fixturesDir(), 'apps', 'android.apk'))]), 'android.apk');
    const res = await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', body: form });
    const body = (await res.json()) as { channel?: { slug: string } };
    if (res.status === 201 && body.channel) channelKey = body.channel.slug;
    return res.status;
  }
  const releaseCount = async () => Number((await api('GET', `/api/apps/versions?channel_key=${channelKey}`)).headers.get('x-total-count'));

  beforeAll(async () => {
    [mongoPort, s3Port] = [await freePort(), await freePort()];
    await startMongo();
    await startS3();
    hangar = await startHangar({
      MONGO_URL: `mongodb://127.0.0.1:${mongoPort}`,
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_ACCESS_KEY: s3Keys.accessKey,
      S3_SECRET_KEY: s3Keys.secretKey,
      S3_BUCKET: uniqueName('outage'),
    });
    api = apiClient(hangar.baseUrl);
  });

  afterAll(async () => {
    await hangar?.stop();
    await Promise.all([mongo?.stop(), s3?.stop()]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('when the MongoDB-wire server stops, then requests answer 503 fast, and work again once it is back', async () => {
    // The list of users is read from the database on every request. (The token itself is
    // checked from the gateway's validated cache, which needs NATS, not MongoDB: /api/users/me
    // keeps answering through a database outage.)
    expect((await api('GET', '/api/users', { token: hangar.adminToken })).status).toBe(200);
    await mongo.stop();
    const started = Date.now();
    const down = await api('GET', '/api/users', { token: hangar.adminToken });
    expect(down.status).toBe(503);
    expect(down.body.error).toEqual(expect.any(String));
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(await upload()).toBe(503);
    expect((await api('GET', '/api/users/me', { token: hangar.adminToken })).status).toBe(200);

    await startMongo();
    await waitFor('users to answer again', async () => (await api('GET', '/api/users', { token: hangar.adminToken })).status === 200, { timeoutMs: 30_000, intervalMs: 500 });
    expect(await upload()).toBe(201);
  });

  it('when the S3 server stops, then uploads answer 503 and nothing is recorded; once it is back they succeed', async () => {
    expect(await upload()).toBe(201);
    const before = await releaseCount();
    await s3.stop();
    expect(await upload()).toBe(503);
    // What needs no storage keeps working, and the refused upload left no record.
    expect((await api('GET', '/api/users/me', { token: hangar.adminToken })).status).toBe(200);
    expect(await releaseCount()).toBe(before);

    await startS3();
    await waitFor('uploads to succeed again', async () => (await upload()) === 201, { timeoutMs: 30_000, intervalMs: 1_000 });
    expect(await releaseCount()).toBe(before + 1);
  });
});
