import type { Connection } from 'mongoose';
import { GENERATION_KEYS, bumpingQuietly, openGenerations } from '@hangar/cache';
import { cachingChannelResolution } from './clients/cached-apps-client';
import { ChannelReleases } from './domain/channel-releases';
import type { OutboxRelay } from '@hangar/events';
import { type ShutdownRegistry, createServiceClient } from '@hangar/grpc';
import { startService } from '@hangar/service';
import type { Logger } from '@hangar/logger';
import type { Metrics } from '@hangar/metrics';
import { installationRecord } from '@hangar/mongo';
import { apps, releases } from '@hangar/proto';
import { guardInstallation, openStorage } from '@hangar/storage';
import type { ReleasesConfig } from './config';
import { downloadStatsModels } from './data/download-stats.model';
import { DownloadStatsRepository } from './data/download-stats.repository';
import { releaseModel } from './data/release.model';
import { teardownModel } from './data/teardown.model';
import { TeardownsRepository } from './data/teardowns.repository';
import type { TeardownDeps } from './domain/teardown';
import { TEARDOWN_PREFIX, startTeardownExpiry, startTeardownOrphanJanitor } from './jobs/teardown-expiry.job';
import { DownloadCounts } from './domain/download-counts';
import { RunningDownloadsConsumer, startDownloadsConsumer } from './events/downloads.consumer';
import { ReleasesRepository } from './data/releases.repository';
import type { ReleasesDeps } from './domain/deps';
import { releaseFilesConsumer } from './events/release-files.consumer';
import { ownerDeletedConsumers, retentionConsumer } from './events/retention.consumer';
import { releasesHandlers } from './grpc/releases.handlers';
import { RELEASE_PREFIXES, startReleaseOrphanJanitor } from './jobs/orphan-objects.job';
import { type RunningParseWorker, parseRouter, startParseWorker } from '@hangar/parse-jobs';

export interface RunningReleasesService {
  port: number;
  deps: ReleasesDeps;
  connection: Connection;
  relay: OutboxRelay;
  /** Every part in phase order (the skeleton's ShutdownRegistry): gRPC, jobs, downloads, parse worker, NATS, MongoDB. */
  stop(): Promise<void>;
}

/** Wires the releases service on the service skeleton: database, storage, events, parsing workers, jobs, gRPC. */
export async function startReleasesService(config: ReleasesConfig, logger: Logger, metrics?: Metrics, options: { shutdown?: ShutdownRegistry } = {}): Promise<RunningReleasesService> {
  return startService({ name: 'releases', config, logger, metrics, shutdown: options.shutdown }, async (service) => {
    const { connection, releaseDocs, teardowns, downloadDocs } = await service.connectMongo((c) => ({
      releaseDocs: releaseModel(c),
      teardowns: new TeardownsRepository(teardownModel(c)),
      downloadDocs: downloadStatsModels(c),
    }));

    const storage = await openStorage(config, metrics);
    // This database and this bucket must be one installation before anything runs —
    // an empty or other database beside a bucket of Hangar's objects stops the start here
    // (the skeleton then closes the database again).
    const installation = await guardInstallation({
      storage,
      database: installationRecord(connection, ['releases', 'teardowns']),
      prefixes: [...RELEASE_PREFIXES, TEARDOWN_PREFIX],
      mayCreate: true,
      ...(config.HANGAR_ADOPT_BUCKET ? { adopt: config.HANGAR_ADOPT_BUCKET } : {}),
      databaseName: `the releases database "${config.MONGO_DB}"`,
      bucketName: `the bucket "${config.S3_BUCKET}"`,
      logger,
    });
    service.watch('storage', () => storage.ping());
    const events = await service.startEvents({ outboxOf: [releaseDocs, downloadDocs.totals], keepTombstonesOf: [releaseDocs] });
    const { bus, relay } = events;

    // Version queries and channel look-ups are answered from memory while their
    // generations (NATS KV, shared by every replica) are unchanged.
    const generations = await openGenerations(bus.nc, config.NATS_SUBJECT_PREFIX);
    const bumpChannel = (channelId: number) =>
      bumpingQuietly(generations, [GENERATION_KEYS.channelReleases(channelId)], (err) => logger.warn({ err, channelId }, 'Could not bump a channel generation; retrying'))();
    const repository = new ReleasesRepository(connection, releaseDocs, bumpChannel);
    const appsClient = createServiceClient(apps.AppsServiceDefinition, config.APPS_GRPC_TARGET, { defaultDeadlineMs: config.GRPC_DEADLINE_MS, metrics });
    const downloadStats = new DownloadStatsRepository(downloadDocs);
    await downloadStats.dropClientClaims();
    const deps: ReleasesDeps = {
      releases: repository,
      downloadStats,
      downloadCounts: new DownloadCounts(downloadStats, generations, { capacity: config.RELEASES_CACHE_MAX_DOCS, maxAgeMs: config.CACHE_MAX_AGE_MS }),
      channelReleases: new ChannelReleases(repository, generations, { maxDocuments: config.RELEASES_CACHE_MAX_DOCS, maxAgeMs: config.CACHE_MAX_AGE_MS }),
      apps: config.CHANNEL_CACHE_SIZE > 0 ? cachingChannelResolution(appsClient, generations, { capacity: config.CHANNEL_CACHE_SIZE, maxAgeMs: config.CACHE_MAX_AGE_MS }) : appsClient,
      storage,
      parse: parseRouter({
        nc: bus.nc,
        prefix: config.NATS_SUBJECT_PREFIX,
        timeoutMs: config.PARSE_TIMEOUT_MS,
        storage,
        logger,
        localWorker: config.PARSE_WORKER_ENABLED,
        concurrency: config.PARSE_WORKER_CONCURRENCY,
      }),
      onEventsRecorded: () => relay.poke(),
    };

    const worker: RunningParseWorker | undefined = config.PARSE_WORKER_ENABLED
      ? startParseWorker({ nc: bus.nc, storage, logger, prefix: config.NATS_SUBJECT_PREFIX, concurrency: config.PARSE_WORKER_CONCURRENCY, metrics })
      : undefined;
    await events.consume(releaseFilesConsumer(repository, storage));
    await events.consume(retentionConsumer(repository, deps.apps, deps.onEventsRecorded));
    for (const handler of ownerDeletedConsumers(repository, deps.onEventsRecorded)) await events.consume(handler);

    const downloads: RunningDownloadsConsumer = await startDownloadsConsumer(
      {
        stats: downloadStats,
        ownerOf: async (releaseId) => {
          const release = await deps.channelReleases.byId(releaseId);
          return release && { releaseId, appId: release.appId, schemeId: release.schemeId, channelId: release.channelId };
        },
        onCountsChanged: (channelIds) =>
          bumpingQuietly(generations, channelIds.map(GENERATION_KEYS.channelDownloads), (err) => logger.warn({ err }, 'Could not bump download generations; retrying'))(),
        onEventsRecorded: () => relay.poke(),
        noticeIntervalMs: config.DOWNLOAD_NOTICE_INTERVAL_MS,
      },
      { bus, prefix: config.NATS_SUBJECT_PREFIX, logger },
    );

    // The two janitors of this service (packages and icons; teardowns) sweep on one schedule and bound.
    const janitorSchedule = {
      graceMs: config.STORAGE_JANITOR_GRACE_MS,
      intervalMs: config.STORAGE_JANITOR_INTERVAL_MS,
      connection,
      logger,
      metrics,
      maxShare: config.STORAGE_JANITOR_MAX_SHARE,
      minRemovals: config.STORAGE_JANITOR_MIN_REMOVALS,
      installationMatches: () => installation.matches(),
    };
    const janitor = startReleaseOrphanJanitor({ repository, storage, ...janitorSchedule });

    const teardownDeps: TeardownDeps = { teardowns, storage, parse: deps.parse, retentionDays: config.TEARDOWN_RETENTION_DAYS };
    const teardownExpiry = startTeardownExpiry({ teardowns, storage, intervalMs: config.TEARDOWN_SWEEP_INTERVAL_MS, connection, logger });
    const teardownOrphans = startTeardownOrphanJanitor({ teardowns, storage, ...janitorSchedule });

    // After gRPC has drained (no request can start a parse or a teardown), before NATS is drained.
    for (const [name, job] of [['orphan janitor', janitor], ['teardown expiry', teardownExpiry], ['teardown orphan janitor', teardownOrphans], ['downloads consumer', downloads]] as const) {
      service.shutdown.register({ name, phase: 'work', stop: () => job.stop() });
    }
    if (worker) service.shutdown.register({ name: 'parse worker', phase: 'work', stop: () => worker.stop() });

    service.serve(releases.ReleasesServiceDefinition, releasesHandlers(deps, teardownDeps));
    return { deps, connection, relay };
  });
}
