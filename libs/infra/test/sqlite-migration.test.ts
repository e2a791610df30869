import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { testInfrastructure, uniqueName } from '@hangar/testing';
import { spawnManaged } from '../src/child-processes';
import { ferretdbBinary } from '../src/go-tools';
import { freePort, isListening, waitFor } from '../src/net';
import { migrateSqliteData, migrationMarker, sqliteDataDir } from '../src/sqlite-migration';

/**
 * The copy from the SQLite engine when it cannot be verified: the target holds
 * a document that the copy's unique index refuses. The launcher must stop
 * before any service writes, say why and what to run meanwhile, and leave the
 * SQLite files and the target as they were, so a later start tries again.
 */
describe('carrying a SQLite data dir over', () => {
  const { mongoUrl } = testInfrastructure();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-migration-'));
  const database = uniqueName('migr_ct').replace(/-/g, '_');

  afterAll(async () => {
    const target = new MongoClient(mongoUrl, { directConnection: true });
    await target.connect();
    await target.db(database).dropDatabase().catch(() => undefined);
    await target.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Writes into a FerretDB on SQLite over `dataDir`, as the old engine did. */
  async function writeOldEngine(write: (client: MongoClient) => Promise<void>) {
    const port = await freePort();
    const ferretdb = spawnManaged({ name: 'ferretdb-old', command: ferretdbBinary(), args: ['-listen', `127.0.0.1:${port}`, '-data-dir', sqliteDataDir(dataDir)] });
    try {
      await waitFor('FerretDB (SQLite)', () => isListening('127.0.0.1', port), { timeoutMs: 30_000 });
      const client = new MongoClient(`mongodb://127.0.0.1:${port}`, { directConnection: true });
      await client.connect();
      await write(client);
      await client.close();
    } finally {
      await ferretdb.stop(5_000);
    }
  }

  it('when the target refuses a document, then the copy throws the reason and what to run meanwhile, and marks nothing done', async () => {
    await writeOldEngine(async (client) => {
      const users = client.db(database).collection<{ _id: number; email: string }>('users');
      await users.createIndex({ email: 1 }, { unique: true });
      await users.insertMany([{ _id: 1, email: 'ann@example.com' }, { _id: 2, email: 'bob@example.com' }]);
    });
    const target = new MongoClient(mongoUrl, { directConnection: true });
    await target.connect();
    try {
      const users = target.db(database).collection<{ _id: number; email: string }>('users');
      await users.createIndex({ email: 1 }, { unique: true });
      // Another document with bob's address: the copy of bob cannot land.
      await users.insertOne({ _id: 7, email: 'bob@example.com' });
      const logs: string[] = [];
      await expect(migrateSqliteData({ dataDir, logsDir: path.join(dataDir, 'logs'), targetUrl: mongoUrl, log: (l) => logs.push(l) })).rejects.toThrow(
        /Could not carry .* over to PostgreSQL .*Nothing was removed.*HANGAR_DB_ENGINE=sqlite npm run up/s,
      );
      expect(fs.existsSync(migrationMarker(dataDir))).toBe(false);
      expect(fs.readdirSync(sqliteDataDir(dataDir)).some((f) => f.endsWith('.sqlite'))).toBe(true);

      // Once the conflict is gone, the next start copies everything and says so.
      await users.deleteOne({ _id: 7 });
      const copies = await migrateSqliteData({ dataDir, logsDir: path.join(dataDir, 'logs'), targetUrl: mongoUrl, log: (l) => logs.push(l) });
      expect(copies).toEqual([{ database, collection: 'users', documents: 2, indexes: 1 }]);
      expect((await users.find({}).sort({ _id: 1 }).toArray()).map((u) => u.email)).toEqual(['ann@example.com', 'bob@example.com']);
      expect(fs.existsSync(migrationMarker(dataDir))).toBe(true);
      expect(await migrateSqliteData({ dataDir, logsDir: path.join(dataDir, 'logs'), targetUrl: mongoUrl, log: (l) => logs.push(l) })).toBeUndefined();
    } finally {
      await target.close();
    }
  }, 120_000);
});
