import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

/**
 * One backup is one folder:
 *
 *   databases/<database>/<collection>.ejsonl   every document, one canonical EJSON line each
 *   objects/<sha256 first two>/<sha256>        every object's bytes, stored once per content
 *   objects.jsonl                              one line per object: key, size, sha256, content type
 *   manifest.json                              the databases' files and objects.jsonl, each with its sha256
 *   complete.json                              written last: the manifest's sha256
 *
 * A folder without complete.json, or whose manifest does not hash to what complete.json says,
 * is a backup that stopped halfway (or was altered) and is never restored.
 */
export const BACKUP_FORMAT = 'hangar-backup/1';
export const MANIFEST_FILE = 'manifest.json';
export const COMPLETION_FILE = 'complete.json';
export const OBJECTS_FILE = 'objects.jsonl';
/** Backup folders a `backup` run makes inside the folder it is given: the name sorts by time. */
export const BACKUP_FOLDER_PREFIX = 'hangar-backup-';

export interface CollectionEntry {
  name: string;
  /** Relative to the backup folder. */
  file: string;
  documents: number;
  bytes: number;
  sha256: string;
  /** The collection's indexes as listIndexes answers them, `_id_` left out. */
  indexes: Record<string, unknown>[];
}

export interface DatabaseEntry {
  /** The service that owns it (`releases`), so a restore can name it under another prefix. */
  service: string;
  /** Its name where it was backed up (`hangar_releases`). */
  name: string;
  collections: CollectionEntry[];
}

export interface ObjectEntry {
  key: string;
  size: number;
  sha256: string;
  contentType: string;
}

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  /** When the dump of the databases began: nothing written after it is in this backup. */
  startedAt: string;
  finishedAt: string;
  source: { databasePrefix: string; bucket: string };
  databases: DatabaseEntry[];
  objects: { file: typeof OBJECTS_FILE; count: number; bytes: number; sha256: string };
}

export interface Completion {
  format: typeof BACKUP_FORMAT;
  manifestSha256: string;
  completedAt: string;
}

export const objectFile = (sha256: string) => path.join('objects', sha256.slice(0, 2), sha256);

export const collectionFile = (database: string, collection: string) =>
  // Collection names may hold characters a file name should not: keep letters, digits, `_`, `-`, `.`.
  path.join('databases', database, `${collection.replace(/[^A-Za-z0-9_.-]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}.ejsonl`);

/** SHA-256 (hex) and size of a file, read as a stream. */
export async function hashFile(file: string): Promise<{ sha256: string; size: number }> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  await pipeline(fs.createReadStream(file), async function* (chunks: AsyncIterable<Buffer>) {
    for await (const chunk of chunks) {
      hash.update(chunk);
      size += chunk.length;
    }
  });
  return { sha256: hash.digest('hex'), size };
}

/** Writes a small file whole or not at all: to a temporary name, then renamed. */
export function writeFileAtomically(file: string, text: string): void {
  const temporary = `${file}.partial`;
  fs.writeFileSync(temporary, text, { mode: 0o600 });
  fs.renameSync(temporary, file);
}

/** A backup that must not be restored, or a target that must not be restored into. Nothing was changed. */
export class BackupRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupRefused';
  }
}
