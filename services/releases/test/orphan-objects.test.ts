import { Writable } from 'node:stream';
import type { Connection } from 'mongoose';
import { createEnvelope } from '@hangar/events';
import { createLogger } from '@hangar/logger';
import { Metrics } from '@hangar/metrics';
import { connectMongo, syncIndexes } from '@hangar/mongo';
import { ObjectStorage } from '@hangar/storage';
import { closedPort, incompleteUploadIds, metricTotal, nextStorageSecond, testInfrastructure, uniqueName } from '@hangar/testing';
import { loadReleasesConfig } from '../src/config';
import { releaseModel } from '../src/data/release.model';
import { NewRelease, ReleasesRepository } from '../src/data/releases.repository';
import { sweepReleaseOrphans } from '../src/jobs/orphan-objects.job';
import { RunningReleasesService, startReleasesService } from '../src/releases-service';

const infra = testInfrastructure();
const logger = createLogger({ service: 'releases-orphans-test', level: 'warn', destination: new Writable({ write: (c, _e, d) => (process.env.DEBUG_LOGS && process.stderr.write(c), d()) }) });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let ids = 0;
function recordOf(objectKey: string, iconKey?: string): NewRelease {
  const channelId = (ids += 1);
  return {
    appId: 1, schemeId: 1, channelId, appName: 'Demo', bundleId: 'com.example', releaseVersion: '1.0', buildVersion: '1', versionKey: '1', source: 'api', branch: '',
    gitCommit: '', ciUrl: '', releaseType: '', size: 5, platform: 'Android', deviceType: 'Phone', minOsVersion: '', changelog: [], customFields: [],
    objectKey, fileName: 'a.apk', fileExtension: 'apk', ...(iconKey ? { iconKey } : {}), metadataJson: '{}', sha256: '', mandatory: false,
  };
}

async function record(repository: ReleasesRepository, objectKey: string, iconKey?: string) {
  const fields = recordOf(objectKey, iconKey);
  return repository.create(fields, (id, version) =>
    createEnvelope('release.created', { release_id: id, app_id: 1, scheme_id: 1, channel_id: fields.channelId, version, bundle_id: 'com.example', release_version: '1.0', build_version: '1', platform: 'Android' }, 'releases'),
  );
}

/**
 * The releases janitor against real FerretDB and S3: what an upload interrupted between
 * storing its file and recording its release leaves behind is removed, nothing else.
 */
describe('releases: orphan objects', () => {
  const bucket = uniqueName('rel-orphans');
  const storage = new ObjectStorage({ ...infra.s3, bucket });
  let connection: Connection;
  let repository: ReleasesRepository;

  beforeAll(async () => {
    connection = await connectMongo({ url: infra.mongoUrl, dbName: uniqueName('rel_orphans').replace(/-/g, '_'), logger });
    const model = releaseModel(connection);
    await syncIndexes(connection);
    repository = new ReleasesRepository(connection, model);
    await storage.ensureBucket();
  });

  afterAll(async () => {
    await connection?.dropDatabase().catch(() => undefined);
    await connection?.close();
  });

  it('when swept, then old packages and icons no release refers to and old unfinished uploads go; referenced, tombstoned, young and foreign ones stay', async () => {
    const key = (prefix: string, name: string) => `${prefix}/${uniqueName(name)}`;
    const live = { pkg: key('packages', 'live'), icon: key('icons', 'live') };
    const tombstoned = { pkg: key('packages', 'tomb'), icon: key('icons', 'tomb') };
    const orphans = { pkg: key('packages', 'orphan'), icon: key('icons', 'orphan') };
    const foreign = key('debug-files', 'not-ours');
    for (const k of [live.pkg, live.icon, tombstoned.pkg, tombstoned.icon, orphans.pkg, orphans.icon, foreign]) await storage.putBuffer(k, Buffer.from(k));
    await record(repository, live.pkg, live.icon);
    const deleted = await record(repository, tombstoned.pkg, tombstoned.icon);
    await repository.markDeleted(deleted, createEnvelope('release.deleted', { release_id: deleted._id, app_id: 1, scheme_id: 1, channel_id: deleted.channelId }, 'releases'));
    const oldUpload = await storage.client.initiateNewMultipartUpload(bucket, key('packages', 'killed-mid-stream'), {});
    // The sweeps' clock stands one grace period after the second the old ones were stored in:
    // they are past the grace, the young ones stored from here on are not, however long the
    // sweeps take on a loaded machine.
    const cutoff = await nextStorageSecond();
    const graceMs = 60_000;
    const clock = { graceMs, now: () => cutoff + graceMs };
    const young = key('packages', 'young');
    await storage.putBuffer(young, Buffer.from('an upload whose record is on its way'));
    const youngUpload = await storage.client.initiateNewMultipartUpload(bucket, key('packages', 'streaming'), {});
    const metrics = new Metrics({ defaultMetrics: false });

    const report = await sweepReleaseOrphans({ repository, storage, ...clock, metrics });

    expect(await storage.exists(orphans.pkg)).toBe(false);
    expect(await storage.exists(orphans.icon)).toBe(false);
    for (const kept of [live.pkg, live.icon, tombstoned.pkg, tombstoned.icon, young, foreign]) expect({ kept, exists: await storage.exists(kept) }).toEqual({ kept, exists: true });
    expect(await incompleteUploadIds(storage, 'packages/')).toEqual([youngUpload]);
    expect(oldUpload).not.toBe(youngUpload);
    expect(report).toMatchObject({ objectsRemoved: 2, uploadsAborted: 1 });
    expect(await metricTotal(metrics, 'hangar_storage_orphans_removed_total', { prefix: 'packages', kind: 'object' })).toBe(1);
    expect(await metricTotal(metrics, 'hangar_storage_orphans_removed_total', { prefix: 'icons', kind: 'object' })).toBe(1);
    expect(await metricTotal(metrics, 'hangar_storage_orphans_removed_total', { prefix: 'packages', kind: 'incomplete_upload' })).toBe(1);

    // A second sweep finds nothing more to do.
    expect(await sweepReleaseOrphans({ repository, storage, ...clock, metrics })).toMatchObject({ objectsRemoved: 0, uploadsAborted: 0 });
  });

  it('when references are asked for many keys at once, then exactly the recorded ones come back', async () => {
    const keys = Array.from({ length: 25 }, (_, i) => `packages/${uniqueName(`many-${i}`)}`);
    for (const k of keys) await storage.putBuffer(k, Buffer.from(k));
    for (const k of keys.filter((_, i) => i % 3 === 0)) await record(repository, k);

    expect(await repository.referencedKeys(keys)).toEqual(new Set(keys.filter((_, i) => i % 3 === 0)));
    expect(await repository.referencedKeys(['icons/none', 'packages/none'])).toEqual(new Set());
  });
});

describe('releases service: the janitor runs by itself', () => {
  const bucket = uniqueName('rel-janitor');
  const prefix = uniqueName('rel-janitor');
  let service: RunningReleasesService;
  const metrics = new Metrics({ defaultMetrics: false });

  beforeAll(async () => {
    service = await startReleasesService(
      loadReleasesConfig({
        MONGO_URL: infra.mongoUrl,
        MONGO_DB: prefix.replace(/-/g, '_'),
        NATS_URL: infra.natsUrl,
        NATS_SUBJECT_PREFIX: prefix,
        GRPC_LISTEN: '127.0.0.1:0',
        SHUTDOWN_TIMEOUT_MS: '3000',
        // The janitor needs no other service.
        APPS_GRPC_TARGET: `127.0.0.1:${await closedPort()}`,
        S3_ENDPOINT: infra.s3.endpoint,
        S3_ACCESS_KEY: infra.s3.accessKey,
        S3_SECRET_KEY: infra.s3.secretKey,
        S3_BUCKET: bucket,
        PARSE_WORKER_ENABLED: 'false',
        METRICS_PORT: '0',
        STORAGE_JANITOR_GRACE_MS: '1000',
        STORAGE_JANITOR_INTERVAL_MS: '300',
      }),
      logger,
      metrics,
    );
  });

  afterAll(async () => {
    await service?.connection.dropDatabase().catch(() => undefined);
    await service?.stop();
  });

  it('when an orphan package outlives the grace period, then the service removes it within a few intervals and counts it', async () => {
    const { storage } = service.deps;
    const orphan = `packages/${uniqueName('orphan')}`;
    const kept = `packages/${uniqueName('kept')}`;
    // The record first: written after its object, a record slower than the 1 s grace (FerretDB
    // on a loaded CI machine) let the janitor take the kept package as an orphan.
    await record(service.deps.releases, kept);
    await storage.putBuffer(orphan, Buffer.from('no release will ever refer to this'));
    await storage.putBuffer(kept, Buffer.from('a release refers to this'));

    const deadline = Date.now() + 10_000;
    while ((await storage.exists(orphan)) && Date.now() < deadline) await sleep(200);

    expect(await storage.exists(orphan)).toBe(false);
    expect(await storage.exists(kept)).toBe(true);
    expect(await metricTotal(metrics, 'hangar_storage_orphans_removed_total', { prefix: 'packages', kind: 'object' })).toBe(1);
  });
});
