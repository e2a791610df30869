import type { Connection } from 'mongoose';
import type { OutboxRelay } from '@hangar/events';
import { type ShutdownRegistry, createServiceClient } from '@hangar/grpc';
import { startService } from '@hangar/service';
import type { Logger } from '@hangar/logger';
import type { Metrics } from '@hangar/metrics';
import { installationRecord } from '@hangar/mongo';
import { apps, debugFiles } from '@hangar/proto';
import { debugFileParseRouter } from '@hangar/parse-jobs';
import { guardInstallation, openStorage } from '@hangar/storage';
import type { DebugFilesConfig } from './config';
import { debugFileModel } from './data/debug-file.model';
import { DebugFilesRepository } from './data/debug-files.repository';
import type { DebugFilesDeps } from './domain/deps';
import { debugFileArchiveConsumer } from './events/debug-file-archive.consumer';
import { ownerDeletedConsumers } from './events/owner-deleted.consumers';
import { debugFilesHandlers } from './grpc/debug-files.handlers';
import { DEBUG_FILE_PREFIXES, startDebugFileOrphanJanitor } from './jobs/orphan-objects.job';
import { debugArchiveReader } from './parsing/debug-archive.reader';

export interface RunningDebugFilesService {
  port: number;
  deps: DebugFilesDeps;
  connection: Connection;
  relay: OutboxRelay;
  stop(): Promise<void>;
}

/** Wires the debug-files service on the service skeleton: database, storage, events, consumers, gRPC. main.ts and the component tests both start it here. */
export async function startDebugFilesService(config: DebugFilesConfig, logger: Logger, metrics?: Metrics, options: { shutdown?: ShutdownRegistry } = {}): Promise<RunningDebugFilesService> {
  return startService({ name: 'debug-files', config, logger, metrics, shutdown: options.shutdown }, async (service) => {
    const { connection, fileDocs } = await service.connectMongo((c) => ({ fileDocs: debugFileModel(c) }));

    const storage = await openStorage(config, metrics);
    // The releases service makes the installation id; this one joins it, and refuses to
    // start beside a bucket whose id or debug files its database does not hold
    // (the skeleton then closes the database again).
    const installation = await guardInstallation({
      storage,
      database: installationRecord(connection, ['debug_files']),
      prefixes: DEBUG_FILE_PREFIXES,
      mayCreate: false,
      ...(config.HANGAR_ADOPT_BUCKET ? { adopt: config.HANGAR_ADOPT_BUCKET } : {}),
      databaseName: `the debug-files database "${config.MONGO_DB}"`,
      bucketName: `the bucket "${config.S3_BUCKET}"`,
      logger,
    });
    service.watch('storage', () => storage.ping());
    const events = await service.startEvents({ outboxOf: [fileDocs], keepTombstonesOf: [fileDocs] });
    const { relay } = events;

    const repository = new DebugFilesRepository(connection, fileDocs);
    const deps: DebugFilesDeps = {
      files: repository,
      apps: createServiceClient(apps.AppsServiceDefinition, config.APPS_GRPC_TARGET, { defaultDeadlineMs: config.GRPC_DEADLINE_MS, metrics }),
      storage,
      // Parsed by the workers that parse packages (the releases service's, or its parse-workers Deployment).
      readArchive: debugArchiveReader(debugFileParseRouter({ nc: events.bus.nc, prefix: config.NATS_SUBJECT_PREFIX, timeoutMs: config.DEBUG_FILE_PARSE_TIMEOUT_MS, logger }), {
        maxTotalBytes: config.DEBUG_FILE_MAX_INFLATED_BYTES,
        maxCompressionRatio: config.DEBUG_FILE_MAX_COMPRESSION_RATIO,
      }),
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
    service.shutdown.register({ name: 'orphan janitor', phase: 'work', stop: () => janitor.stop() });

    service.serve(debugFiles.DebugFilesServiceDefinition, debugFilesHandlers(deps));
    return { deps, connection, relay };
  });
}
