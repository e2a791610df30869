import { telemetry } from './telemetry';
import { EXIT_REFUSED_TO_START } from '@hangar/config';
import { handleShutdown } from '@hangar/grpc';
import { createLogger } from '@hangar/logger';
import { InstallationMismatch } from '@hangar/storage';
import { Metrics, serveMetrics } from '@hangar/metrics';
import { loadReleasesConfig } from './config';
import { startParseWorkers } from './parse-workers-process';
import { startReleasesService } from './releases-service';

async function main(): Promise<void> {
  const config = loadReleasesConfig();
  const workersOnly = config.RELEASES_MODE === 'parse-workers';
  const logger = createLogger({ service: workersOnly ? 'releases-parse-workers' : 'releases', level: config.LOG_LEVEL });
  const metrics = new Metrics();
  // Up before the work starts, so a probe sees "not ready" rather than nothing;
  // only the workers-only mode has no gRPC health service and answers /healthz.
  let healthy: (() => boolean) | undefined;
  const metricsServer = await serveMetrics(metrics, { port: config.METRICS_PORT, healthy: workersOnly ? () => healthy?.() ?? false : undefined });
  if (metricsServer.port) logger.info({ port: metricsServer.port }, 'metrics at /metrics');
  const running = workersOnly ? await startParseWorkers(config, logger, metrics) : await startReleasesService(config, logger, metrics);
  if ('healthy' in running) healthy = () => running.healthy();
  handleShutdown(
    [
      { name: workersOnly ? 'parse workers' : 'releases service', run: () => running.stop() },
      { name: 'metrics', run: () => metricsServer.stop() },
      { name: 'telemetry', run: () => telemetry.shutdown() },
    ],
    { logger, timeoutMs: config.SHUTDOWN_TIMEOUT_MS },
  );
}

main().catch((err) => {
  process.stderr.write(`releases service failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  // A database that does not belong to the bucket: a restart would only refuse again.
  process.exit(err instanceof InstallationMismatch ? EXIT_REFUSED_TO_START : 1);
});
