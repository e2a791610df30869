import { telemetry } from './telemetry';
import { handleShutdown } from '@hangar/grpc';
import { createLogger } from '@hangar/logger';
import { Metrics, serveMetrics } from '@hangar/metrics';
import { loadUsersConfig } from './config';
import { bootstrapAdmin } from './domain/bootstrap-admin';
import { startUsersService } from './users-service';

async function main(): Promise<void> {
  const config = loadUsersConfig();
  const logger = createLogger({ service: 'users', level: config.LOG_LEVEL });
  const metrics = new Metrics();
  const metricsServer = await serveMetrics(metrics, { port: config.METRICS_PORT });
  if (metricsServer.port) logger.info({ port: metricsServer.port }, 'metrics at /metrics');
  let bootstrap: Awaited<ReturnType<typeof bootstrapAdmin>> | undefined;
  const service = await startUsersService(config, logger, metrics, {
    beforeListening: async (deps) => {
      bootstrap = await bootstrapAdmin(deps, { email: config.HANGAR_ADMIN_EMAIL, password: config.HANGAR_ADMIN_PASSWORD, token: config.HANGAR_ADMIN_TOKEN }, logger);
    },
  });
  if (bootstrap?.created && (bootstrap.generatedToken || bootstrap.generatedPassword)) {
    // Printed once, outside the structured log, so secrets never enter log storage.
    process.stderr.write(
      `\nHangar bootstrap admin ${config.HANGAR_ADMIN_EMAIL}` +
        (bootstrap.generatedPassword ? `\n  password: ${bootstrap.generatedPassword}` : '') +
        (bootstrap.generatedToken ? `\n  token:    ${bootstrap.generatedToken}` : '') +
        '\nStore them now: they are not shown again.\n\n',
    );
  }

  handleShutdown(
    [
      { name: 'users service', run: () => service.stop() },
      { name: 'metrics', run: () => metricsServer.stop() },
      { name: 'telemetry', run: () => telemetry.shutdown() },
    ],
    { logger, timeoutMs: config.SHUTDOWN_TIMEOUT_MS },
  );
}

main().catch((err) => {
  process.stderr.write(`users service failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
