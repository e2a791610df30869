import { EXIT_REFUSED_TO_START } from '@hangar/config';
import { createLogger, type Logger } from '@hangar/logger';
import { Metrics, serveMetrics } from '@hangar/metrics';
import { ShutdownRegistry, stopOnSignals } from '@hangar/grpc';

/** The settings every service process reads (libs/config's `serviceBase`). */
export interface ProcessConfig {
  LOG_LEVEL: string;
  METRICS_PORT: number;
  SHUTDOWN_TIMEOUT_MS: number;
}

export interface ServiceProcess<C extends ProcessConfig> {
  /** As the start-failure line names it (`<name> service failed to start: …`, read by the launcher). */
  name: string;
  loadConfig(): C;
  /** The logs' service name when it is not `name` (the releases parse-workers mode). */
  logName?(config: C): string;
  /** From the service's `telemetry.ts`, imported first. */
  telemetry: { shutdown(): Promise<void> };
  /**
   * Answers /healthz on the metrics port from what `start` returns: only for a process with no
   * gRPC health service to probe. The metrics server is up before the start, so a probe
   * sees "not ready" rather than nothing.
   */
  answersHealthz?(config: C): boolean;
  /** Starts the service, its parts registered into `shutdown`. */
  start(context: { config: C; logger: Logger; metrics: Metrics; shutdown: ShutdownRegistry }): Promise<{ healthy?(): boolean } | void>;
  /** A start failure a restart would only repeat (a database that is not its bucket's): exit EXIT_REFUSED_TO_START, not 1. */
  refusedToStart?(err: unknown): boolean;
}

/**
 * A service's main.ts: config, logger, metrics, the service, then stop on SIGINT/SIGTERM
 * (every registered part in phase order, metrics and telemetry last). A failed start
 * prints one line and exits 1, or EXIT_REFUSED_TO_START when starting again cannot help.
 */
export function runService<C extends ProcessConfig>(service: ServiceProcess<C>): void {
  startProcess(service).catch((err: unknown) => {
    process.stderr.write(`${service.name} service failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(service.refusedToStart?.(err) ? EXIT_REFUSED_TO_START : 1);
  });
}

async function startProcess<C extends ProcessConfig>(service: ServiceProcess<C>): Promise<void> {
  const config = service.loadConfig();
  const logger = createLogger({ service: service.logName?.(config) ?? service.name, level: config.LOG_LEVEL });
  const metrics = new Metrics();
  const shutdown = new ShutdownRegistry(logger);
  let healthy: (() => boolean) | undefined;
  const answersHealthz = service.answersHealthz?.(config) ?? false;
  const metricsServer = await serveMetrics(metrics, { port: config.METRICS_PORT, ...(answersHealthz ? { healthy: () => healthy?.() ?? false } : {}) });
  if (metricsServer.port) logger.info({ port: metricsServer.port }, 'metrics at /metrics');
  shutdown.register({ name: 'metrics', phase: 'process', stop: () => metricsServer.stop() });
  shutdown.register({ name: 'telemetry', phase: 'process', stop: () => service.telemetry.shutdown() });
  const running = await service.start({ config, logger, metrics, shutdown });
  if (running?.healthy) healthy = running.healthy.bind(running);
  stopOnSignals(shutdown, { logger, timeoutMs: config.SHUTDOWN_TIMEOUT_MS });
}
