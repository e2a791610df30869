import { Writable } from 'node:stream';
import { NotFound, Unimplemented } from '@hangar/errors';
import { EventBus, EventData, EventType, connectEventBus, createEnvelope, durableNameOf, publishEnvelope, streamNameFor } from '@hangar/events';
import { createGrpcServer } from '@hangar/grpc';
import { createLogger } from '@hangar/logger';
import { apps } from '@hangar/proto';
import { eventually as holdsWithin, testInfrastructure, uniqueName } from '@hangar/testing';
import { loadReleasesConfig } from '../src/config';
import type { NewRelease } from '../src/data/releases.repository';
import { RunningReleasesService, startReleasesService } from '../src/releases-service';

/**
 * Retained builds and cascades against real NATS, FerretDB and S3: the
 * releases service in-process, a stand-in apps service answering
 * ResolveChannel, releases recorded through the repository (their
 * release.created goes out through the outbox like an upload's).
 */
describe('releases: retained builds and cascades', () => {
  const infra = testInfrastructure();
  const prefix = uniqueName('retain-ct');
  const db = prefix.replace(/-/g, '_');
  const bucket = uniqueName('retain-bucket');
  const logger = createLogger({ service: 'retain-test', level: 'warn', destination: new Writable({ write: (c, _e, d) => (process.env.DEBUG_LOGS && process.stderr.write(c), d()) }) });
  let service: RunningReleasesService;
  let fakeApps: ReturnType<typeof createGrpcServer>;
  let bus: EventBus;
  /** channel id → its context; absent: the channel is gone. */
  const channels = new Map<number, apps.ChannelContext>();
  let resolveCalls = 0;
  let appsDown = false;

  beforeAll(async () => {
    fakeApps = createGrpcServer({ logger });
    const unimplemented = Object.fromEntries(Object.keys(apps.AppsServiceDefinition.methods).map((name) => [name, async () => Promise.reject(new Unimplemented(name))]));
    fakeApps.add(apps.AppsServiceDefinition, {
      ...unimplemented,
      async resolveChannel(req: apps.ResolveChannelRequest) {
        resolveCalls += 1;
        if (appsDown) throw new Error('apps is having a bad day');
        const context = channels.get(req.channelId);
        if (!context) throw new NotFound('Channel not found for this channel_key');
        return context;
      },
    } as unknown as apps.AppsServiceImplementation);
    const appsPort = await fakeApps.listen('127.0.0.1:0');
    service = await startReleasesService(
      loadReleasesConfig({
        MONGO_URL: infra.mongoUrl,
        MONGO_DB: `${db}_releases`,
        NATS_URL: infra.natsUrl,
        NATS_SUBJECT_PREFIX: prefix,
        GRPC_LISTEN: '127.0.0.1:0',
        SHUTDOWN_TIMEOUT_MS: '3000',
        APPS_GRPC_TARGET: `127.0.0.1:${appsPort}`,
        S3_ENDPOINT: infra.s3.endpoint,
        S3_ACCESS_KEY: infra.s3.accessKey,
        S3_SECRET_KEY: infra.s3.secretKey,
        S3_BUCKET: bucket,
        PARSE_WORKER_ENABLED: 'false',
        METRICS_PORT: '0',
        // The stand-in apps service changes contexts without bumping the apps generation
        // as the real one does, and these tests count its resolveChannel calls: no cache.
        CHANNEL_CACHE_SIZE: '0',
      }),
      logger,
    );
    bus = await connectEventBus(infra.natsUrl, 'retain-test', logger);
  });

  afterAll(async () => {
    await bus?.nc.drain();
    await service?.connection.dropDatabase().catch(() => undefined);
    await service?.stop();
    await fakeApps?.shutdown(1_000);
  });

  let ids = 5_000;
  /** An app → scheme (keeping `retained` builds) → `count` channels, known to the stand-in apps service. */
  function tree(retained: number, count = 1) {
    const appId = (ids += 1);
    const schemeId = (ids += 1);
    const channelIds = Array.from({ length: count }, () => (ids += 1));
    for (const channelId of channelIds) {
      channels.set(channelId, {
        app: { id: appId, name: 'Demo', schemes: [], collaborators: [], createdAtMs: 0 },
        scheme: { id: schemeId, appId, name: 'Beta', newBuildCallout: false, retainedBuilds: retained, channels: [] },
        channel: { id: channelId, schemeId, name: 'Android', slug: `slug-${channelId}`, deviceType: 'android', bundleId: '*', hasPassword: false, minSupportedVersion: '' },
      });
    }
    return { appId, schemeId, channelIds };
  }

  /** A release with a package and an icon in storage; its release.created goes out through the outbox. */
  async function upload(appId: number, schemeId: number, channelId: number) {
    const objectKey = `packages/${uniqueName('pkg')}.apk`;
    const iconKey = `icons/${uniqueName('icon')}.png`;
    await service.deps.storage.putBuffer(objectKey, Buffer.from('package bytes'));
    await service.deps.storage.putBuffer(iconKey, Buffer.from('icon bytes'), 'image/png');
    const fields: NewRelease = {
      appId, schemeId, channelId, appName: 'Demo', bundleId: 'com.example', releaseVersion: '1.0', buildVersion: '1', versionKey: '1', source: 'api', branch: '',
      gitCommit: '', ciUrl: '', releaseType: '', size: 13, platform: 'Android', deviceType: 'Phone', minOsVersion: '', changelog: [], customFields: [],
      objectKey, fileName: 'a.apk', fileExtension: 'apk', iconKey, metadataJson: '{}', sha256: '', mandatory: false,
    };
    const release = await service.deps.releases.create(fields, (id, version) =>
      createEnvelope('release.created', { release_id: id, app_id: appId, scheme_id: schemeId, channel_id: channelId, version, bundle_id: 'com.example', release_version: '1.0', build_version: '1', platform: 'Android' }, 'releases'),
    );
    service.deps.onEventsRecorded();
    return release;
  }

  const live = async (filter: Record<string, number>) =>
    (await service.connection.collection('releases').find({ ...filter, deletedAt: { $exists: false } }).sort({ _id: 1 }).toArray()).map((r) => r._id as unknown as number);
  const anyLeft = async (filter: Record<string, number>) => service.connection.collection('releases').countDocuments(filter);
  const stored = async (keys: string[]) => (await Promise.all(keys.map((k) => service.deps.storage.exists(k)))).filter(Boolean).length;

  const eventually = (check: () => Promise<boolean>, timeoutMs = 30_000) => holdsWithin(check, { timeoutMs, stepMs: 100 });

  /**
   * Waits until the retention consumer has handled and acked every release.created published so
   * far: whatever pruning those events make has happened by then, so what is live is final.
   */
  async function retentionDone(): Promise<void> {
    const info = () => bus.jsm.consumers.info(streamNameFor(prefix), durableNameOf('releases-retention', 'release.created'));
    await holdsWithin(
      async () => {
        const { num_pending, num_ack_pending } = await info();
        return num_pending === 0 && num_ack_pending === 0;
      },
      { timeoutMs: 30_000, what: 'the retention consumer to drain', explain: async () => JSON.stringify(await info()) },
    );
  }

  const publish = <T extends EventType>(type: T, data: EventData<T>) => publishEnvelope(bus.js, createEnvelope(type, data, 'test'), { prefix });

  it('when a scheme keeps 2 builds, then each of its channels keeps its 2 newest and the others go with their files', async () => {
    const { appId, schemeId, channelIds } = tree(2, 2);
    const [a, b] = channelIds as [number, number];
    const inA = [];
    for (let i = 0; i < 4; i++) inA.push(await upload(appId, schemeId, a));
    const inB = [await upload(appId, schemeId, b)];
    await eventually(async () => (await live({ channelId: a })).length === 2);
    expect(await live({ channelId: a })).toEqual([inA[2]!._id, inA[3]!._id]);
    expect(await live({ channelId: b })).toEqual([inB[0]!._id]);
    const removedKeys = inA.slice(0, 2).flatMap((r) => [r.objectKey, r.iconKey!]);
    await eventually(async () => (await stored(removedKeys)) === 0 && (await anyLeft({ channelId: a })) === 2);
    expect(await stored(inA.slice(2).flatMap((r) => [r.objectKey, r.iconKey!]))).toBe(4);
    // Two more in B: B is pruned to 2 as well, A stays as it is.
    inB.push(await upload(appId, schemeId, b), await upload(appId, schemeId, b));
    await eventually(async () => (await live({ channelId: b })).length === 2);
    expect(await live({ channelId: b })).toEqual([inB[1]!._id, inB[2]!._id]);
    expect(await live({ channelId: a })).toEqual([inA[2]!._id, inA[3]!._id]);
  });

  it('when a scheme keeps 0 builds, then nothing is pruned', async () => {
    const { appId, schemeId, channelIds } = tree(0);
    const before = resolveCalls;
    for (let i = 0; i < 3; i++) await upload(appId, schemeId, channelIds[0]!);
    await eventually(async () => resolveCalls >= before + 3);
    await retentionDone();
    expect(await live({ channelId: channelIds[0]! })).toHaveLength(3);
  });

  it('when release.created is redelivered, then nothing more is pruned', async () => {
    const { appId, schemeId, channelIds } = tree(1);
    const channelId = channelIds[0]!;
    const resolvedBefore = resolveCalls;
    const first = await upload(appId, schemeId, channelId);
    const second = await upload(appId, schemeId, channelId);
    await eventually(async () => (await live({ channelId })).length === 1);
    // Both uploads' own events handled (one resolve each), then the same event twice more.
    await eventually(async () => resolveCalls >= resolvedBefore + 2);
    const envelope = createEnvelope('release.created', { release_id: second._id, app_id: appId, scheme_id: schemeId, channel_id: channelId, version: second.version, bundle_id: 'com.example', release_version: '1.0', build_version: '1', platform: 'Android' }, 'test');
    const before = resolveCalls;
    await publishEnvelope(bus.js, envelope, { prefix });
    await bus.js.publish(`${prefix}.releases.release.created.v1`, JSON.stringify(envelope), { msgID: uniqueName('again') });
    await eventually(async () => resolveCalls >= before + 2);
    await retentionDone();
    expect(await live({ channelId })).toEqual([second._id]);
    await eventually(async () => (await anyLeft({ _id: first._id })) === 0);
  });

  it('when the apps service cannot answer, then pruning waits and happens once it answers', async () => {
    const { appId, schemeId, channelIds } = tree(1);
    const channelId = channelIds[0]!;
    appsDown = true;
    try {
      const before = resolveCalls;
      await upload(appId, schemeId, channelId);
      await upload(appId, schemeId, channelId);
      await eventually(async () => resolveCalls >= before + 2);
      expect(await live({ channelId })).toHaveLength(2);
    } finally {
      appsDown = false;
    }
    await eventually(async () => (await live({ channelId })).length === 1, 30_000);
  });

  it.each([
    ['app.deleted', (t: ReturnType<typeof tree>) => ({ app_id: t.appId }), 'appId'],
    ['scheme.deleted', (t: ReturnType<typeof tree>) => ({ app_id: t.appId, scheme_id: t.schemeId }), 'schemeId'],
    ['channel.deleted', (t: ReturnType<typeof tree>) => ({ app_id: t.appId, scheme_id: t.schemeId, channel_id: t.channelIds[0]! }), 'channelId'],
  ] as const)('when %s arrives, then every release under it goes, files included, and nothing else', async (type, data, scopeKey) => {
    const t = tree(0, 2);
    const other = tree(0, 1);
    const under = [await upload(t.appId, t.schemeId, t.channelIds[0]!), await upload(t.appId, t.schemeId, t.channelIds[0]!)];
    const sibling = await upload(t.appId, t.schemeId, t.channelIds[1]!);
    const elsewhere = await upload(other.appId, other.schemeId, other.channelIds[0]!);
    await publish(type, data(t) as never);
    const keys = under.flatMap((r) => [r.objectKey, r.iconKey!]);
    await eventually(async () => (await stored(keys)) === 0 && (await anyLeft({ _id: under[0]!._id })) + (await anyLeft({ _id: under[1]!._id })) === 0);
    // The sibling channel goes with its app or scheme, not with the other channel.
    const siblingGone = scopeKey !== 'channelId';
    await eventually(async () => (await anyLeft({ _id: sibling._id })) === (siblingGone ? 0 : 1));
    expect(await stored([sibling.objectKey])).toBe(siblingGone ? 0 : 1);
    expect(await live({ _id: elsewhere._id })).toEqual([elsewhere._id]);
    expect(await stored([elsewhere.objectKey, elsewhere.iconKey!])).toBe(2);
  });

  it('when a release arrives for a channel that is already gone, then it is removed too', async () => {
    const { appId, schemeId, channelIds } = tree(0);
    channels.delete(channelIds[0]!);
    const orphan = await upload(appId, schemeId, channelIds[0]!);
    await eventually(async () => (await anyLeft({ _id: orphan._id })) === 0 && (await stored([orphan.objectKey])) === 0);
  });
});
