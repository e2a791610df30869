import type { Connection } from 'mongoose';
import { OutboxRelay, startServiceEvents, natsReachable } from '@hangar/events';
import { createGrpcServer, createServiceClient } from '@hangar/grpc';
import type { Logger } from '@hangar/logger';
import type { Metrics } from '@hangar/metrics';
import { connectMongo, countedMongoErrors, installationRecord, syncIndexes, pingMongo } from '@hangar/mongo';
import { apps, debugFiles } from '@hangar/proto';
import { guardInstallation, openStorage } from '@hangar/storage';
import type { DebugFilesConfig } from './config';
import { debugFileModel } from './data/debug-file.model';
import { DebugFilesRepository } from './data/debug-files.repository';
import type { DebugFilesDeps } from './domain/deps';
import { debugFileArchiveConsumer } from './events/debug-file-archive.consumer';
import { ownerDeletedConsumers } from './events/owner-deleted.consumers';
import { debugFilesHandlers } from './grpc/debug-files.handlers';
import { DEBUG_FILE_PREFIXES, startDebugFileOrphanJanitor } from './jobs/orphan-objects.job';
import { readDebugArchive, removeStaleTempDirs } from './parsing/debug-archive.reader';

export interface RunningDebugFilesService {
  port: number;
  deps: DebugFilesDeps;
  connection: Connection;
  relay: OutboxRelay;
  stop(): Promise<void>;
}

/** Wires the debug-files service: database, storage, events, consumers, gRPC. main.ts and the component tests both start it here. */
export async function startDebugFilesService(config: DebugFilesConfig, logger: Logger, metrics?: Metrics): Promise<RunningDebugFilesService> {
  const connection = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB, logger, queryLogDir: config.HANGAR_QUERY_LOG_DIR });
  const fileDocs = debugFileModel(connection);
  await syncIndexes(connection);

  const storage = await openStorage(config, metrics);
  // The releases service makes the installation id; this one joins it, and refuses to
  // start beside a bucket whose id or debug files its database does not hold.
  const installation = await guardInstallation({
    storage,
    database: installationRecord(connection, ['debug_files']),
    prefixes: DEBUG_FILE_PREFIXES,
    mayCreate: false,
    ...(config.HANGAR_ADOPT_BUCKET ? { adopt: config.HANGAR_ADOPT_BUCKET } : {}),
    databaseName: `the debug-files database "${config.MONGO_DB}"`,
    bucketName: `the bucket "${config.S3_BUCKET}"`,
    logger,
  }).catch(async (err: unknown) => {
    await connection.close().catch(() => undefined);
    throw err;
  });
  const leftovers = await removeStaleTempDirs(config.DEBUG_FILE_TMP_DIR || undefined);
  if (leftovers.length > 0) logger.info({ leftovers }, 'removed archives fetched by processes that ended mid-read');

  const events = await startServiceEvents({
    natsUrl: config.NATS_URL,
    natsReplicas: config.NATS_REPLICAS,
    name: 'debug-files',
    prefix: config.NATS_SUBJECT_PREFIX,
    logger,
    metrics,
    outboxOf: [fileDocs],
    keepTombstonesOf: [fileDocs],
  });
  const { relay } = events;

  const repository = new DebugFilesRepository(connection, fileDocs);
  const deps: DebugFilesDeps = {
    files: repository,
    apps: createServiceClient(apps.AppsServiceDefinition, config.APPS_GRPC_TARGET, { defaultDeadlineMs: config.GRPC_DEADLINE_MS, metrics }),
    storage,
    readArchive: (objectKey) =>
      readDebugArchive(storage, objectKey, config.DEBUG_FILE_TMP_DIR || undefined, { maxTotalBytes: config.DEBUG_FILE_MAX_INFLATED_BYTES, maxCompressionRatio: config.DEBUG_FILE_MAX_COMPRESSION_RATIO }),
    onEventsRecorded: () => relay.poke(),
    logger,
    retraceMaxMappingBytes: config.DEBUG_FILE_RETRACE_MAX_MAPPING_BYTES,
  };

  await events.consume(debugFileArchiveConsumer(repository, storage));
  for (const handler of ownerDeletedConsumers(repository, storage)) await events.consume(handler);

  const janitor = startDebugFileOrphanJanitor({
    repository,
    storage,
    graceMs: config.STORAGE_JANITOR_GRACE_MS,
    intervalMs: config.STORAGE_JANITOR_INTERVAL_MS,
    connection,
    logger,
    metrics,
    maxShare: config.STORAGE_JANITOR_MAX_SHARE,
    minRemovals: config.STORAGE_JANITOR_MIN_REMOVALS,
    installationMatches: () => installation.matches(),
  });

  const server = createGrpcServer({ logger, classifiers: [countedMongoErrors(metrics)], metrics });
  server.add(debugFiles.DebugFilesServiceDefinition, debugFilesHandlers(deps));
  // /api/health reports these (the gateway asks every service); checked once a second, not per probe.
  server.watchDependencies({ database: () => pingMongo(connection), storage: () => storage.ping(), events: () => natsReachable(events.bus.nc) });
  const port = await server.listen(config.GRPC_LISTEN);

  return {
    port,
    deps,
    connection,
    relay,
    async stop() {
      await server.shutdown(Math.max(1_000, config.SHUTDOWN_TIMEOUT_MS - 3_000));
      await janitor.stop();
      await events.stop();
      await connection.close();
    },
  };
}
