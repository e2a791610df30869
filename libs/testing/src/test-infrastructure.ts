import type { Client } from 'minio';
import type { MongoClient } from 'mongodb';
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

/** A minio client on the test S3 server, for looking at what a bucket holds behind Hangar's back. */
export function testS3Client(): Client {
  const { s3 } = testInfrastructure();
  const url = new URL(s3.endpoint);
  // minio and mongodb are loaded on first use (here and below), not with @hangar/testing: every
  // test file imports the library, and compiling these drivers cost each file that never used them
  // part of a second of CPU in jest's fresh module registry (profiled 2026-11-30).
  const { Client: S3Client } = require('minio') as typeof import('minio');
  return new S3Client({ endPoint: url.hostname, port: Number(url.port), useSSL: url.protocol === 'https:', accessKey: s3.accessKey, secretKey: s3.secretKey, pathStyle: true });
}

/**
 * Drops a test's databases through a connection of its own, after its services have stopped.
 * Dropped while a service still runs, a database comes back at its next write — FerretDB makes
 * the collection again, without the indexes the service declared — and the plan check may then
 * explain queries on that husk.
 */
export async function dropTestDatabases(names: string[]): Promise<void> {
  const { MongoClient: Mongo } = require('mongodb') as typeof import('mongodb');
  const client: MongoClient = new Mongo(testInfrastructure().mongoUrl, { directConnection: true });
  await client.connect();
  try {
    for (const name of names) await client.db(name).dropDatabase();
  } finally {
    await client.close();
  }
}

/** A name no other test (or earlier run) uses: databases, buckets, streams. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`.toLowerCase();
}

/**
 * The real packages and debug files the tests read: `tests/fixtures` in this
 * repository (where each came from: its README). Resolved from this file, so
 * the sources (jest) and the build (`dist/`) find the same folder.
 */
export function fixturesDir(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const path = require('node:path') as typeof import('node:path');
  return path.resolve(__dirname, '..', '..', '..', 'tests', 'fixtures');
}
