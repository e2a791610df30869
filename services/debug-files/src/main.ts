import { telemetry } from './telemetry';
import { EXIT_REFUSED_TO_START } from '@hangar/config';
import { handleShutdown } from '@hangar/grpc';
import { createLogger } from '@hangar/logger';
import { InstallationMismatch } from '@hangar/storage';
import { Metrics, serveMetrics } from '@hangar/metrics';
import { loadDebugFilesConfig } from './config';
import { startDebugFilesService } from './debug-files-service';

async function main(): Promise<void> {
  const config = loadDebugFilesConfig();
  const logger = createLogger({ service: 'debug-files', level: config.LOG_LEVEL });
  const metrics = new Metrics();
  const metricsServer = await serveMetrics(metrics, { port: config.METRICS_PORT });
  if (metricsServer.port) logger.info({ port: metricsServer.port }, 'metrics at /metrics');
  const service = await startDebugFilesService(config, logger, metrics);
  handleShutdown(
    [
      { name: 'debug-files service', run: () => service.stop() },
      { name: 'metrics', run: () => metricsServer.stop() },
      { name: 'telemetry', run: () => telemetry.shutdown() },
    ],
    { logger, timeoutMs: config.SHUTDOWN_TIMEOUT_MS },
  );
}

main().catch((err) => {
  process.stderr.write(`debug-files service failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  // A database that does not belong to the bucket: a restart would only refuse again.
  process.exit(err instanceof InstallationMismatch ? EXIT_REFUSED_TO_START : 1);
});
