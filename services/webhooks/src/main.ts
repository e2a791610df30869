import { telemetry } from './telemetry';
import { handleShutdown } from '@hangar/grpc';
import { createLogger } from '@hangar/logger';
import { Metrics, serveMetrics } from '@hangar/metrics';
import { startWebhooksService } from './webhooks-service';
import { loadWebhooksConfig } from './config';

async function main(): Promise<void> {
  const config = loadWebhooksConfig();
  const logger = createLogger({ service: 'webhooks', level: config.LOG_LEVEL });
  const metrics = new Metrics();
  const metricsServer = await serveMetrics(metrics, { port: config.METRICS_PORT });
  if (metricsServer.port) logger.info({ port: metricsServer.port }, 'metrics at /metrics');
  const service = await startWebhooksService(config, logger, metrics);
  handleShutdown(
    [
      { name: 'webhooks service', run: () => service.stop() },
      { name: 'metrics', run: () => metricsServer.stop() },
      { name: 'telemetry', run: () => telemetry.shutdown() },
    ],
    { logger, timeoutMs: config.SHUTDOWN_TIMEOUT_MS },
  );
}

main().catch((err) => {
  process.stderr.write(`webhooks service failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
