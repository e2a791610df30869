import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { MongoClient } from 'mongodb';
import { DATABASE_SERVICES, serviceDatabaseName } from '@hangar/config';
import type { ObjectStorage } from '@hangar/storage';
import { dumpDatabase } from './database-dump';
import { BACKUP_FOLDER_PREFIX, BACKUP_FORMAT, COMPLETION_FILE, type Completion, type DatabaseEntry, MANIFEST_FILE, type Manifest, OBJECTS_FILE, writeFileAtomically } from './layout';
import { copyObjects } from './object-copy';

export interface BackupSource {
  mongo: MongoClient;
  /** HANGAR_DB_PREFIX: the databases are `<prefix>_<service>`. */
  databasePrefix: string;
  storage: ObjectStorage;
}

export interface BackupReport {
  folder: string;
  manifest: Manifest;
  /** Objects listed but removed before they were read. */
  vanished: number;
}

/**
 * The services' databases in the order they are dumped: those whose records name another's
 * first (webhooks name apps and releases; releases and debug files name channels; apps name
 * users). A record is written after what it names, so what a dumped record names is still
 * there when its owner is dumped after it — the same reason the objects come last of all.
 */
export const DUMP_ORDER = [...DATABASE_SERVICES].reverse();

/** `hangar-backup-20261128T153000123Z`: sorts by time, and two runs a millisecond apart do not meet. */
export function backupFolderName(at: Date): string {
  return `${BACKUP_FOLDER_PREFIX}${at.toISOString().replace(/[-:.]/g, '')}`;
}

/**
 * Writes one backup into a new folder inside `parent`: the databases, then the objects, then the
 * manifest, and last the completion marker holding the manifest's hash. A run that stops before
 * the marker leaves a folder that restore refuses.
 */
export async function writeBackup(source: BackupSource, parent: string, now = new Date()): Promise<BackupReport> {
  const folder = path.join(parent, backupFolderName(now));
  fs.mkdirSync(folder, { recursive: false, mode: 0o700 });
  const databases: DatabaseEntry[] = [];
  for (const service of DUMP_ORDER) {
    const name = serviceDatabaseName(service, source.databasePrefix);
    databases.push({ service, name, collections: await dumpDatabase(source.mongo.db(name), folder) });
  }
  const objects = await copyObjects(source.storage, folder);
  const manifest: Manifest = {
    format: BACKUP_FORMAT,
    startedAt: now.toISOString(),
    finishedAt: new Date().toISOString(),
    source: { databasePrefix: source.databasePrefix, bucket: source.storage.bucket },
    databases,
    objects: { file: OBJECTS_FILE, count: objects.count, bytes: objects.bytes, sha256: objects.sha256 },
  };
  const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
  writeFileAtomically(path.join(folder, MANIFEST_FILE), manifestText);
  const completion: Completion = {
    format: BACKUP_FORMAT,
    manifestSha256: crypto.createHash('sha256').update(manifestText).digest('hex'),
    completedAt: new Date().toISOString(),
  };
  writeFileAtomically(path.join(folder, COMPLETION_FILE), `${JSON.stringify(completion, null, 2)}\n`);
  return { folder, manifest, vanished: objects.vanished };
}
