import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '@hangar/infra';
import { type RunningHangar, apiClient, eventually, fixturesDir, startHangar, testInfrastructure, uniqueName } from '@hangar/testing';
import { WebhookReceiver } from './webhook-receiver';

/**
 * `npm run backup` while uploads go on, then `npm run restore` into a new bucket and database
 * prefix, and Hangar started on what was restored: its answers are the ones the first Hangar
 * gave, every download the same bytes. A backup killed halfway is refused by restore.
 */
describe('backup and restore', () => {
  const infra = testInfrastructure();
  const receiver = new WebhookReceiver();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-backup-e2e-'));
  // The restored Hangar must open what the first one sealed and signed: the same secrets.
  const secrets = { WEBHOOK_SECRET_KEY: 'e2e-backup-webhook-secret-0123456789abcdef', INSTALL_SECRET: 'e2e-backup-install-secret-0123456789abcdef', HANGAR_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' };
  const fixture = (...parts: string[]) => fs.readFileSync(path.join(fixturesDir(), ...parts));
  let source: RunningHangar;
  let restored: RunningHangar | undefined;

  beforeAll(async () => {
    await receiver.start();
    source = await startHangar(secrets);
  });

  afterAll(async () => {
    await restored?.stop();
    await source?.stop();
    await receiver.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  /** The backup tool as an operator runs it: the services' environment, its own process. */
  function tool(args: string[], target: { prefix: string; bucket: string }): ChildProcess & { result: Promise<{ code: number | null; output: string }> } {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'libs', 'backup', 'dist', 'cli.js'), ...args], {
      env: { PATH: process.env.PATH, MONGO_URL: infra.mongoUrl, HANGAR_DB_PREFIX: target.prefix, S3_ENDPOINT: infra.s3.endpoint, S3_ACCESS_KEY: infra.s3.accessKey, S3_SECRET_KEY: infra.s3.secretKey, S3_BUCKET: target.bucket },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const result = new Promise<{ code: number | null; output: string }>((resolve) => child.once('exit', (code) => resolve({ code, output })));
    return Object.assign(child, { result });
  }

  async function upload(hangar: RunningHangar, file: Buffer, fileName: string, fields: Record<string, string> = {}, route = '/api/apps/upload') {
    const form = new FormData();
    form.append('token', hangar.adminToken);
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([file]), fileName);
    const res = await fetch(`${hangar.baseUrl}${route}`, { method: 'POST', body: form });
    const body = (await res.json()) as { id: number };
    if (res.status !== 201 && res.status !== 200) throw new Error(`upload of ${fileName}: ${res.status} ${JSON.stringify(body)}`);
    return body;
  }

  /** An answer with the Hangar's own origin (in links, plain and URL-encoded) made one placeholder: the two run on different ports. */
  const withoutOrigin = (body: unknown, hangar: RunningHangar) =>
    JSON.stringify(body).split(hangar.baseUrl).join('<origin>').split(encodeURIComponent(hangar.baseUrl)).join('<origin>');

  const bytes = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());

  it('when a populated Hangar is backed up while uploads go on and restored into a new bucket and database prefix, then the restored Hangar answers as the first did and every download is byte-identical; a backup killed halfway is refused', async () => {
    const api = apiClient(source.baseUrl);
    const token = source.adminToken;

    // An app of our own with an Android and an iOS channel, for debug files and a webhook.
    const app = (await api('POST', '/api/apps', { token, json: { name: uniqueName('Backed') } })).body;
    const scheme = (await api('POST', `/api/apps/${app.id}/schemes`, { token, json: { name: 'Beta' } })).body;
    const androidKey: string = (await api('POST', `/api/schemes/${scheme.id}/channels`, { token, json: { name: 'Android', device_type: 'android' } })).body.slug;
    const iosKey: string = (await api('POST', `/api/schemes/${scheme.id}/channels`, { token, json: { name: 'iOS', device_type: 'ios' } })).body.slug;
    expect([androidKey, iosKey].every(Boolean)).toBe(true);

    // Builds of every platform the fixtures hold: without a channel key each makes its own app.
    const builds: { id: number; file: Buffer }[] = [];
    for (const name of ['android.apk', 'tv.apk', 'iphone.ipa', 'ipad.ipa']) {
      const file = fixture('apps', name);
      builds.push({ id: (await upload(source, file, name)).id, file });
    }
    builds.push({ id: (await upload(source, fixture('apps', 'iphone.ipa'), 'iphone.ipa', { channel_key: iosKey })).id, file: fixture('apps', 'iphone.ipa') });

    // Debug files of both kinds.
    const dsym = await upload(source, fixture('dsyms', 'single_ios.dSYM.zip'), 'single_ios.dSYM.zip', { channel_key: iosKey }, '/api/debug_files/upload');
    const mapping = await upload(source, fixture('proguards', 'single_mapping.zip'), 'single_mapping.zip', { channel_key: androidKey, release_version: '1.0', build_version: '1' }, '/api/debug_files/upload');

    // A webhook, and a delivery made to it by a new build.
    const hook = (await api('POST', `/api/apps/${app.id}/webhooks`, { token, json: { url: receiver.url('/backup'), events: ['release.created'] } })).body;
    builds.push({ id: (await upload(source, fixture('apps', 'android.apk'), 'android.apk', { channel_key: androidKey })).id, file: fixture('apps', 'android.apk') });
    await eventually(async () => (await api('GET', `/api/webhooks/${hook.id}/deliveries`, { token })).body.some((d: { success: boolean }) => d.success), { timeoutMs: 60_000, what: 'the delivery made' });

    // A user with a token of their own.
    const name = uniqueName('keeper');
    const user = (await api('POST', '/api/users', { token, json: { username: name, email: `${name}@example.com`, password: 'long-enough-pw', role: 'developer' } })).body;
    const userToken = (await api('POST', `/api/users/${user.id}/tokens`, { token, json: { name: 'ci' } })).body;
    expect(userToken.token).toBeTruthy();

    /** What the restored Hangar must answer the same: every resource made above. */
    const paths = [
      ...(await api('GET', '/api/apps', { token })).body.map((a: { id: number }) => `/api/apps/${a.id}`),
      ...builds.map((b) => `/api/releases/${b.id}`),
      `/api/debug_files/${dsym.id}?channel_key=${iosKey}`,
      `/api/debug_files/${mapping.id}?channel_key=${androidKey}`,
      `/api/apps/${app.id}/webhooks`,
      `/api/webhooks/${hook.id}`,
      `/api/webhooks/${hook.id}/deliveries`,
      `/api/users/${user.id}`,
      `/api/users/${user.id}/tokens`,
    ];
    const answers = async (hangar: RunningHangar) => {
      const ask = apiClient(hangar.baseUrl);
      const all: Record<string, unknown> = {};
      for (const p of paths) all[p] = JSON.parse(withoutOrigin((await ask('GET', p, { token })).body, hangar));
      return all;
    };
    const before = await answers(source);

    // Uploads go on while the backup runs: a new app's builds, one after another.
    const during: { id: number; startedAt: number; answeredAt: number }[] = [];
    let uploading = true;
    const wear = fixture('apps', 'wear.apk');
    const uploads = (async () => {
      while (uploading) {
        const startedAt = Date.now();
        const { id } = await upload(source, wear, 'wear.apk');
        during.push({ id, startedAt, answeredAt: Date.now() });
      }
    })();
    await eventually(() => during.length > 0, { timeoutMs: 60_000, what: 'a first upload of the stream' });

    // A backup killed once it is copying objects: restore refuses it.
    const backups = path.join(work, 'backups');
    fs.mkdirSync(backups);
    const sourceEnv = { prefix: source.dbPrefix, bucket: source.bucket };
    const killed = tool(['backup', backups], sourceEnv);
    const killedFolder = () => fs.readdirSync(backups).map((f) => path.join(backups, f))[0];
    await eventually(() => Boolean(killedFolder() && fs.existsSync(path.join(killedFolder()!, 'objects'))), { timeoutMs: 60_000, stepMs: 5, what: 'the backup copying objects' });
    killed.kill('SIGKILL');
    await killed.result;
    const interrupted = killedFolder()!;
    const target = { prefix: uniqueName('restored').replace(/-/g, '_'), bucket: uniqueName('e2e-restored') };
    const refused = await tool(['restore', interrupted], target).result;
    expect(refused.output).toMatch(/refused: .* has no complete\.json: this backup did not finish/);
    expect(refused.code).toBe(3);
    fs.rmSync(interrupted, { recursive: true });

    // The backup itself, begun while an upload is on its way.
    const backupStartedAt = Date.now();
    const backup = await tool(['backup', backups, '--keep', '2'], sourceEnv).result;
    const backupEndedAt = Date.now();
    expect(backup.output).toMatch(/backup written to /);
    expect(backup.code).toBe(0);
    uploading = false;
    await uploads;
    const [folder] = fs.readdirSync(backups);

    const restore = await tool(['restore', path.join(backups, folder!)], target).result;
    expect(restore.output).toMatch(/restored .* documents, \d+ objects/);
    expect(restore.code).toBe(0);
    // Into a target that now holds data, a second restore is refused.
    const again = await tool(['restore', path.join(backups, folder!)], target).result;
    expect(again.output).toMatch(/refused: The target is not empty/);
    expect(again.code).toBe(3);

    restored = await startHangar({ ...secrets, S3_BUCKET: target.bucket, HANGAR_DB_PREFIX: target.prefix, HANGAR_ADMIN_TOKEN: source.adminToken });
    expect(await answers(restored)).toEqual(before);

    // Every build the first Hangar acknowledged before the backup began is there; every one there
    // (those made during the backup included) is answered as the first Hangar answers it.
    const ask = apiClient(restored.baseUrl);
    const acknowledgedBefore = during.filter((u) => u.answeredAt < backupStartedAt);
    expect(acknowledgedBefore.length).toBeGreaterThan(0);
    const restoredDuring: number[] = [];
    for (const u of during) {
      const got = await ask('GET', `/api/releases/${u.id}`, { token });
      if (u.answeredAt < backupStartedAt) expect(got.status).toBe(200);
      if (got.status !== 200) continue;
      restoredDuring.push(u.id);
      const original = (await api('GET', `/api/releases/${u.id}`, { token })).body;
      expect(withoutOrigin(got.body, restored)).toBe(withoutOrigin(original, source));
    }
    expect(during.some((u) => u.startedAt < backupEndedAt && u.answeredAt > backupStartedAt)).toBe(true);

    for (const b of builds) expect((await bytes(`${restored.baseUrl}/api/releases/${b.id}/download`)).equals(b.file)).toBe(true);
    for (const id of restoredDuring) expect((await bytes(`${restored.baseUrl}/api/releases/${id}/download`)).equals(wear)).toBe(true);
    expect((await bytes(`${restored.baseUrl}/api/releases/${builds[0]!.id}/icon`)).equals(await bytes(`${source.baseUrl}/api/releases/${builds[0]!.id}/icon`))).toBe(true);
    expect((await bytes(`${restored.baseUrl}/api/debug_files/${dsym.id}/download?channel_key=${iosKey}&token=${token}`)).equals(fixture('dsyms', 'single_ios.dSYM.zip'))).toBe(true);
    // The user's own token opens the restored Hangar.
    expect((await ask('GET', '/api/users/me', { token: userToken.token })).body.id).toBe(user.id);
  }, 900_000);
});
