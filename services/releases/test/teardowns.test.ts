import { Writable } from 'node:stream';
import type { Connection } from 'mongoose';
import { createLogger } from '@hangar/logger';
import { connectMongo, syncIndexes } from '@hangar/mongo';
import { ObjectStorage } from '@hangar/storage';
import { nextStorageSecond, testInfrastructure, uniqueName } from '@hangar/testing';
import { teardownModel, type TeardownDocument } from '../src/data/teardown.model';
import { DAY_MS, dayOf, TeardownsRepository } from '../src/data/teardowns.repository';
import { SWEEP_LOOKBACK_DAYS, sweepExpiredTeardowns, sweepTeardownOrphans } from '../src/jobs/teardown-expiry.job';

const infra = testInfrastructure();
const logger = createLogger({ service: 'teardowns-test', level: 'warn', destination: new Writable({ write: (c, _e, d) => (process.env.DEBUG_LOGS && process.stderr.write(c), d()) }) });

/**
 * The teardown sweeps against real FerretDB and S3: expired teardowns go with their files,
 * live ones stay; uploads no teardown refers to are orphans after the grace period.
 */
describe('releases: teardown expiry and orphans', () => {
  const bucket = uniqueName('teardowns');
  const storage = new ObjectStorage({ ...infra.s3, bucket });
  let connection: Connection;
  let teardowns: TeardownsRepository;

  beforeAll(async () => {
    connection = await connectMongo({ url: infra.mongoUrl, dbName: uniqueName('teardowns').replace(/-/g, '_'), logger });
    teardowns = new TeardownsRepository(teardownModel(connection));
    await syncIndexes(connection);
    await storage.ensureBucket();
  });

  afterAll(async () => {
    await connection?.dropDatabase().catch(() => undefined);
    await connection?.close();
  });

  async function stored(label: string, expiresAt: Date): Promise<TeardownDocument> {
    const objectKey = `teardowns/${uniqueName(label)}`;
    await storage.putBuffer(objectKey, Buffer.from(label));
    return teardowns.create({
      _id: uniqueName(label).replace(/[^A-Za-z0-9]/g, ''), ownerId: 1, objectKey, fileName: `${label}.apk`, size: label.length, format: 'apk', platform: 'Android',
      deviceType: 'Phone', name: label, bundleId: 'com.example', releaseVersion: '1.0', buildVersion: '1', minOsVersion: '', releaseType: '', metadataJson: '{}',
      createdAt: new Date(expiresAt.getTime() - DAY_MS), expiresAt, expiresDay: dayOf(expiresAt),
    });
  }

  it('when swept at a given time, then teardowns expired by then (today, yesterday, weeks ago) go with their files; later ones, today included, stay', async () => {
    const now = new Date('2026-03-10T12:00:00Z');
    const expired = await Promise.all([
      stored('just-expired', new Date(now.getTime() - 1)),
      stored('yesterday', new Date(now.getTime() - DAY_MS)),
      stored('weeks-ago', new Date(now.getTime() - (SWEEP_LOOKBACK_DAYS - 1) * DAY_MS)),
    ]);
    const live = await Promise.all([stored('later-today', new Date(now.getTime() + 3600_000)), stored('next-week', new Date(now.getTime() + 7 * DAY_MS))]);

    const report = await sweepExpiredTeardowns({ teardowns, storage, now: () => now });

    expect(report.objectsRemoved).toBe(3);
    for (const t of expired) {
      expect({ id: t._id, record: await teardowns.findById(t._id), file: await storage.exists(t.objectKey) }).toEqual({ id: t._id, record: null, file: false });
    }
    for (const t of live) {
      expect({ id: t._id, record: (await teardowns.findById(t._id))?._id, file: await storage.exists(t.objectKey) }).toEqual({ id: t._id, record: t._id, file: true });
    }
    // Swept again a week later, the one that has expired meanwhile goes too.
    const later = await sweepExpiredTeardowns({ teardowns, storage, now: () => new Date(now.getTime() + 8 * DAY_MS) });
    expect(later.objectsRemoved).toBe(2);
  });

  it('when the orphan janitor sweeps teardowns/, then old uploads no teardown refers to go; referenced and young ones stay', async () => {
    const kept = await stored('referenced', new Date(Date.now() + DAY_MS));
    const orphan = `teardowns/${uniqueName('orphan')}`;
    await storage.putBuffer(orphan, Buffer.from('an upload whose teardown was never recorded'));
    // The sweep's clock stands one grace period after the second the orphan was stored in: it is
    // past the grace, the young one stored from here on is not, however slow the machine.
    const cutoff = await nextStorageSecond();
    const young = `teardowns/${uniqueName('young')}`;
    await storage.putBuffer(young, Buffer.from('a teardown on its way'));

    await sweepTeardownOrphans({ teardowns, storage, graceMs: 60_000, now: () => cutoff + 60_000 });

    expect(await storage.exists(orphan)).toBe(false);
    expect(await storage.exists(kept.objectKey)).toBe(true);
    expect(await storage.exists(young)).toBe(true);
  });
});
