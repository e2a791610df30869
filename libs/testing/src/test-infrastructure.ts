import { randomBytes } from 'node:crypto';

/** The servers jest's global setup resolved, read by component and e2e tests. */
export function testInfrastructure() {
  const need = (name: string): string => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set: run tests through jest (its global setup resolves the servers)`);
    return value;
  };
  return {
    mongoUrl: need('MONGO_URL'),
    natsUrl: need('NATS_URL'),
    s3: { endpoint: need('S3_ENDPOINT'), accessKey: need('S3_ACCESS_KEY'), secretKey: need('S3_SECRET_KEY') },
  };
}

/** A name no other test (or earlier run) uses: databases, buckets, streams. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`.toLowerCase();
}

/**
 * The shared fixtures (real packages and debug files): HANGAR_FIXTURES_DIR, or
 * `shared/fixtures` beside the checkout, where CI places it.
 */
export function fixturesDir(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const path = require('node:path') as typeof import('node:path');
  return process.env.HANGAR_FIXTURES_DIR ?? path.resolve(__dirname, '..', '..', '..', '..', 'shared', 'fixtures');
}
