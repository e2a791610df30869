import type { MongoClient } from 'mongodb';
import { DATABASE_SERVICES, type DatabaseService, serviceDatabaseName } from '@hangar/config';
import type { ObjectStorage } from '@hangar/storage';
import { loadDatabase } from './database-dump';
import { BackupRefused, type Manifest } from './layout';
import { loadObjects } from './object-copy';
import { verifyBackup } from './verify';

export interface RestoreTarget {
  mongo: MongoClient;
  /** HANGAR_DB_PREFIX of the Hangar that will run on what is restored (may differ from the backup's). */
  databasePrefix: string;
  storage: ObjectStorage;
}

export interface RestoreReport {
  manifest: Manifest;
  documents: number;
  objects: number;
}

/**
 * Refuses a target that holds anything: a collection in any of the services' databases, or an
 * object in the bucket. A restore never overwrites or merges — data already there is either
 * another installation's or a half-finished restore, and only its operator can tell which.
 */
export async function checkTargetEmpty(target: RestoreTarget): Promise<void> {
  const held: string[] = [];
  for (const service of DATABASE_SERVICES) {
    const name = serviceDatabaseName(service, target.databasePrefix);
    const collections = (await target.mongo.db(name).listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).filter((n) => !n.startsWith('system.'));
    if (collections.length > 0) held.push(`database "${name}" holds ${collections.length} collection${collections.length === 1 ? '' : 's'} (${collections.slice(0, 3).join(', ')}${collections.length > 3 ? ', …' : ''})`);
  }
  if (await target.storage.client.bucketExists(target.storage.bucket)) {
    for await (const page of target.storage.listObjectPages('', 1)) {
      held.push(`bucket "${target.storage.bucket}" holds objects (${page[0]!.key}, …)`);
      break;
    }
  }
  if (held.length > 0) {
    throw new BackupRefused(
      `The target is not empty, and a restore never writes over data: ${held.join('; ')}. Nothing was restored. ` +
        'Restore into a new bucket and a new database prefix (HANGAR_DB_PREFIX), or empty these first if they are surely expendable (a restore that stopped halfway, say).',
    );
  }
}

/**
 * Restores one backup into an empty Hangar: checks the backup whole (verifyBackup) and the target
 * empty before anything is written, then the objects, then the databases. The installation id
 * comes back on both sides (`.hangar/installation.json` among the objects, the `installation`
 * collections among the databases), so the restored Hangar starts as the one backed up. Stopped
 * halfway, a restore leaves objects without databases — a Hangar refuses to start on that — and
 * the next restore refuses the non-empty target until it is emptied.
 */
export async function restoreBackup(folder: string, target: RestoreTarget): Promise<RestoreReport> {
  const manifest = await verifyBackup(folder);
  for (const database of manifest.databases) {
    if (!(DATABASE_SERVICES as readonly string[]).includes(database.service)) {
      throw new BackupRefused(`The backup holds a database of "${database.service}", a service this Hangar does not know. Nothing was restored.`);
    }
  }
  await checkTargetEmpty(target);
  await target.storage.ensureBucket();
  const objects = await loadObjects(target.storage, folder);
  let documents = 0;
  for (const database of manifest.databases) {
    const name = serviceDatabaseName(database.service as DatabaseService, target.databasePrefix);
    await loadDatabase(target.mongo.db(name), folder, database.collections);
    documents += database.collections.reduce((sum, c) => sum + c.documents, 0);
  }
  return { manifest, documents, objects };
}
