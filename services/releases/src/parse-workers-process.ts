import { connectEventBus } from '@hangar/events';
import type { ShutdownRegistry } from '@hangar/grpc';
import type { Logger } from '@hangar/logger';
import type { Metrics } from '@hangar/metrics';
import { openStorage } from '@hangar/storage';
import type { ReleasesConfig } from './config';
import { startParseWorker } from '@hangar/parse-jobs';

export interface RunningParseWorkers {
  /** For /healthz: connected to NATS, so requests can reach the workers. */
  healthy(): boolean;
}

/**
 * RELEASES_MODE=parse-workers: only the package-parsing workers, so parsing
 * scales as its own Deployment on its backlog while the releases service
 * scales on its RPCs. No database, no gRPC server, no event consumers, no
 * janitor: a worker reads the upload from S3, stores the icon and answers
 * over NATS; the releases service that asked records the release.
 */
export async function startParseWorkers(config: ReleasesConfig, logger: Logger, metrics: Metrics | undefined, shutdown: ShutdownRegistry): Promise<RunningParseWorkers> {
  const storage = await openStorage(config, metrics);
  const bus = await connectEventBus(config.NATS_URL, 'releases-parse-workers', logger, { replicas: config.NATS_REPLICAS });
  shutdown.register({ name: 'nats', phase: 'events', stop: () => bus.nc.drain() });
  let connected = true;
  void (async () => {
    for await (const status of bus.nc.status()) {
      if (status.type === 'disconnect') connected = false;
      else if (status.type === 'reconnect') connected = true;
    }
  })().catch(() => undefined);
  const worker = startParseWorker({ nc: bus.nc, storage, logger, prefix: config.NATS_SUBJECT_PREFIX, concurrency: config.PARSE_WORKER_CONCURRENCY, metrics });
  shutdown.register({ name: 'parse workers', phase: 'work', stop: () => worker.stop() });
  logger.info({ concurrency: config.PARSE_WORKER_CONCURRENCY }, 'package-parsing workers only (RELEASES_MODE=parse-workers)');
  return {
    healthy: () => connected && !bus.nc.isClosed(),
  };
}
