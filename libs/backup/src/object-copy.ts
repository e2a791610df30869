import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { type ObjectStorage, TRASH_PREFIX, isGoneFromStorage } from '@hangar/storage';
import { OBJECTS_FILE, type ObjectEntry, objectFile } from './layout';

export interface CopiedObjects {
  count: number;
  bytes: number;
  /** sha256 of objects.jsonl. */
  sha256: string;
  /** Listed, then gone before it was read (removed since: a build deleted during the backup). */
  vanished: number;
}

/**
 * Every object of the bucket but `trash/` (the orphan janitor's holding place) into
 * `<root>/objects/`, each streamed through SHA-256 to a file named by its hash (one copy per
 * content), and one line per object in objects.jsonl. Listed after the databases were dumped:
 * an object is written before any record that names it, so every object a dumped record names
 * is listed here.
 */
export async function copyObjects(storage: ObjectStorage, root: string): Promise<CopiedObjects> {
  const list = fs.createWriteStream(path.join(root, OBJECTS_FILE), { mode: 0o600 });
  const listHash = crypto.createHash('sha256');
  let count = 0;
  let bytes = 0;
  let vanished = 0;
  for await (const page of storage.listObjectPages('')) {
    for (const { key } of page) {
      if (key.startsWith(TRASH_PREFIX)) continue;
      const entry = await copyObject(storage, root, key);
      if (!entry) {
        vanished += 1;
        continue;
      }
      const line = Buffer.from(`${JSON.stringify(entry)}\n`);
      listHash.update(line);
      if (!list.write(line)) await once(list, 'drain');
      count += 1;
      bytes += entry.size;
    }
  }
  await new Promise<void>((resolve, reject) => list.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return { count, bytes, sha256: listHash.digest('hex'), vanished };
}

async function copyObject(storage: ObjectStorage, root: string, key: string): Promise<ObjectEntry | undefined> {
  const temporary = path.join(root, 'objects', `.partial-${crypto.randomUUID()}`);
  fs.mkdirSync(path.dirname(temporary), { recursive: true });
  const hash = crypto.createHash('sha256');
  let size = 0;
  let contentType: string;
  try {
    const stat = await storage.client.statObject(storage.bucket, key);
    contentType = (stat.metaData?.['content-type'] as string | undefined) ?? 'application/octet-stream';
    await pipeline(
      await storage.client.getObject(storage.bucket, key),
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          hash.update(chunk);
          size += chunk.length;
          yield chunk;
        }
      },
      fs.createWriteStream(temporary, { mode: 0o600 }),
    );
  } catch (err) {
    fs.rmSync(temporary, { force: true });
    if (isGoneFromStorage(err)) return undefined;
    throw err;
  }
  const sha256 = hash.digest('hex');
  const file = path.join(root, objectFile(sha256));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.renameSync(temporary, file);
  return { key, size, sha256, contentType };
}

/** Reads objects.jsonl a line at a time. */
export async function* objectEntries(root: string): AsyncGenerator<ObjectEntry> {
  const lines = readline.createInterface({ input: fs.createReadStream(path.join(root, OBJECTS_FILE)), crlfDelay: Infinity });
  for await (const line of lines) if (line !== '') yield JSON.parse(line) as ObjectEntry;
}

/** Streams every listed object from its file back into the bucket under its key. */
export async function loadObjects(storage: ObjectStorage, root: string): Promise<number> {
  let count = 0;
  for await (const entry of objectEntries(root)) {
    await storage.putStream(entry.key, fs.createReadStream(path.join(root, objectFile(entry.sha256))), { contentType: entry.contentType });
    count += 1;
  }
  return count;
}
