import { randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { FailedPrecondition } from '@hangar/errors';
import { connectEventBus, EventBus } from '@hangar/events';
import { createLogger } from '@hangar/logger';
import { openStorage, ObjectStorage } from '@hangar/storage';
import { testInfrastructure, testS3Client, uniqueName } from '@hangar/testing';
import { ResumableUploads } from '../src/uploads/resumable-uploads';
import { TusRefusal } from '../src/uploads/tus-headers';
import { UploadRecords } from '../src/uploads/upload-records';

const MiB = 1024 * 1024;

/**
 * An upload whose expiry runs out while a request writes into it: the storage janitor aborts its
 * S3 multipart upload and removes its tail under the request. With real S3 and NATS KV, that
 * request is told 410 (not a 500), nothing of it is stored, and the upload stays gone.
 */
describe('gateway: a resumable upload whose parts are swept while it is written', () => {
  const infra = testInfrastructure();
  const logger = createLogger({ service: 'upload-gone-test', level: 'warn', destination: new Writable({ write: (_c, _e, d) => d() }) });
  const bucket = uniqueName('upload-gone');
  const owner = { ownerId: 7, purpose: 'package' as const, channelKey: 'key', fileName: 'app.apk' };
  let bus: EventBus;
  let storage: ObjectStorage;
  let uploads: ResumableUploads;

  beforeAll(async () => {
    bus = await connectEventBus(infra.natsUrl, 'upload-gone-test', logger);
    storage = await openStorage({
      S3_ENDPOINT: infra.s3.endpoint,
      // The same server under another name: direct uploads need a public endpoint to sign for.
      S3_PUBLIC_ENDPOINT: infra.s3.endpoint.replace('127.0.0.1', 'localhost'),
      S3_ACCESS_KEY: infra.s3.accessKey,
      S3_SECRET_KEY: infra.s3.secretKey,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
    });
    const records = await UploadRecords.open(bus.nc, uniqueName('gone'), 60_000);
    uploads = new ResumableUploads(records, storage, { expiryMs: 60_000, maxBytes: 100 * MiB });
  });
  afterAll(async () => {
    await bus?.nc.drain();
  });

  /** What the janitor does to an expired upload: its multipart upload aborted, its objects removed. */
  const sweep = async (objectKey: string, multipartId: string) => {
    await storage.abortIncompleteUpload(objectKey, multipartId);
    const objects = await testS3Client().listObjectsV2Query(bucket, 'packages/', '', '', 1000, '');
    for (const object of objects.objects) await storage.delete(object.name!);
  };
  const stored = async () => (await testS3Client().listObjectsV2Query(bucket, 'packages/', '', '', 1000, '')).objects.length;
  const refusal = (work: Promise<unknown>) => work.then(() => undefined, (err: unknown) => err);

  it('when its multipart upload is aborted before a full part is sent, then the request is refused 410, no tail is left and later requests are told 410', async () => {
    const { record } = await uploads.create({ ...owner, length: 20 * MiB });
    await sweep(record.objectKey, record.multipartId!);
    const err = await refusal(uploads.append(record.id, owner.ownerId, 0, Readable.from([randomBytes(9 * MiB)])));
    expect(err).toBeInstanceOf(TusRefusal);
    expect((err as TusRefusal).status).toBe(410);
    expect(await stored()).toBe(0);
    const later = await refusal(uploads.find(record.id, owner.ownerId));
    expect((later as TusRefusal).status).toBe(410);
  });

  it('when its tail is removed between two requests, then the next request is refused 410', async () => {
    const { record } = await uploads.create({ ...owner, length: 20 * MiB });
    const first = await uploads.append(record.id, owner.ownerId, 0, Readable.from([randomBytes(MiB)]));
    expect(first.tail).toBeDefined();
    await sweep(record.objectKey, record.multipartId!);
    const err = await refusal(uploads.append(record.id, owner.ownerId, MiB, Readable.from([randomBytes(MiB)])));
    expect((err as TusRefusal).status).toBe(410);
    expect(await stored()).toBe(0);
  });

  it('when a direct upload is finished after its parts were swept, then the finishing call is refused as expired', async () => {
    const { record } = await uploads.createDirect({ ...owner, length: 20 * MiB }, 600);
    await sweep(record.objectKey, record.multipartId!);
    const err = await refusal(uploads.claimFinish(record.id, owner.ownerId, 'package', 1_000));
    expect(err).toBeInstanceOf(FailedPrecondition);
    expect((err as FailedPrecondition).message).toMatch(/expired/);
  });
});
