import path from 'node:path';
import { REPO_ROOT, resolveInfrastructure, type Infrastructure } from '@hangar/infra';

type InfraHolder = { __hangarInfra?: Infrastructure };

/**
 * Resolves MongoDB-wire, NATS and S3 once for a whole jest run, exactly as
 * `npm run up` does, and hands the addresses to the test workers through the
 * environment (workers start after this and inherit it).
 *
 * Jest runs every project's global setup in the same process, one after the
 * other. The first call starts the servers; later calls must reuse that
 * handle rather than replace it — a replaced handle is never stopped, its
 * child processes keep jest alive after the run, and CI hangs until its
 * time limit.
 */
export default async function globalSetup(): Promise<void> {
  const holder = globalThis as InfraHolder;
  if (holder.__hangarInfra) return;
  // The run the workers' shared Hangars belong to (shared-hangar.ts), stopped by the teardown.
  process.env.HANGAR_JEST_RUN_PID = String(process.pid);
  const infra = await resolveInfrastructure({
    dataDir: process.env.HANGAR_TEST_DATA_DIR ?? path.join(REPO_ROOT, '.hangar', 'test'),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  holder.__hangarInfra = infra;
  process.env.MONGO_URL = infra.mongoUrl;
  if (infra.postgresUrl) process.env.HANGAR_TEST_POSTGRES_URL = infra.postgresUrl;
  process.env.NATS_URL = infra.natsUrl;
  process.env.S3_ENDPOINT = infra.s3.endpoint;
  process.env.S3_ACCESS_KEY = infra.s3.accessKey;
  process.env.S3_SECRET_KEY = infra.s3.secretKey;
}
