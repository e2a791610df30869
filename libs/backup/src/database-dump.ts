import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { once } from 'node:events';
import { BSON, type Db, type Document } from 'mongodb';

const { EJSON } = BSON;
import { type CollectionEntry, collectionFile } from './layout';

/**
 * Counters last: a counter is raised before the record that takes its number is written, so a
 * counter read after the records is at least every id they hold, and a restored Hangar never
 * hands out an id twice. The other collections in name order.
 */
const LAST = ['counter_claims', 'counters'];

function dumpOrder(names: string[]): string[] {
  const rest = names.filter((n) => !LAST.includes(n)).sort();
  return [...rest, ...LAST.filter((n) => names.includes(n))];
}

/**
 * Every document of every collection of `db` into `<root>/databases/<db>/`, one canonical EJSON
 * line each (Int32, Double, Long, ObjectId, Date and Binary come back as they were), read with
 * a cursor: memory holds a batch, whatever the collection holds.
 */
export async function dumpDatabase(db: Db, root: string): Promise<CollectionEntry[]> {
  const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).filter((n) => !n.startsWith('system.'));
  const entries: CollectionEntry[] = [];
  for (const name of dumpOrder(names)) {
    const collection = db.collection(name);
    const indexes = (await collection.listIndexes().toArray()).filter((index) => index.name !== '_id_');
    const file = collectionFile(db.databaseName, name);
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    const out = fs.createWriteStream(path.join(root, file), { mode: 0o600 });
    const hash = crypto.createHash('sha256');
    let documents = 0;
    let bytes = 0;
    const cursor = collection.find({}, { promoteValues: false, promoteLongs: false, promoteBuffers: false, batchSize: 500 });
    for await (const doc of cursor) {
      const line = Buffer.from(`${EJSON.stringify(doc, { relaxed: false })}\n`);
      hash.update(line);
      bytes += line.length;
      documents += 1;
      if (!out.write(line)) await once(out, 'drain');
    }
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    entries.push({ name, file, documents, bytes, sha256: hash.digest('hex'), indexes });
  }
  return entries;
}

const INSERT_BATCH = 500;

/** Index options a restore passes on; the server's own fields (`v`, `ns`) are left to it. */
function indexSpec(index: Record<string, unknown>) {
  const { v: _v, ns: _ns, ...spec } = index;
  return spec as { key: Record<string, 1 | -1>; name: string } & Document;
}

/** Loads what dumpDatabase wrote into `db`, whose collections must not exist yet (the restore checks). */
export async function loadDatabase(db: Db, root: string, collections: CollectionEntry[]): Promise<void> {
  for (const entry of collections) {
    await db.createCollection(entry.name);
    const collection = db.collection(entry.name);
    if (entry.indexes.length > 0) await collection.createIndexes(entry.indexes.map(indexSpec));
    const lines = readline.createInterface({ input: fs.createReadStream(path.join(root, entry.file)), crlfDelay: Infinity });
    let batch: Document[] = [];
    let loaded = 0;
    for await (const line of lines) {
      if (line === '') continue;
      batch.push(EJSON.parse(line, { relaxed: false }) as Document);
      if (batch.length >= INSERT_BATCH) {
        await collection.insertMany(batch, { ordered: true });
        loaded += batch.length;
        batch = [];
      }
    }
    if (batch.length > 0) await collection.insertMany(batch, { ordered: true });
    loaded += batch.length;
    if (loaded !== entry.documents) throw new Error(`${db.databaseName}.${entry.name}: loaded ${loaded} documents, the manifest lists ${entry.documents}`);
  }
}
