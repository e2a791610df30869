import fs from 'node:fs';
import path from 'node:path';
import type { Collection, MongoClient } from 'mongodb';
import { spawnManaged } from './child-processes';
import { ferretdbBinary } from './go-tools';
import { freePort, isListening, waitFor } from './net';

const HOST = '127.0.0.1';
const SYSTEM_DATABASES = new Set(['admin', 'local', 'config']);
const BATCH = 500;

/** Where FerretDB's SQLite backend keeps its files (one `.sqlite` file per database). */
export function sqliteDataDir(dataDir: string): string {
  return path.join(dataDir, 'ferretdb');
}

/** Written once every collection was copied and counted; its presence means "done". */
export function migrationMarker(dataDir: string): string {
  return path.join(sqliteDataDir(dataDir), 'MIGRATED-TO-POSTGRESQL.json');
}

export interface CollectionCopy {
  database: string;
  collection: string;
  documents: number;
  indexes: number;
}

/**
 * Carries a data directory written by the SQLite engine (Hangar before the
 * PostgreSQL default) over to the engine at `targetUrl`: every database and
 * collection, with its indexes, copied and counted. The SQLite files stay
 * where they are; a marker beside them records the copy so it runs once. A
 * copy that does not verify throws, and the launcher stops before any
 * service writes to the new engine. Copying upserts by `_id`, so a run
 * interrupted half-way is simply run again.
 */
export async function migrateSqliteData(options: {
  dataDir: string;
  logsDir: string;
  targetUrl: string;
  log: (line: string) => void;
}): Promise<CollectionCopy[] | undefined> {
  const { dataDir, logsDir, targetUrl, log } = options;
  const sourceDir = sqliteDataDir(dataDir);
  if (fs.existsSync(migrationMarker(dataDir))) return undefined;
  if (!fs.existsSync(sourceDir) || !fs.readdirSync(sourceDir).some((f) => f.endsWith('.sqlite'))) return undefined;

  log(`Carrying the SQLite engine's data (${sourceDir}) over to PostgreSQL; the SQLite files are kept`);
  const port = await freePort();
  const source = spawnManaged({
    name: 'ferretdb-sqlite-migration',
    command: ferretdbBinary(),
    args: ['-listen', `${HOST}:${port}`, '-data-dir', sourceDir],
    logFile: path.join(logsDir, 'ferretdb-sqlite-migration.log'),
  });
  try {
    await waitFor('FerretDB (SQLite, for the migration)', () => isListening(HOST, port), { timeoutMs: 30_000 });
    const copies = await copyAll(`mongodb://${HOST}:${port}`, targetUrl);
    fs.writeFileSync(migrationMarker(dataDir), `${JSON.stringify({ migratedAt: new Date().toISOString(), copies }, null, 2)}\n`);
    const documents = copies.reduce((sum, c) => sum + c.documents, 0);
    log(`Migrated ${copies.length} collections (${documents} documents), counts verified; remove ${sourceDir} once you no longer need it`);
    return copies;
  } catch (err) {
    throw new Error(
      `Could not carry ${sourceDir} over to PostgreSQL (${(err as Error).message}). Nothing was removed. ` +
        `Start again to retry, or keep the old engine for now with HANGAR_DB_ENGINE=sqlite npm run up`,
    );
  } finally {
    await source.stop(5_000);
  }
}

async function copyAll(sourceUrl: string, targetUrl: string): Promise<CollectionCopy[]> {
  // The driver is loaded only when there is SQLite data to move (a rare, one-time step), not with @hangar/infra.
  const { MongoClient: Mongo } = require('mongodb') as typeof import('mongodb');
  const source = new Mongo(sourceUrl, { directConnection: true });
  const target = new Mongo(targetUrl, { directConnection: true });
  await Promise.all([source.connect(), target.connect()]);
  try {
    const copies: CollectionCopy[] = [];
    const { databases } = await source.db('admin').admin().listDatabases({ nameOnly: true });
    for (const { name: database } of databases) {
      if (SYSTEM_DATABASES.has(database)) continue;
      const collections = await source.db(database).listCollections({}, { nameOnly: true }).toArray();
      for (const { name: collection } of collections) {
        copies.push(await copyCollection(source, target, database, collection));
      }
    }
    return copies;
  } finally {
    await Promise.all([source.close(), target.close()]);
  }
}

async function copyCollection(source: MongoClient, target: MongoClient, database: string, collection: string): Promise<CollectionCopy> {
  const from = source.db(database).collection(collection);
  const to = target.db(database).collection(collection);
  await target.db(database).createCollection(collection).catch((err: { codeName?: string }) => {
    if (err.codeName !== 'NamespaceExists') throw err;
  });

  let indexes = 0;
  for (const index of await from.listIndexes().toArray()) {
    if (index.name === '_id_') continue;
    await to.createIndex(index.key, { name: index.name, unique: index.unique === true, sparse: index.sparse === true });
    indexes++;
  }

  let batch: { replaceOne: { filter: object; replacement: object; upsert: true } }[] = [];
  const flush = async () => {
    if (batch.length > 0) await to.bulkWrite(batch, { ordered: false });
    batch = [];
  };
  for await (const document of from.find({})) {
    batch.push({ replaceOne: { filter: { _id: document._id }, replacement: document, upsert: true } });
    if (batch.length >= BATCH) await flush();
  }
  await flush();

  const [expected, copied] = await Promise.all([from.countDocuments({}), to.countDocuments({})]);
  if (copied < expected) throw new Error(`${database}.${collection}: ${copied} of ${expected} documents copied`);
  // Every source document by _id, not only the count: a target that held other documents could hide a gap.
  const missing = await findMissing(from, to);
  if (missing > 0) throw new Error(`${database}.${collection}: ${missing} documents missing after the copy`);
  return { database, collection, documents: expected, indexes };
}

async function findMissing(from: Collection, to: Collection): Promise<number> {
  const targetIds = new Set<string>();
  for await (const d of to.find({}, { projection: { _id: 1 } })) targetIds.add(JSON.stringify(d._id));
  let missing = 0;
  for await (const d of from.find({}, { projection: { _id: 1 } })) if (!targetIds.has(JSON.stringify(d._id))) missing++;
  return missing;
}
