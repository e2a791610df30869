import mongoose, { type Connection } from 'mongoose';
import { installationRecord } from '@hangar/mongo';
import { testInfrastructure, uniqueName } from '@hangar/testing';
import { INSTALLATION_MARKER, InstallationMismatch, ObjectStorage, checkInstallation, guardInstallation, installationIdOfBucket } from '@hangar/storage';

const infra = testInfrastructure();

/** The installation id on the real S3 and MongoDB-wire servers: both sides, every outcome that matters. */
describe('checkInstallation', () => {
  const connections: Connection[] = [];
  afterAll(async () => {
    for (const c of connections) {
      await c.dropDatabase().catch(() => undefined);
      await c.close();
    }
  });

  async function sides() {
    const connection = await mongoose.createConnection(infra.mongoUrl, { dbName: uniqueName('inst').replace(/-/g, '_') }).asPromise();
    connections.push(connection);
    const storage = new ObjectStorage({ ...infra.s3, bucket: uniqueName('inst') });
    await storage.ensureBucket();
    const check = {
      storage,
      database: installationRecord(connection, ['releases']),
      prefixes: ['packages/'],
      mayCreate: true,
      databaseName: 'the releases database "x"',
      bucketName: `the bucket "${storage.bucket}"`,
    };
    return { connection, storage, check };
  }

  it('when both sides are new, then one id is made and recorded on both, and every later check matches', async () => {
    const { storage, check } = await sides();
    const first = await checkInstallation(check);
    expect(first.state).toBe('matched');
    const id = (first as { id: string }).id;
    expect(await installationIdOfBucket(storage)).toBe(id);
    expect(await check.database.read()).toBe(id);
    expect(await checkInstallation(check)).toEqual({ state: 'matched', id });
  });

  it('when the two sides hold different ids, then the check refuses naming both, and HANGAR_ADOPT_BUCKET with the bucket id adopts it (a wrong id does not)', async () => {
    const { storage, check } = await sides();
    await checkInstallation(check);
    await storage.putBuffer(INSTALLATION_MARKER, Buffer.from(JSON.stringify({ id: 'another-installation' })));
    await storage.putBuffer('packages/a-build', Buffer.from('x'));

    const refused = await checkInstallation(check).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(InstallationMismatch);
    expect((refused as Error).message).toMatch(/different installations: the releases database "x" holds installation id [0-9a-f-]{36}, the bucket ".*" holds another-installation/);
    expect((refused as Error).message).toContain('HANGAR_ADOPT_BUCKET=another-installation');

    await expect(checkInstallation({ ...check, adopt: 'a-typo' })).rejects.toBeInstanceOf(InstallationMismatch);
    expect(await checkInstallation({ ...check, adopt: 'another-installation' })).toEqual({ state: 'matched', id: 'another-installation' });
    expect(await check.database.read()).toBe('another-installation');
    expect(await checkInstallation(check)).toEqual({ state: 'matched', id: 'another-installation' });
    expect(await storage.exists('packages/a-build')).toBe(true);
  });

  it('when a database without records meets a bucket of builds that has no id (an older Hangar), then it refuses; with records, it makes the id', async () => {
    const { connection, storage, check } = await sides();
    await storage.putBuffer('packages/old-build', Buffer.from('x'));
    await expect(checkInstallation(check)).rejects.toThrow(/The database is empty but the bucket holds Hangar's objects/);
    expect(await installationIdOfBucket(storage)).toBeUndefined();

    await connection.collection('releases').insertOne({ _id: 1 as never, objectKey: 'packages/old-build' });
    expect((await checkInstallation(check)).state).toBe('matched');
  });

  it('when a service that may not make the id finds none in the bucket, then it waits (pending) and joins the id once the bucket has one', async () => {
    const { storage, check } = await sides();
    const joining = { ...check, mayCreate: false };
    expect(await checkInstallation(joining)).toEqual({ state: 'pending' });
    await storage.putBuffer(INSTALLATION_MARKER, Buffer.from(JSON.stringify({ id: 'made-by-releases' })));
    expect(await checkInstallation(joining)).toEqual({ state: 'matched', id: 'made-by-releases' });
  });

  it('when the database is dropped while Hangar runs and records come back without the id, then the running guard refuses and never joins the bucket again', async () => {
    const { connection, storage, check } = await sides();
    const errors: string[] = [];
    const logger = { info: () => undefined, warn: () => undefined, error: (_o: object, message: string) => errors.push(message) };
    const guard = await guardInstallation({ ...check, logger });
    expect(await guard.matches()).toBe(true);
    await storage.putBuffer('packages/a-build', Buffer.from('x'));

    await connection.dropDatabase();
    // A consumer still running writes a record into the dropped database: it is no longer empty,
    // as a database from before the ids would hold records — but this process knew the id.
    await connection.collection('releases').insertOne({ objectKey: 'packages/another' });
    expect(await guard.matches()).toBe(false);
    expect(await check.database.read()).toBeUndefined();
    expect(errors.join('\n')).toMatch(/lost its installation id while Hangar ran/);
    // Asked again, still no: the refusal lasts until an operator acts (a restart, HANGAR_ADOPT_BUCKET).
    expect(await guard.matches()).toBe(false);
  });
});
