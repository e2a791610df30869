#!/usr/bin/env node
import { MongoClient } from 'mongodb';
import { ConfigError, DEFAULT_DATABASE_PREFIX, loadConfig, mongoUrl, storageFields, z } from '@hangar/config';
import { ObjectStorage } from '@hangar/storage';
import { writeBackup } from './backup';
import { BackupRefused } from './layout';
import { pruneBackups } from './retention';
import { restoreBackup } from './restore';
import { verifyBackup } from './verify';

/** Exit codes: what went wrong, for a CronJob's or a script's sake. */
export const EXIT_USAGE = 2;
/** The backup is incomplete or damaged, or the restore's target is not empty: nothing was written. */
export const EXIT_REFUSED = 3;

const USAGE = `Usage (with the services' own MONGO_URL, HANGAR_DB_PREFIX and S3_* settings in the environment):
  backup <folder> [--keep <n>]   write a backup into a new hangar-backup-<time> folder inside <folder>;
                                 --keep: then remove all but the newest <n> complete backups there
  restore <backup folder>        check the backup whole, then restore it into an empty Hangar
  verify <backup folder>         check the backup whole (completion marker, every file's sha256)`;

/** The services' settings the tool reads: the same names and checks as the services'. */
const backupConfigSchema = z.object({
  MONGO_URL: mongoUrl,
  HANGAR_DB_PREFIX: z.string().regex(/^[A-Za-z0-9_]+$/, 'expected letters, digits and _').default(DEFAULT_DATABASE_PREFIX),
  S3_ENDPOINT: storageFields.S3_ENDPOINT,
  S3_ACCESS_KEY: storageFields.S3_ACCESS_KEY,
  S3_SECRET_KEY: storageFields.S3_SECRET_KEY,
  S3_BUCKET: storageFields.S3_BUCKET,
  S3_REGION: storageFields.S3_REGION,
});

/** The tool's settings from `env` (the process's by default); throws ConfigError naming each problem. */
export function loadBackupConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(backupConfigSchema, env);
}

function parseArguments(argv: string[]): { command: string; folder: string; keep?: number } {
  const [command, folder, ...rest] = argv;
  if (!command || !['backup', 'restore', 'verify'].includes(command) || !folder || folder.startsWith('-')) throw new UsageError();
  let keep: number | undefined;
  for (let i = 0; i < rest.length; i += 1) {
    if (rest[i] === '--keep' && command === 'backup') {
      keep = Number(rest[i + 1]);
      if (!Number.isInteger(keep) || keep < 1) throw new UsageError(`--keep takes a whole number of at least 1, not "${rest[i + 1] ?? ''}"`);
      i += 1;
    } else throw new UsageError(`unknown argument "${rest[i]}"`);
  }
  return { command, folder, keep };
}

class UsageError extends Error {}

async function run(argv: string[]): Promise<number> {
  const args = parseArguments(argv);
  if (args.command === 'verify') {
    const manifest = await verifyBackup(args.folder);
    console.log(`${args.folder}: complete and intact — ${manifest.databases.length} databases, ${manifest.objects.count} objects (${manifest.objects.bytes} bytes), begun ${manifest.startedAt}`);
    return 0;
  }
  const config = loadBackupConfig();
  const storage = new ObjectStorage({ endpoint: config.S3_ENDPOINT, accessKey: config.S3_ACCESS_KEY, secretKey: config.S3_SECRET_KEY, bucket: config.S3_BUCKET, region: config.S3_REGION });
  const mongo = new MongoClient(config.MONGO_URL);
  await mongo.connect();
  try {
    if (args.command === 'backup') {
      const report = await writeBackup({ mongo, databasePrefix: config.HANGAR_DB_PREFIX, storage }, args.folder);
      const { manifest } = report;
      const documents = manifest.databases.flatMap((d) => d.collections).reduce((sum, c) => sum + c.documents, 0);
      console.log(`backup written to ${report.folder}: ${documents} documents in ${manifest.databases.length} databases, ${manifest.objects.count} objects (${manifest.objects.bytes} bytes)`);
      if (report.vanished > 0) console.log(`${report.vanished} objects were removed from the bucket while the backup ran and are not in it`);
      if (args.keep) {
        const pruned = pruneBackups(args.folder, args.keep);
        for (const name of pruned.removed) console.log(`removed ${name} (older than the newest ${args.keep})`);
        for (const name of pruned.removedIncomplete) console.log(`removed ${name} (a backup that never finished)`);
      }
    } else {
      const report = await restoreBackup(args.folder, { mongo, databasePrefix: config.HANGAR_DB_PREFIX, storage });
      console.log(
        `restored ${args.folder} (begun ${report.manifest.startedAt}) into databases ${config.HANGAR_DB_PREFIX}_* and bucket "${config.S3_BUCKET}": ` +
          `${report.documents} documents, ${report.objects} objects. Start Hangar with the same INSTALL_SECRET and WEBHOOK_SECRET_KEY as the Hangar backed up.`,
      );
    }
    return 0;
  } finally {
    await mongo.close();
  }
}

if (require.main === module) {
  run(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (err: unknown) => {
      if (err instanceof UsageError) {
        console.error(`${err.message ? `${err.message}\n` : ''}${USAGE}`);
        process.exitCode = EXIT_USAGE;
      } else if (err instanceof ConfigError) {
        console.error(err.message);
        process.exitCode = EXIT_USAGE;
      } else if (err instanceof BackupRefused) {
        console.error(`refused: ${err.message}`);
        process.exitCode = EXIT_REFUSED;
      } else {
        // The message only: a driver error's fields can carry the connection string.
        console.error(`failed: ${err instanceof Error ? err.message : String(err)}`);
        process.exitCode = 1;
      }
    },
  );
}
