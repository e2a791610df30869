import { Writable } from 'node:stream';
import mongoose from 'mongoose';
import { NotFound, Unimplemented } from '@hangar/errors';
import { createEnvelope } from '@hangar/events';
import { createGrpcServer, createServiceClient } from '@hangar/grpc';
import { createLogger } from '@hangar/logger';
import { apps, releases } from '@hangar/proto';
import { testInfrastructure, uniqueName } from '@hangar/testing';
import { versionSortKey } from '@hangar/versions';
import { loadReleasesConfig } from '../src/config';
import { RunningReleasesService, startReleasesService } from '../src/releases-service';

/**
 * In-app update checks through the releases service's gRPC API, against real
 * FerretDB and NATS: polling costs no database read while nothing changed,
 * and a change (a release marked mandatory) is in the very next answer. A
 * stand-in apps service answers ResolveChannel (the apps service is not what
 * is proven here).
 */
describe('releases: update checks from memory', () => {
  const infra = testInfrastructure();
  const prefix = uniqueName('upd-ct');
  const logger = createLogger({ service: 'update-check-test', level: 'warn', destination: new Writable({ write: (c, _e, d) => (process.env.DEBUG_LOGS && process.stderr.write(c), d()) }) });
  let service: RunningReleasesService;
  let fakeApps: ReturnType<typeof createGrpcServer>;
  let client: ReturnType<typeof createServiceClient<typeof releases.ReleasesServiceDefinition>>;
  const context: apps.ChannelContext = {
    app: { id: 11, name: 'Demo', schemes: [], collaborators: [], createdAtMs: 0 },
    scheme: { id: 12, appId: 11, name: 'Beta', newBuildCallout: false, retainedBuilds: 0, channels: [] },
    channel: { id: 13, schemeId: 12, name: 'Android', slug: 'update-check-key', deviceType: 'android', bundleId: '*', hasPassword: false, minSupportedVersion: '' },
  };
  /**
   * Reads of the releases' collections, as mongoose sends them, less the two background jobs on
   * timers of their own: the outbox relay's polling and the download-notice flush's sweep of
   * dirty totals (every 15 s; once it fell inside the polls and CI counted 1 read).
   */
  let reads = 0;

  beforeAll(async () => {
    fakeApps = createGrpcServer({ logger });
    const unimplemented = Object.fromEntries(Object.keys(apps.AppsServiceDefinition.methods).map((name) => [name, async () => Promise.reject(new Unimplemented(name))]));
    fakeApps.add(apps.AppsServiceDefinition, {
      ...unimplemented,
      async resolveChannel(req: apps.ResolveChannelRequest) {
        if (req.channelKey !== context.channel!.slug && req.channelId !== context.channel!.id) throw new NotFound('Channel not found for this channel_key');
        return context;
      },
    } as unknown as apps.AppsServiceImplementation);
    const appsPort = await fakeApps.listen('127.0.0.1:0');
    service = await startReleasesService(
      loadReleasesConfig({
        MONGO_URL: infra.mongoUrl,
        MONGO_DB: `${prefix.replace(/-/g, '_')}_releases`,
        NATS_URL: infra.natsUrl,
        NATS_SUBJECT_PREFIX: prefix,
        GRPC_LISTEN: '127.0.0.1:0',
        SHUTDOWN_TIMEOUT_MS: '3000',
        APPS_GRPC_TARGET: `127.0.0.1:${appsPort}`,
        S3_ENDPOINT: infra.s3.endpoint,
        S3_ACCESS_KEY: infra.s3.accessKey,
        S3_SECRET_KEY: infra.s3.secretKey,
        S3_BUCKET: uniqueName('upd-bucket'),
        PARSE_WORKER_ENABLED: 'false',
        METRICS_PORT: '0',
      }),
      logger,
    );
    client = createServiceClient(releases.ReleasesServiceDefinition, `127.0.0.1:${service.port}`, { defaultDeadlineMs: 10_000 });
    mongoose.set('debug', (collection: string, method: string, filter: unknown) => {
      if (!['releases', 'download_totals'].includes(collection) || !/^find/.test(method)) return;
      const sent = JSON.stringify(filter ?? {});
      if (sent.includes('outboxPending') || sent === '{"dirty":true}') return;
      reads += 1;
    });
  });

  afterAll(async () => {
    mongoose.set('debug', false);
    await service?.connection.dropDatabase().catch(() => undefined);
    await service?.stop();
    await fakeApps?.shutdown(1_000);
  });

  async function record(releaseVersion: string, buildVersion: string, sha256: string) {
    return service.deps.releases.create(
      {
        appId: 11, schemeId: 12, channelId: 13, appName: 'Demo', bundleId: 'com.example.demo', releaseVersion, buildVersion, versionKey: versionSortKey(releaseVersion, buildVersion),
        source: 'api', branch: '', gitCommit: '', ciUrl: '', releaseType: '', size: 13, platform: 'Android', deviceType: 'Phone', minOsVersion: '', changelog: [], customFields: [],
        objectKey: `packages/${uniqueName('pkg')}`, fileName: 'a.apk', fileExtension: 'apk', metadataJson: '{}', sha256, mandatory: false,
      },
      (id, version) =>
        createEnvelope('release.created', { release_id: id, app_id: 11, scheme_id: 12, channel_id: 13, version, bundle_id: 'com.example.demo', release_version: releaseVersion, build_version: buildVersion, platform: 'Android' }, 'releases'),
    );
  }

  const ask = (releaseVersion: string, buildVersion: string, releaseHash = '') =>
    client.checkForUpdate({ channelKey: 'update-check-key', bundleId: 'com.example.demo', releaseVersion, buildVersion, releaseHash });

  it('when an app polls and nothing changed, then no database is read; when a build is marked mandatory, then the next answer says so', async () => {
    await record('1.9', '50', 'a'.repeat(64));
    const newest = await record('2.0', '1', 'b'.repeat(64));

    const first = await ask('1.9', '50');
    expect(first).toMatchObject({ updateAvailable: true, mandatory: false, release: { id: newest._id, releaseVersion: '2.0', buildVersion: '1', sha256: 'b'.repeat(64) } });

    reads = 0;
    for (let i = 0; i < 20; i += 1) expect((await ask('1.9', '50')).release!.id).toBe(newest._id);
    expect(await ask('2.0', '1')).toMatchObject({ updateAvailable: false, mandatory: false });
    expect(await ask('1.9', '50', 'B'.repeat(64))).toMatchObject({ updateAvailable: false, hashMatched: true });
    expect(reads).toBe(0);

    await service.deps.releases.update(newest._id, { mandatory: true });
    expect(await ask('1.9', '50')).toMatchObject({ updateAvailable: true, mandatory: true, release: { id: newest._id, mandatory: true } });
    expect(reads).toBeGreaterThan(0); // read again once, after the change
  });

  it('when the installed build has the newest numbers but another package, then the rebuilt package is offered', async () => {
    const rebuilt = await record('3.0', '7', 'c'.repeat(64));
    expect(await ask('3.0', '7', 'd'.repeat(64))).toMatchObject({ updateAvailable: true, release: { id: rebuilt._id } });
    expect(await ask('3.0', '7', 'c'.repeat(64))).toMatchObject({ updateAvailable: false, hashMatched: true });
    expect(await ask('3.0', '7')).toMatchObject({ updateAvailable: false });
  });
});
