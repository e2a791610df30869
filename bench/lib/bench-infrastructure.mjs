// The servers a bench's installations run on — MongoDB-wire, NATS and S3 — resolved as
// `npm run up` resolves them (configured, else already running, else started here with their
// data under .hangar/bench), their addresses put in the environment every installation the
// bench starts inherits. The caller stops them: `infra.stop()`.
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Call after `npm run build`: libs/infra is required from its build. `folder`: under .hangar/, where servers started here keep their data. */
export async function benchInfrastructure(root, folder = 'bench', log = undefined) {
  const { resolveInfrastructure } = require(path.join(root, 'libs/infra/dist'));
  const infra = await resolveInfrastructure({ dataDir: path.join(root, '.hangar', folder), ...(log ? { log } : {}) });
  Object.assign(process.env, {
    MONGO_URL: infra.mongoUrl,
    NATS_URL: infra.natsUrl,
    S3_ENDPOINT: infra.s3.endpoint,
    S3_ACCESS_KEY: infra.s3.accessKey,
    S3_SECRET_KEY: infra.s3.secretKey,
    HANGAR_SKIP_BUILD: '1',
  });
  return infra;
}
