import mongoose, { Connection } from 'mongoose';
import { Unavailable } from '@hangar/errors';
import { createLogger } from '@hangar/logger';
import { closedPort, testInfrastructure, uniqueName } from '@hangar/testing';
import { connectMongo, installationRecord, isDuplicateKeyError, mongoErrorToDomain, nextSequence, pingMongo } from '../src';

const infra = testInfrastructure();
const logger = createLogger({ service: 'mongo-test', level: 'silent' });

describe('@hangar/mongo against a MongoDB-wire server', () => {
  const dbName = uniqueName('mongo-test');
  let connection: Connection;

  beforeAll(async () => {
    connection = await connectMongo({ url: infra.mongoUrl, dbName, logger });
  });

  afterAll(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  it('when 200 ids are taken at once, then they are 200 distinct consecutive numbers from 1', async () => {
    const name = uniqueName('counter');

    const ids = await Promise.all(Array.from({ length: 200 }, () => nextSequence(connection, name)));

    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(await nextSequence(connection, name)).toBe(201);
  });

  it('when replicas claim the installation id at once on an empty database, then all get the one id recorded and none fails', async () => {
    // Each a replica: a connection with its own pool. Two upserts racing to insert ended the
    // later replica's start with E11000 on FerretDB (seen as "releases.1 exited (1)" at
    // two-replica starts); MongoDB retries such upserts itself.
    const replicas = await Promise.all(Array.from({ length: 3 }, () => connectMongo({ url: infra.mongoUrl, dbName, logger })));
    try {
      const records = replicas.map((c) => installationRecord(c, []));
      for (let round = 0; round < 20; round++) {
        await connection.collection('installation').deleteMany({});
        const ids = await Promise.all(records.map((r, i) => r.claim(`id-${round}-${i}`)));
        expect(new Set(ids).size).toBe(1);
        expect(await records[0]!.read()).toBe(ids[0]);
      }
    } finally {
      await Promise.all(replicas.map((c) => c.close()));
    }
  });

  it('when two processes take ids from the same counter at once, then no id is handed out twice and none is skipped', async () => {
    const name = uniqueName('shared');
    // A second connection has its own pool and its own in-process queue: a replica.
    const replica = await connectMongo({ url: infra.mongoUrl, dbName, logger });
    try {
      const ids = await Promise.all(
        Array.from({ length: 100 }, (_, i) => nextSequence(i % 2 === 0 ? connection : replica, name)),
      );

      expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    } finally {
      await replica.close();
    }
  });

  it('when two counters are used, then each counts on its own', async () => {
    const a = uniqueName('a');
    const b = uniqueName('b');

    await nextSequence(connection, a);
    await nextSequence(connection, a);

    expect(await nextSequence(connection, b)).toBe(1);
    expect(await nextSequence(connection, a)).toBe(3);
  });

  it('when a unique index refuses a write, then isDuplicateKeyError recognises the real error', async () => {
    const things = connection.collection(uniqueName('things'));
    await things.insertOne({ _id: 'one' } as never);

    const err = await things.insertOne({ _id: 'one' } as never).catch((e: unknown) => e);

    expect(isDuplicateKeyError(err)).toBe(true);
    expect(mongoErrorToDomain(err)).toBeUndefined();
  });

  it('when the server answers, then pingMongo is true, and false once the connection is closed', async () => {
    const own = await connectMongo({ url: infra.mongoUrl, dbName, logger });
    expect(await pingMongo(own)).toBe(true);

    await own.close();

    expect(await pingMongo(own)).toBe(false);
  });

  it('when nothing listens at the address, then connectMongo fails within a few seconds', async () => {
    const url = `mongodb://127.0.0.1:${await closedPort()}`;
    const started = Date.now();

    const err = await connectMongo({ url, dbName, logger }).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(Error);
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(mongoErrorToDomain(err)).toBeInstanceOf(Unavailable);
  });

  it('when the server cannot be selected, then the real driver errors map to Unavailable', async () => {
    const url = `mongodb://127.0.0.1:${await closedPort()}`;
    const down = mongoose.createConnection(url, { dbName, bufferCommands: false, serverSelectionTimeoutMS: 300 });
    const Thing = down.model('Thing', new mongoose.Schema({ name: String }));

    // Before the first connection: mongoose refuses at once (bufferCommands off).
    const early = await Thing.findOne({}).catch((e: unknown) => e);
    // The connection attempt itself: the driver's server-selection timeout.
    const selection = await down.asPromise().catch((e: unknown) => e);
    // The native driver's own operation, past mongoose.
    const native = await down
      .getClient()
      .db(dbName)
      .command({ ping: 1 })
      .catch((e: unknown) => e);

    expect((selection as Error).name).toMatch(/ServerSelectionError/);
    for (const err of [early, selection, native]) {
      expect(mongoErrorToDomain(err)).toBeInstanceOf(Unavailable);
      expect(mongoErrorToDomain(err)?.code).toBe('unavailable');
    }
    await down.close();
  });
});
