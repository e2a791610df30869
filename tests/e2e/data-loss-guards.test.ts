import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { freePort } from '@hangar/infra';
import { ObjectStorage } from '@hangar/storage';
import { RunningHangar, apiClient, fixturesDir, startHangar, testInfrastructure, uniqueName } from '@hangar/testing';

/**
 * Nothing is lost when the database goes missing, is the wrong one, or is dropped.
 * Before it, each of these started (or kept running) on an empty database, and the storage
 * janitor then removed every build from the bucket as an orphan.
 */
describe('the database and the bucket belong together', () => {
  const infra = testInfrastructure();
  const apk = fs.readFileSync(path.join(fixturesDir(), 'apps', 'android.apk'));
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  async function upload(hangar: RunningHangar) {
    const up = await apiClient(hangar.baseUrl)('POST', '/api/apps/upload', { form: { token: hangar.adminToken }, files: { file: { data: apk, fileName: 'android.apk' } } });
    expect(up.status).toBe(201);
    return up.body;
  }

  /** Every key in the bucket, the installation marker included. */
  async function keysOf(bucket: string): Promise<string[]> {
    const storage = new ObjectStorage({ ...infra.s3, bucket });
    const keys: string[] = [];
    for await (const page of storage.listObjectPages('')) keys.push(...page.map((o) => o.key));
    return keys.sort();
  }

  const buildKeys = (keys: string[]) => keys.filter((k) => /^(packages|icons)\//.test(k));

  it('when the PostgreSQL folder is removed between two starts, then the next start is refused with the reason and every object stays in the bucket', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-pg-lost-'));
    const env = {
      MONGO_URL: '',
      POSTGRES_URL: '',
      HANGAR_MONGO_PORT: String(await freePort()),
      HANGAR_DB_PREFIX: uniqueName('lostpg').replace(/-/g, '_'),
      S3_BUCKET: uniqueName('pg-lost'),
    };
    try {
      const hangar = await startHangar(env, { dataDir, keepDataDir: true });
      try {
        await upload(hangar);
      } finally {
        expect(await hangar.stop()).toBe(0);
      }
      const before = await keysOf(env.S3_BUCKET);
      expect(buildKeys(before).length).toBeGreaterThanOrEqual(1);
      expect(before).toContain('.hangar/installation.json');

      // What systemd-tmpfiles did to /var/tmp/hangar-postgres/<hash>.
      fs.rmSync(path.join(fs.realpathSync(path.join(dataDir, 'postgres'))), { recursive: true, force: true });

      const refused = await startHangar(env, { dataDir, keepDataDir: true }).then(
        async (h) => {
          await h.stop();
          return undefined;
        },
        (err: Error) => err,
      );
      expect(refused?.message).toMatch(/PostgreSQL's data is missing: .*postgres.* held Hangar's database/);
      expect(refused?.message).toMatch(/Restore the folder from a backup/);
      expect(refused?.message).not.toMatch(/Creating a PostgreSQL/);
      expect(fs.existsSync(path.join(dataDir, 'postgres', 'data', 'PG_VERSION'))).toBe(false);
      expect(await keysOf(env.S3_BUCKET)).toEqual(before);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 420_000);

  it('when the database prefix is switched to an empty database beside the populated bucket, then the start is refused naming both sides, and nothing is removed', async () => {
    const bucket = uniqueName('db-switch');
    const first = await startHangar({ S3_BUCKET: bucket, HANGAR_DB_PREFIX: uniqueName('dbsw').replace(/-/g, '_') });
    try {
      await upload(first);
    } finally {
      expect(await first.stop()).toBe(0);
    }
    const before = await keysOf(bucket);
    expect(buildKeys(before).length).toBeGreaterThanOrEqual(1);

    const emptyPrefix = uniqueName('dbempty').replace(/-/g, '_');
    const refused = await startHangar({ S3_BUCKET: bucket, HANGAR_DB_PREFIX: emptyPrefix, STORAGE_JANITOR_GRACE_MS: '1000', STORAGE_JANITOR_INTERVAL_MS: '1000' }).then(
      async (h) => {
        await h.stop();
        return undefined;
      },
      (err: Error) => err,
    );
    expect(refused?.message).toMatch(/The database is empty but the bucket holds Hangar's objects/);
    // At once, with the reason as the launcher's last word, not after a minute of restarts.
    expect(refused?.message).toMatch(/Hangar cannot start: (releases|debug-files)(\.\d+)?: \S+ service failed to start: The database is empty/);
    expect(refused?.message).not.toMatch(/restarting in/);
    expect(refused?.message).toContain(`${emptyPrefix}_releases`);
    expect(refused?.message).toContain(bucket);
    expect(refused?.message).toMatch(/HANGAR_ADOPT_BUCKET=/);
    expect(await keysOf(bucket)).toEqual(before);
  }, 420_000);

  it('when the database is dropped while Hangar runs, then the janitor refuses to sweep, says so, counts it, and every object stays where it was', async () => {
    const bucket = uniqueName('db-dropped');
    const prefix = uniqueName('dbdrop').replace(/-/g, '_');
    // Longer than an upload takes on a loaded machine: a shorter grace lets a sweep take a package
    // whose release is not recorded yet, before the database is dropped at all.
    const graceMs = 10_000;
    const hangar = await startHangar({ S3_BUCKET: bucket, HANGAR_DB_PREFIX: prefix, STORAGE_JANITOR_GRACE_MS: String(graceMs), STORAGE_JANITOR_INTERVAL_MS: '1000' });
    const mongo = new MongoClient(infra.mongoUrl);
    try {
      await upload(hangar);
      const uploadedAt = Date.now();
      const before = await keysOf(bucket);
      expect(buildKeys(before).length).toBeGreaterThanOrEqual(2);

      await mongo.connect();
      await mongo.db(`${prefix}_releases`).dropDatabase();

      const refusedLine = /"msg":"orphan sweep refused: the database and the bucket are not the same installation/;
      const deadline = Date.now() + 60_000;
      while (!refusedLine.test(hangar.logOf('releases')) && Date.now() < deadline) await sleep(250);
      expect(hangar.logOf('releases')).toMatch(refusedLine);
      expect(hangar.logOf('releases')).toMatch(/"level":"error".*The database lost its installation id while Hangar ran/);

      const refusals = async () => {
        let total = 0;
        for (const port of hangar.metricsPortsOf('releases')) {
          const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
          for (const [, value] of text.matchAll(/^hangar_storage_janitor_refused_total\{[^}]*reason="installation"[^}]*\} (\d+)/gm)) total += Number(value);
        }
        return total;
      };
      expect(await refusals()).toBeGreaterThan(0);
      // Then a sweep once the files are older than the grace, when a janitor without the guard would take them.
      while (Date.now() < uploadedAt + graceMs + 1_000) await sleep(250);
      const oldEnough = await refusals();
      const sweepDeadline = Date.now() + 60_000;
      while ((await refusals()) <= oldEnough && Date.now() < sweepDeadline) await sleep(250);
      expect(await refusals()).toBeGreaterThan(oldEnough);
      // Every build file where it was, nothing even in trash/.
      expect(await keysOf(bucket)).toEqual(before);
    } finally {
      await mongo.close();
      await hangar.stop();
    }
  }, 420_000);
});
