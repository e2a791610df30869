import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { Client } from 'pg';
import { FERRETDB_HIDDEN_NAME } from '@hangar/config';
import { uniqueName } from '@hangar/testing';
import { spawnManaged } from '../src/child-processes';
import { ferretdbBinary } from '../src/go-tools';
import { freePort, isListening, waitFor } from '../src/net';
import { ferretdbPostgresUrl, startEmbeddedPostgres } from '../src/postgres';

/**
 * Why a database name may not begin with "pg" (libs/config `mongoDatabase`, the
 * launcher's HANGAR_DB_PREFIX): FerretDB 1.24 on PostgreSQL lists its databases
 * at start with `LIKE 'pg_%'`, so it does not find `pgx_…` again after a restart,
 * and a write into it then fails for good. CI met it as a service that could not
 * start ("apps exited (1)" for a minute) when the suite used the prefix `pgurl`
 * and FerretDB loaded its databases a second time. When a FerretDB upgrade makes
 * this test fail, the rule can go.
 */
describe('FerretDB on PostgreSQL and database names beginning with "pg"', () => {
  // The suite's PostgreSQL; one of this test's own when the suite's MongoDB-wire server is not ours.
  const ownDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-hidden-names-'));
  let serverUrl = process.env.HANGAR_TEST_POSTGRES_URL ?? '';
  let own: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;

  beforeAll(async () => {
    fs.chmodSync(ownDir, 0o755);
    if (!serverUrl) {
      own = await startEmbeddedPostgres(path.join(ownDir, 'pg'), path.join(ownDir, 'logs'), () => {});
      serverUrl = own.url;
    }
  }, 90_000);

  afterAll(async () => {
    await own?.process.stop(5_000);
    fs.rmSync(ownDir, { recursive: true, force: true });
  });

  it('when FerretDB restarts, then it finds hangar_x and PGx_x again but not pgx_x, and writes into pgx_x fail', async () => {
    const database = uniqueName('hidden_names').replace(/-/g, '_');
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${database}"`);
    const databaseUrl = new URL(serverUrl);
    databaseUrl.pathname = `/${database}`;
    const port = await freePort();
    const start = async () => {
      const ferretdb = spawnManaged({
        name: 'ferretdb-hidden-names',
        command: ferretdbBinary(),
        args: ['-listen', `127.0.0.1:${port}`],
        env: { ...process.env, FERRETDB_POSTGRESQL_URL: ferretdbPostgresUrl(databaseUrl.toString()) },
      });
      await waitFor('FerretDB', () => isListening('127.0.0.1', port), { timeoutMs: 30_000 });
      const client = new MongoClient(`mongodb://127.0.0.1:${port}`, { directConnection: true });
      await client.connect();
      return { ferretdb, client };
    };
    const names = ['hangar_x', 'PGx_x', 'pgx_x'];
    let running = await start();
    try {
      for (const name of names) await running.client.db(name).collection('things').insertOne({ n: 1 });
      await running.client.close();
      await running.ferretdb.stop(5_000);

      running = await start();
      const found = (await running.client.db('admin').admin().listDatabases()).databases.map((d) => d.name);
      expect(names.filter((name) => found.includes(name))).toEqual(['hangar_x', 'PGx_x']);
      expect(names.filter((name) => FERRETDB_HIDDEN_NAME.test(name))).toEqual(['pgx_x']);
      await expect(running.client.db('pgx_x').collection('other').insertOne({ n: 1 })).rejects.toThrow(/_ferretdb_database_metadata" already exists/);
      expect(await running.client.db('hangar_x').collection('things').countDocuments()).toBe(1);
    } finally {
      await running.client.close();
      await running.ferretdb.stop(5_000);
      await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await admin.end();
    }
  }, 60_000);
});
