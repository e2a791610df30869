import { Writable } from 'node:stream';
import type { Connection } from 'mongoose';
import { createEnvelope } from '@hangar/events';
import { createLogger } from '@hangar/logger';
import { Metrics } from '@hangar/metrics';
import { connectMongo, syncIndexes } from '@hangar/mongo';
import { INSTALLATION_MARKER, ObjectStorage } from '@hangar/storage';
import { closedPort, incompleteUploadIds, metricTotal, nextStorageSecond, testInfrastructure, uniqueName } from '@hangar/testing';
import { loadDebugFilesConfig } from '../src/config';
import { debugFileModel } from '../src/data/debug-file.model';
import { memberKeyOf } from '@hangar/parse-jobs';
import { DebugFilesRepository } from '../src/data/debug-files.repository';
import { RunningDebugFilesService, startDebugFilesService } from '../src/debug-files-service';
import { sweepDebugFileOrphans } from '../src/jobs/orphan-objects.job';

const infra = testInfrastructure();
const logger = createLogger({ service: 'debug-files-orphans-test', level: 'warn', destination: new Writable({ write: (c, _e, d) => (process.env.DEBUG_LOGS && process.stderr.write(c), d()) }) });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function record(repository: DebugFilesRepository, objectKey: string) {
  const result = await repository.create(
    {
      appId: 1, schemeId: 1, channelId: 1, appName: 'Demo', deviceType: 'android', kind: 'proguard', bundleId: '', releaseVersion: '1.0', buildVersion: '1',
      versionKey: '1', objectKey, fileName: 'mapping.zip', size: 5, checksum: uniqueName('sha'), entries: [],
    },
    (id, uuids) => createEnvelope('debug_file.created', { debug_file_id: id, app_id: 1, channel_id: 1, release_version: '1.0', build_version: '1', uuids }, 'debug-files'),
  );
  if (!result.ok) throw new Error(`could not record ${objectKey}`);
  return result.file;
}

/**
 * The debug-files janitor against real FerretDB and S3: archives stored by an upload that never
 * got its record, or left by a replaced archive whose removal failed, go; nothing else does.
 */
describe('debug-files: orphan objects', () => {
  const bucket = uniqueName('dbgf-orphans');
  const storage = new ObjectStorage({ ...infra.s3, bucket });
  let connection: Connection;
  let repository: DebugFilesRepository;

  beforeAll(async () => {
    connection = await connectMongo({ url: infra.mongoUrl, dbName: uniqueName('dbgf_orphans').replace(/-/g, '_'), logger });
    const model = debugFileModel(connection);
    await syncIndexes(connection);
    repository = new DebugFilesRepository(connection, model);
    await storage.ensureBucket();
  });

  afterAll(async () => {
    await connection?.dropDatabase().catch(() => undefined);
    await connection?.close();
  });

  it('when swept, then old archives no debug file refers to and old unfinished uploads go; referenced, tombstoned, young and foreign ones stay', async () => {
    const key = (prefix: string, name: string) => `${prefix}/${uniqueName(name)}`;
    const live = key('debug-files', 'live');
    const tombstoned = key('debug-files', 'tomb');
    const orphan = key('debug-files', 'orphan');
    const foreign = key('packages', 'not-ours');
    for (const k of [live, tombstoned, orphan, foreign]) await storage.putBuffer(k, Buffer.from(k));
    await record(repository, live);
    const deleted = await record(repository, tombstoned);
    await repository.markDeleted(deleted._id, createEnvelope('debug_file.deleted', { debug_file_id: deleted._id, app_id: 1, channel_id: 1 }, 'debug-files'));
    const oldUpload = await storage.client.initiateNewMultipartUpload(bucket, key('debug-files', 'killed-mid-stream'), {});
    // The sweep's clock stands one grace period after the second the old ones were stored in:
    // they are past the grace, the young ones stored from here on are not, however long the
    // sweep takes on a loaded machine.
    const cutoff = await nextStorageSecond();
    const graceMs = 60_000;
    const young = key('debug-files', 'young');
    await storage.putBuffer(young, Buffer.from('an upload whose record is on its way'));
    const youngUpload = await storage.client.initiateNewMultipartUpload(bucket, key('debug-files', 'streaming'), {});
    const metrics = new Metrics({ defaultMetrics: false });

    const report = await sweepDebugFileOrphans({ repository, storage, graceMs, now: () => cutoff + graceMs, metrics });

    expect(await storage.exists(orphan)).toBe(false);
    for (const kept of [live, tombstoned, young, foreign]) expect({ kept, exists: await storage.exists(kept) }).toEqual({ kept, exists: true });
    expect(await incompleteUploadIds(storage, 'debug-files/')).toEqual([youngUpload]);
    expect(oldUpload).not.toBe(youngUpload);
    expect(report).toMatchObject({ objectsRemoved: 1, uploadsAborted: 1 });
    expect(await metricTotal(metrics, 'hangar_storage_orphans_removed_total', { prefix: 'debug-files', kind: 'object' })).toBe(1);
    expect(await metricTotal(metrics, 'hangar_storage_orphans_removed_total', { prefix: 'debug-files', kind: 'incomplete_upload' })).toBe(1);
  });

  it('when swept, then the ELF members stored beside a recorded archive stay and those beside an unrecorded one go', async () => {
    const recorded = `debug-files/${uniqueName('zip-of-elves')}`;
    const unrecorded = `debug-files/${uniqueName('refused-zip')}`;
    const kept = [memberKeyOf(recorded, 0), memberKeyOf(recorded, 1)];
    const orphans = [memberKeyOf(unrecorded, 0), memberKeyOf(unrecorded, 12)];
    for (const k of [recorded, ...kept, ...orphans]) await storage.putBuffer(k, Buffer.from(k));
    await record(repository, recorded);
    // Every one of them past the grace by the sweep's clock.
    const cutoff = await nextStorageSecond();

    await sweepDebugFileOrphans({ repository, storage, graceMs: 60_000, now: () => cutoff + 60_000 });

    for (const k of [recorded, ...kept]) expect({ k, exists: await storage.exists(k) }).toEqual({ k, exists: true });
    for (const k of orphans) expect({ k, exists: await storage.exists(k) }).toEqual({ k, exists: false });
  });
});

describe('debug-files service: the janitor runs by itself', () => {
  const bucket = uniqueName('dbgf-janitor');
  const prefix = uniqueName('dbgf-janitor');
  let service: RunningDebugFilesService;
  const metrics = new Metrics({ defaultMetrics: false });

  beforeAll(async () => {
    // The releases service makes the installation id and marks the bucket with it; debug-files
    // joins it, and its janitor sweeps nothing until then.
    const bucketStorage = new ObjectStorage({ ...infra.s3, bucket });
    await bucketStorage.ensureBucket();
    await bucketStorage.putBuffer(INSTALLATION_MARKER, Buffer.from(JSON.stringify({ id: uniqueName('installation') })));
    service = await startDebugFilesService(
      loadDebugFilesConfig({
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

  it('when an orphan archive outlives the grace period, then the service removes it within a few intervals and counts it', async () => {
    const { storage } = service.deps;
    const orphan = `debug-files/${uniqueName('orphan')}`;
    const kept = `debug-files/${uniqueName('kept')}`;
    // The record first: written after its object, a record slower than the 1 s grace (FerretDB
    // on a loaded CI machine) would let the janitor take the kept file as an orphan.
    await record(service.deps.files, kept);
    await storage.putBuffer(orphan, Buffer.from('no debug file will ever refer to this'));
    await storage.putBuffer(kept, Buffer.from('a debug file refers to this'));

    const deadline = Date.now() + 10_000;
    while ((await storage.exists(orphan)) && Date.now() < deadline) await sleep(200);

    expect(await storage.exists(orphan)).toBe(false);
    expect(await storage.exists(kept)).toBe(true);
    expect(await metricTotal(metrics, 'hangar_storage_orphans_removed_total', { prefix: 'debug-files', kind: 'object' })).toBe(1);
  });
});
