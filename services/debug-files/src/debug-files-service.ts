import type { Connection } from 'mongoose';
import { OutboxRelay, startServiceEvents } from '@hangar/events';
import { createGrpcServer, createServiceClient } from '@hangar/grpc';
import type { Logger } from '@hangar/logger';
import type { Metrics } from '@hangar/metrics';
import { connectMongo, countedMongoErrors, syncIndexes } from '@hangar/mongo';
import { apps, debugFiles } from '@hangar/proto';
import { openStorage } from '@hangar/storage';
import type { DebugFilesConfig } from './config';
import { debugFileModel } from './data/debug-file.model';
import { DebugFilesRepository } from './data/debug-files.repository';
import type { DebugFilesDeps } from './domain/deps';
import { debugFileArchiveConsumer } from './events/debug-file-archive.consumer';
import { ownerDeletedConsumers } from './events/owner-deleted.consumers';
import { debugFilesHandlers } from './grpc/debug-files.handlers';
import { startDebugFileOrphanJanitor } from './jobs/orphan-objects.job';
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
  const leftovers = await removeStaleTempDirs(config.DEBUG_FILE_TMP_DIR || undefined);
  if (leftovers.length > 0) logger.info({ leftovers }, 'removed archives fetched by processes that ended mid-read');

  const events = await startServiceEvents({
    natsUrl: config.NATS_URL,
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
    readArchive: (objectKey) => readDebugArchive(storage, objectKey, config.DEBUG_FILE_TMP_DIR || undefined),
    onEventsRecorded: () => relay.poke(),
    logger,
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
  });

  const server = createGrpcServer({ logger, classifiers: [countedMongoErrors(metrics)], metrics });
  server.add(debugFiles.DebugFilesServiceDefinition, debugFilesHandlers(deps));
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
