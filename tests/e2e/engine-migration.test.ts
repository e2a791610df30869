import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@hangar/infra';
import { ApiClient, RunningHangar, apiClient, createUserWithToken, eventually, fixturesDir, startHangar, uniqueName } from '@hangar/testing';

/**
 * Nothing lost on the way: a data dir written by the old engine
 * (FerretDB on SQLite) is carried over to FerretDB on PostgreSQL on the first
 * start. The test writes through Hangar on the old engine, restarts on the
 * same data dir with the default engine, and reads every record and file back.
 */
describe('from the SQLite engine to PostgreSQL', () => {
  const fixture = (...parts: string[]) => fs.readFileSync(path.join(fixturesDir(), ...parts));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-migrate-'));
  const prefix = uniqueName('migr').replace(/-/g, '_');
  let env: NodeJS.ProcessEnv;
  let hangar: RunningHangar | undefined;

  beforeAll(async () => {
    env = {
      MONGO_URL: '',
      POSTGRES_URL: '',
      HANGAR_MONGO_PORT: String(await freePort()),
      HANGAR_DB_PREFIX: prefix,
      NATS_SUBJECT_PREFIX: prefix.replace(/_/g, '-'),
      S3_BUCKET: prefix.replace(/_/g, '-'),
      HANGAR_ADMIN_TOKEN: `hgr_${randomBytes(16).toString('hex')}`,
      HANGAR_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    };
  });

  afterAll(async () => {
    await hangar?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('when Hangar starts on a data dir of the SQLite engine, then every record and file is there on PostgreSQL, once', async () => {
    // On the old engine: users, a token, apps, channels (one with a password), builds, a debug file, a webhook, a collaborator.
    hangar = await startHangar({ ...env, HANGAR_DB_ENGINE: 'sqlite' }, { dataDir, keepDataDir: true });
    expect(hangar.output()).toMatch(/FerretDB on SQLite started here/);
    let api = apiClient(hangar.baseUrl);
    const admin = env.HANGAR_ADMIN_TOKEN!;
    const bob = await createUserWithToken(api, admin, 'bob');
    const upload = async (a: ApiClient, fields: Record<string, string>, file: string) => {
      const res = await a('POST', '/api/apps/upload', { form: { token: admin, ...fields }, files: { file: { data: fixture('apps', file), fileName: file } } });
      if (res.status !== 201) throw new Error(`upload ${file}: ${res.status} ${res.text}`);
      return res.body;
    };
    const first = await upload(api, { name: 'Carried', password: 'gate-pass', changelog: '- first' }, 'android.apk');
    const second = await upload(api, { channel_key: first.channel.slug, git_commit: 'abc123' }, 'android.apk');
    const ios = await upload(api, { name: 'Carried' }, 'iphone.ipa');
    const debugForm = { token: admin, channel_key: ios.channel.slug, release_version: '1.0', build_version: '1' };
    const debug = await api('POST', '/api/debug_files/upload', { form: debugForm, files: { file: { data: fixture('dsyms', 'single_ios.dSYM.zip'), fileName: 'symbols.zip' } } });
    expect(debug.status).toBe(200);
    const hook = await api('POST', `/api/apps/${first.app.id}/webhooks`, { token: admin, json: { url: 'http://127.0.0.1:9/hook', events: ['release.created'] } });
    expect(hook.status).toBe(201);
    expect((await api('POST', `/api/apps/${first.app.id}/collaborators/${bob.id}`, { token: admin, form: { role: 'member' } })).status).toBe(201);

    // Absolute URLs name the port of each start: compared without it.
    const readAll = async (a: ApiClient) => withoutOrigin(hangar!.baseUrl, {
      app: (await a('GET', `/api/apps/${first.app.id}`, { token: admin })).body,
      androidVersions: (await a('GET', `/api/apps/versions?channel_key=${first.channel.slug}`)).body,
      iosVersions: (await a('GET', `/api/apps/versions?channel_key=${ios.channel.slug}`)).body,
      debugFiles: (await a('GET', `/api/debug_files?channel_key=${ios.channel.slug}`, { token: admin })).body,
      collaborators: (await a('GET', `/api/apps/${first.app.id}/collaborators`, { token: admin })).body,
      bob: (await a('GET', `/api/users/${bob.id}`, { token: admin })).body,
      hook: pick((await a('GET', `/api/webhooks/${hook.body.id}`, { token: admin })).body, ['id', 'app_id', 'url', 'events']),
    });
    let cookie = await unlock(hangar, first.channel.slug, 'gate-pass');
    const shas = await Promise.all([first.id, second.id, ios.id].map((id: number) => packageSha(hangar!, cookie, id)));
    const debugSha = await debugFileSha(hangar, admin, ios.channel.slug);
    // Downloads are counted off the request path: read once they are, so their counts must carry over too.
    type Versions = { releases: { download_count: number }[] };
    const allCounted = (read: unknown) => {
      const { androidVersions, iosVersions } = read as { androidVersions: Versions; iosVersions: Versions };
      return [...androidVersions.releases, ...iosVersions.releases].every((r) => r.download_count === 1);
    };
    let before = await readAll(api);
    await eventually(async () => allCounted((before = await readAll(api))), { timeoutMs: 10_000, stepMs: 100, what: 'every download counted', explain: () => JSON.stringify(before) });
    expect(await hangar.stop()).toBe(0);
    const sqliteFiles = fs.readdirSync(path.join(dataDir, 'ferretdb')).filter((f) => f.endsWith('.sqlite'));
    expect(sqliteFiles.length).toBeGreaterThan(0);

    // The same data dir, the default engine.
    hangar = await startHangar(env, { dataDir, keepDataDir: true });
    expect(hangar.output()).toMatch(/Carrying the SQLite engine's data/);
    expect(hangar.output()).toMatch(/Migrated \d+ collections \(\d+ documents\), counts verified/);
    expect(hangar.output()).toMatch(/FerretDB on PostgreSQL 18/);
    expect(fs.existsSync(path.join(dataDir, 'ferretdb', 'MIGRATED-TO-POSTGRESQL.json'))).toBe(true);
    expect(fs.readdirSync(path.join(dataDir, 'ferretdb')).filter((f) => f.endsWith('.sqlite'))).toEqual(sqliteFiles);
    api = apiClient(hangar.baseUrl);
    expect(await readAll(api)).toEqual(before);
    expect((await fetch(`${hangar.baseUrl}/releases/${first.id}`)).status).toBe(401);
    cookie = await unlock(hangar, first.channel.slug, 'gate-pass');
    expect(await Promise.all([first.id, second.id, ios.id].map((id: number) => packageSha(hangar!, cookie, id)))).toEqual(shas);
    expect(await debugFileSha(hangar, admin, ios.channel.slug)).toBe(debugSha);
    // The token still authenticates (the password still gated the page above), the counters go on.
    expect((await api('GET', '/api/users/me', { token: bob.token })).body.id).toBe(bob.id);
    const third = await upload(api, { channel_key: first.channel.slug }, 'android.apk');
    expect(third.version).toBe(second.version + 1);
    expect(third.id).toBeGreaterThan(ios.id);
    expect(await hangar.stop()).toBe(0);

    // Once: a later start does not copy again (the copy of the SQLite files would overwrite the new build).
    hangar = await startHangar(env, { dataDir, keepDataDir: true });
    expect(hangar.output()).not.toMatch(/Carrying the SQLite engine's data/);
    const versions = (await apiClient(hangar.baseUrl)('GET', `/api/apps/versions?channel_key=${first.channel.slug}`)).body;
    expect(versions.releases.map((r: { id: number }) => r.id)).toEqual([third.id, second.id, first.id]);
  }, 400_000);
});

function withoutOrigin(origin: string, value: unknown): unknown {
  return JSON.parse(JSON.stringify(value).split(origin).join('<origin>').split(encodeURIComponent(origin)).join('<origin>'));
}

function pick(body: Record<string, unknown>, keys: string[]) {
  return Object.fromEntries(keys.map((k) => [k, body[k]]));
}

async function sha(url: string): Promise<string> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return createHash('sha256').update(Buffer.from(await res.arrayBuffer())).digest('hex');
}

/** The install page's unlock of a protected channel, as a Cookie header. */
async function unlock(hangar: RunningHangar, slug: string, password: string): Promise<string> {
  const res = await fetch(`${hangar.baseUrl}/channels/${slug}/unlock`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ password }) });
  if (res.status !== 303) throw new Error(`unlock: ${res.status}`);
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

/** The package behind the download redirect, hashed. */
async function packageSha(hangar: RunningHangar, cookie: string, id: number): Promise<string> {
  const res = await fetch(`${hangar.baseUrl}/api/releases/${id}/download`, { redirect: 'manual', headers: { cookie } });
  if (res.status === 200) return createHash('sha256').update(Buffer.from(await res.arrayBuffer())).digest('hex');
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) throw new Error(`download ${id}: ${res.status}`);
  return sha(location);
}

async function debugFileSha(hangar: RunningHangar, token: string, channelKey: string): Promise<string> {
  const res = await fetch(`${hangar.baseUrl}/api/debug_files/download?channel_key=${channelKey}&release_version=1.0&token=${token}`, { redirect: 'manual' });
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) throw new Error(`debug file download: ${res.status}`);
  return sha(location);
}
