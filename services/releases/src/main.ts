import { handleShutdown } from '@hangar/grpc';
import { createLogger } from '@hangar/logger';
import { Metrics, serveMetrics } from '@hangar/metrics';
import { loadReleasesConfig } from './config';
import { startReleasesService } from './releases-service';

async function main(): Promise<void> {
  const config = loadReleasesConfig();
  const logger = createLogger({ service: 'releases', level: config.LOG_LEVEL });
  const metrics = new Metrics();
  const metricsServer = await serveMetrics(metrics, { port: config.METRICS_PORT });
  if (metricsServer.port) logger.info({ port: metricsServer.port }, 'metrics at /metrics');
  const service = await startReleasesService(config, logger, metrics);
  handleShutdown(
    [
      { name: 'releases service', run: () => service.stop() },
      { name: 'metrics', run: () => metricsServer.stop() },
    ],
    { logger, timeoutMs: config.SHUTDOWN_TIMEOUT_MS },
  );
}

main().catch((err) => {
  process.stderr.write(`releases service failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
