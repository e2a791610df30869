import { CompatServiceDefinition, Server, ServiceImplementation, createServer } from 'nice-grpc';
import { HealthDefinition, HealthServiceImpl, HealthState } from 'nice-grpc-server-health';
import type { Logger } from '@hangar/logger';
import type { Metrics } from '@hangar/metrics';
import { ErrorClassifier, errorMiddleware, metricsMiddleware, requestContextMiddleware } from './server-middleware';

/** What a service depends on, each reported under its own name by the standard gRPC health service. */
export const DEPENDENCIES = ['database', 'storage', 'events'] as const;
export type Dependency = (typeof DEPENDENCIES)[number];
/** The health service name of a dependency (`hangar.dependency.database`); the empty name stays the process itself. */
export const dependencyHealthName = (dependency: Dependency) => `hangar.dependency.${dependency}`;
/** How often a service checks its dependencies: /api/health reads the last result, so a probe costs no query. */
export const DEPENDENCY_CHECK_INTERVAL_MS = 1_000;
/** A check that has not answered by then counts as a dependency down. */
const DEPENDENCY_CHECK_TIMEOUT_MS = 2_000;

export interface GrpcServer {
  add<S extends CompatServiceDefinition>(definition: S, implementation: ServiceImplementation<S>): void;
  /** Binds and starts serving; returns the bound port (useful with port 0). */
  listen(address: string): Promise<number>;
  /** Standard gRPC health: SERVING once started, NOT_SERVING while stopping. */
  setServing(serving: boolean): void;
  /**
   * Checks each dependency every DEPENDENCY_CHECK_INTERVAL_MS (one check at a time, the next after
   * the last answered) and reports it under `dependencyHealthName(name)`. The process's own status
   * (the empty name: liveness, the callers' channels) does not change with them.
   */
  watchDependencies(checks: Partial<Record<Dependency, () => Promise<boolean>>>): void;
  /** Stops taking calls, lets in-flight ones finish, forces after the timeout. */
  shutdown(timeoutMs: number): Promise<void>;
}

export function createGrpcServer({ logger, classifiers = [], metrics }: { logger: Logger; classifiers?: ErrorClassifier[]; metrics?: Metrics }): GrpcServer {
  const base = createServer({
    // Package metadata crosses as object keys, never file bytes, but allow
    // headroom for large listings.
    'grpc.max_receive_message_length': 16 * 1024 * 1024,
  });
  // Metrics outermost: they see the status the error middleware answers with.
  const server: Server = (metrics ? base.use(metricsMiddleware(metrics)) : base)
    .use(requestContextMiddleware())
    .use(errorMiddleware(logger, classifiers));
  const health = HealthState();
  health.setStatus('unhealthy');
  server.add(HealthDefinition, HealthServiceImpl(health));
  let watching: NodeJS.Timeout | undefined;
  let stopped = false;

  return {
    add: (definition, implementation) => server.add(definition, implementation),
    async listen(address) {
      const port = await server.listen(address);
      health.setStatus('healthy');
      logger.info({ address, port }, 'gRPC server listening');
      return port;
    },
    setServing: (serving) => health.setStatus(serving ? 'healthy' : 'unhealthy'),
    watchDependencies(checks) {
      const entries = Object.entries(checks) as [Dependency, () => Promise<boolean>][];
      const checkAll = async () => {
        await Promise.all(
          entries.map(async ([name, check]) => {
            const ok = await withTimeout(check(), DEPENDENCY_CHECK_TIMEOUT_MS).catch(() => false);
            if (!stopped) health.setStatus(ok ? 'healthy' : 'unhealthy', dependencyHealthName(name));
          }),
        );
        if (!stopped) watching = setTimeout(() => void checkAll(), DEPENDENCY_CHECK_INTERVAL_MS).unref();
      };
      // Unknown until the first check has answered (a probe then reads 'unavailable').
      for (const [name] of entries) health.setStatus('unhealthy', dependencyHealthName(name));
      void checkAll();
    },
    async shutdown(timeoutMs) {
      stopped = true;
      clearTimeout(watching);
      health.setStatus('unhealthy');
      let timer: NodeJS.Timeout | undefined;
      const forced = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          logger.warn({ timeoutMs }, 'gRPC shutdown timed out; cancelling in-flight calls');
          server.forceShutdown();
          resolve();
        }, timeoutMs);
      });
      await Promise.race([server.shutdown(), forced]);
      clearTimeout(timer);
    },
  };
}

function withTimeout(check: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([check, late]).finally(() => clearTimeout(timer));
}
