import type { Connection } from 'mongoose';
import { isDuplicateKeyError } from './mongo-errors';

interface InstallationDocument {
  _id: string;
  id: string;
  recordedAt: Date;
}

const DOC_ID = 'installation';

/**
 * The database side of the installation id (@hangar/storage checkInstallation): one document in
 * the `installation` collection of the service's own database. `recordCollections`: the
 * collections whose documents refer to objects in the bucket; any document in them is "records".
 */
export function installationRecord(connection: Connection, recordCollections: readonly string[]) {
  const docs = () => connection.collection<InstallationDocument>('installation');
  return {
    async read(): Promise<string | undefined> {
      return (await docs().findOne({ _id: DOC_ID }))?.id;
    },
    async claim(id: string): Promise<string> {
      // Replicas starting together agree on one id: the first upsert inserts it, the others find
      // it. Two upserts racing to insert end in E11000 for the later one on FerretDB (MongoDB
      // retries those itself): the document is there then, and reading it is the answer.
      try {
        await docs().updateOne({ _id: DOC_ID }, { $setOnInsert: { id, recordedAt: new Date() } }, { upsert: true });
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
      return (await docs().findOne({ _id: DOC_ID }))!.id;
    },
    async replace(id: string): Promise<void> {
      await docs().updateOne({ _id: DOC_ID }, { $set: { id, recordedAt: new Date() } }, { upsert: true });
    },
    async holdsRecords(): Promise<boolean> {
      return (await recordCount(connection, recordCollections)) > 0;
    },
  };
}

/** Documents in these collections (the count the collection keeps: no query, no scan). */
export async function recordCount(connection: Connection, collections: readonly string[]): Promise<number> {
  let total = 0;
  for (const name of collections) total += await connection.collection(name).estimatedDocumentCount();
  return total;
}
