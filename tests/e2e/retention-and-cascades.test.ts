import fs from 'node:fs';
import path from 'node:path';
import { ChildProcess, spawn } from 'node:child_process';
import os from 'node:os';
import { MongoClient } from 'mongodb';
import { freePort, isListening, natsServerBinary } from '@hangar/infra';
import { ApiResponse, RunningHangar, apiClient, fixturesDir, startHangar, testInfrastructure, uniqueName, testS3Client } from '@hangar/testing';
import { WebhookReceiver, eventually, signatureValid } from './webhook-receiver';

const fixture = (...parts: string[]) => fs.readFileSync(path.join(fixturesDir(), ...parts));

async function uploadBuild(hangar: RunningHangar, token: string, channelKey: string): Promise<ApiResponse> {
  const form = new FormData();
  form.append('token', token);
  form.append('channel_key', channelKey);
  form.append('file', new Blob([fixture('apps', 'android.apk')]), 'android.apk');
  const res = await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', body: form });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

/**
 * PRODUCT §6 end to end: retained builds and delete cascades reach the
 * object store (the suite's own bucket is listed).
 */
describe('retained builds and cascades over HTTP', () => {
  const bucket = uniqueName('e2e-retain');
  const s3 = testS3Client();
  let hangar: RunningHangar;
  let api: ReturnType<typeof apiClient>;
  let token: string;

  beforeAll(async () => {
    hangar = await startHangar({ S3_BUCKET: bucket });
    api = apiClient(hangar.baseUrl);
    token = hangar.adminToken;
  });

  afterAll(async () => {
    await hangar?.stop();
  });

  async function objects(): Promise<Set<string>> {
    const names = new Set<string>();
    if (!(await s3.bucketExists(bucket))) return names;
    for await (const item of s3.listObjectsV2(bucket, '', true)) if (item.name) names.add(item.name);
    return names;
  }

  const versions = async (channelKey: string) =>
    ((await api('GET', `/api/apps/versions?channel_key=${channelKey}&per_page=100`)).body.releases as { id: number }[]).map((r) => r.id).sort((a, b) => a - b);

  it('when a scheme keeps 2 builds, then each channel keeps exactly its 2 newest and the others leave S3', async () => {
    const app = (await api('POST', '/api/apps', { token, json: { name: uniqueName('Retained') } })).body;
    const scheme = (await api('POST', `/api/apps/${app.id}/schemes`, { token, json: { name: 'Nightly', retained_builds: 2 } })).body;
    const a = (await api('POST', `/api/schemes/${scheme.id}/channels`, { token, json: { name: 'A', device_type: 'Android' } })).body;
    const b = (await api('POST', `/api/schemes/${scheme.id}/channels`, { token, json: { name: 'B', device_type: 'Android' } })).body;
    // The objects each upload added (uploads run one after another; pruning only removes).
    const filesOf = new Map<number, string[]>();
    const uploadTo = async (key: string) => {
      const before = await objects();
      const id = (await uploadBuild(hangar, token, key)).body.id as number;
      filesOf.set(id, [...(await objects())].filter((n) => !before.has(n)));
      return id;
    };
    const inA: number[] = [];
    const inB: number[] = [];
    for (let i = 0; i < 4; i++) inA.push(await uploadTo(a.slug));
    for (let i = 0; i < 3; i++) inB.push(await uploadTo(b.slug));
    expect(filesOf.get(inA[3]!)!.length).toBeGreaterThanOrEqual(1);
    await eventually(async () => (await versions(a.slug)).length === 2 && (await versions(b.slug)).length === 2, 30_000, 'pruned to 2');
    expect(await versions(a.slug)).toEqual(inA.slice(2));
    expect(await versions(b.slug)).toEqual(inB.slice(1));
    const pruned = [...inA.slice(0, 2), inB[0]!];
    const kept = [...inA.slice(2), ...inB.slice(1)];
    await eventually(async () => {
      const now = await objects();
      return pruned.every((id) => filesOf.get(id)!.every((n) => !now.has(n)));
    }, 30_000, 'pruned files removed');
    const now = await objects();
    for (const id of kept) expect({ id, stored: filesOf.get(id)!.every((n) => now.has(n)) }).toEqual({ id, stored: true });
    const releaseObjects = async (id: number) => (await api('GET', `/api/releases/${id}/download`)).status;
    for (const id of [...inA.slice(0, 2), inB[0]!]) expect(await releaseObjects(id)).toBe(404);
  });

  it('when an app is deleted, then its releases, debug files and every stored object under it are removed', async () => {
    const app = (await api('POST', '/api/apps', { token, json: { name: uniqueName('Doomed') } })).body;
    const scheme = (await api('POST', `/api/apps/${app.id}/schemes`, { token, json: { name: 'Beta' } })).body;
    const ch = (await api('POST', `/api/schemes/${scheme.id}/channels`, { token, json: { name: 'Android', device_type: 'Android' } })).body;
    const keep = (await api('POST', '/api/apps', { token, json: { name: uniqueName('Kept') } })).body;
    const keepScheme = (await api('POST', `/api/apps/${keep.id}/schemes`, { token, json: { name: 'Beta' } })).body;
    const keepCh = (await api('POST', `/api/schemes/${keepScheme.id}/channels`, { token, json: { name: 'Android', device_type: 'Android' } })).body;

    const before = await objects();
    const builds = [(await uploadBuild(hangar, token, ch.slug)).body.id, (await uploadBuild(hangar, token, ch.slug)).body.id];
    const form = new FormData();
    form.append('token', token);
    form.append('channel_key', ch.slug);
    form.append('release_version', '1.2.3');
    form.append('build_version', '5');
    form.append('file', new Blob([fixture('proguards', 'full_mapping.zip')]), 'mapping.zip');
    const debug = await fetch(`${hangar.baseUrl}/api/debug_files/upload`, { method: 'POST', body: form });
    expect(debug.status).toBe(200);
    const debugFile = (await debug.json()) as { id: number };
    const underApp = [...(await objects())].filter((n) => !before.has(n));
    expect(underApp.length).toBeGreaterThanOrEqual(3);

    const afterApp = await objects();
    const kept = (await uploadBuild(hangar, token, keepCh.slug)).body.id;
    const keptObjects = [...(await objects())].filter((n) => !afterApp.has(n));

    expect((await api('DELETE', `/api/apps/${app.id}`, { token })).status).toBe(200);
    await eventually(async () => {
      const now = await objects();
      return underApp.every((n) => !now.has(n));
    }, 30_000, 'every object of the app removed');
    for (const id of builds) expect((await api('GET', `/api/releases/${id}/download`)).status).toBe(404);
    expect((await api('GET', `/api/debug_files/${debugFile.id}?channel_key=${ch.slug}`, { token })).status).toBe(404);
    // The other app keeps its build and its files.
    const now = await objects();
    expect(keptObjects.every((n) => now.has(n))).toBe(true);
    expect(await versions(keepCh.slug)).toEqual([kept]);
  });
});

/**
 * PRODUCT §6 "nothing is lost if NATS is down", against a NATS server of the
 * suite's own (the machine's shared one serves other suites).
 */
describe('NATS stopped and started again', () => {
  const receiver = new WebhookReceiver();
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-e2e-nats-'));
  let natsPort = 0;
  let nats: ChildProcess | undefined;
  let hangar: RunningHangar;
  let api: ReturnType<typeof apiClient>;
  let token: string;

  async function startNats() {
    nats = spawn(natsServerBinary(), ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', storeDir], { stdio: 'ignore' });
    await eventually(() => isListening('127.0.0.1', natsPort), 15_000, 'nats-server listening');
  }

  /** Whether a document still holds events its outbox relay has not published. */
  async function outboxPending(service: 'apps' | 'releases', collection: string, id: number): Promise<boolean | undefined> {
    const mongo = new MongoClient(testInfrastructure().mongoUrl, { directConnection: true });
    try {
      const doc = await mongo.db(`${hangar.dbPrefix}_${service}`).collection<{ _id: number; outboxPending?: boolean }>(collection).findOne({ _id: id });
      return doc?.outboxPending;
    } finally {
      await mongo.close();
    }
  }

  async function stopNats() {
    const proc = nats;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
  }

  beforeAll(async () => {
    await receiver.start();
    natsPort = await freePort();
    await startNats();
    hangar = await startHangar({
      NATS_URL: `nats://127.0.0.1:${natsPort}`,
      S3_BUCKET: uniqueName('e2e-nats'),
      HANGAR_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_SECRET_KEY: 'e2e-nats-outage-webhook-key-0123456789',
      WEBHOOK_RETRY_BASE_MS: '300',
      WEBHOOK_POLL_MS: '100',
    });
    api = apiClient(hangar.baseUrl);
    token = hangar.adminToken;
  });

  afterAll(async () => {
    await hangar?.stop();
    await stopNats();
    await receiver.stop();
    fs.rmSync(storeDir, { recursive: true, force: true });
  });

  it('when NATS is down, then uploads and deletes still succeed, and every event they recorded is delivered once NATS is back', async () => {
    const app = (await api('POST', '/api/apps', { token, json: { name: uniqueName('Outage') } })).body;
    const scheme = (await api('POST', `/api/apps/${app.id}/schemes`, { token, json: { name: 'Beta', new_build_callout: true } })).body;
    const ch = (await api('POST', `/api/schemes/${scheme.id}/channels`, { token, json: { name: 'Android', device_type: 'Android' } })).body;
    const doomed = (await api('POST', `/api/apps/${app.id}/schemes`, { token, json: { name: 'Doomed' } })).body;
    const { body: hook } = await api('POST', `/api/apps/${app.id}/webhooks`, { token, json: { url: receiver.url('/outage') } });

    await stopNats();
    // Writes once the installation knows NATS is gone (its health says so), not merely after it stopped.
    await eventually(async () => (await api('GET', '/api/health')).body?.checks?.events === 'unavailable', 30_000, 'NATS reported unavailable');
    const uploaded = await uploadBuild(hangar, token, ch.slug);
    expect(uploaded.status).toBe(201);
    expect((await api('DELETE', `/api/schemes/${doomed.id}`, { token })).status).toBe(200);
    // A resumable upload needs its record in NATS: refused plainly, not a 500 after a timeout.
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const resumable = await fetch(`${hangar.baseUrl}/api/uploads`, {
      method: 'POST',
      headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}`, 'upload-length': '1000', 'upload-metadata': `filename ${b64('x.apk')},channel_key ${b64(ch.slug)}` },
    });
    expect(resumable.status).toBe(503);
    expect(await resumable.json()).toEqual({ error: 'A dependency is unavailable, try again shortly' });
    // Nothing is sent while NATS is down, shown by state rather than by two seconds of silence:
    // webhooks are made only from published events, and both events still wait in their writers'
    // outboxes (the release's record, the deleted scheme's tombstone), which the relay clears only
    // once NATS has taken them.
    expect({ release: await outboxPending('releases', 'releases', uploaded.body.id), scheme: await outboxPending('apps', 'schemes', doomed.id) }).toEqual({ release: true, scheme: true });
    expect(receiver.on('/outage')).toEqual([]);

    await startNats();
    const calls = await receiver.waitFor('/outage', 2, 60_000);
    const events = calls.map((c) => JSON.parse(c.body) as { event: string; release?: { id: number }; data?: { scheme_id: number } });
    expect(events.map((e) => e.event).sort()).toEqual(['release.created', 'scheme.deleted']);
    expect(events.find((e) => e.event === 'release.created')!.release!.id).toBe(uploaded.body.id);
    expect(events.find((e) => e.event === 'scheme.deleted')!.data!.scheme_id).toBe(doomed.id);
    for (const c of calls) expect(signatureValid(c, hook.secret)).toBe(true);
    // Nothing is sent twice, shown by state rather than by seconds of silence: both deliveries'
    // rows say delivered, which the dispatcher never takes again (it looks only at pending rows)...
    const ids = calls.map((c) => String(c.headers['x-hangar-delivery']));
    const mongo = new MongoClient(testInfrastructure().mongoUrl, { directConnection: true });
    try {
      const deliveries = mongo.db(`${hangar.dbPrefix}_webhooks`).collection<{ _id: string; state: string }>('webhook_deliveries');
      await eventually(async () => (await deliveries.countDocuments({ _id: { $in: ids }, state: 'delivered' })) === ids.length, 30_000, 'both deliveries marked delivered');
    } finally {
      await mongo.close();
    }
    // ...and a later event, through the same outbox, consumer and dispatcher, arrives as the third call.
    const later = (await api('POST', `/api/apps/${app.id}/schemes`, { token, json: { name: 'Later' } })).body;
    expect((await api('DELETE', `/api/schemes/${later.id}`, { token })).status).toBe(200);
    const all = await receiver.waitFor('/outage', 3, 30_000);
    expect(all.map((c) => JSON.parse(c.body).data?.scheme_id ?? null).slice(2)).toEqual([later.id]);
  });
});
