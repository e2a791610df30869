import { CompatServiceDefinition, Server, ServiceImplementation, createServer } from 'nice-grpc';
import { HealthDefinition, HealthServiceImpl, HealthState } from 'nice-grpc-server-health';
import type { Logger } from '@hangar/logger';
import type { Metrics } from '@hangar/metrics';
import { Dependency, DependencyChecks, dependencyChecks, dependencyHealthName } from './dependency-checks';
import { ErrorClassifier, errorMiddleware, metricsMiddleware, requestContextMiddleware } from './server-middleware';

export interface GrpcServer {
  add<S extends CompatServiceDefinition>(definition: S, implementation: ServiceImplementation<S>): void;
  /** Binds and starts serving; returns the bound port (useful with port 0). */
  listen(address: string): Promise<number>;
  /** Standard gRPC health: SERVING once started, NOT_SERVING while stopping. */
  setServing(serving: boolean): void;
  /**
   * Reports each dependency under `dependencyHealthName(name)`, checked when it is asked about
   * (`dependencyChecks`). The process's own status (the empty name: liveness, the callers'
   * channels) does not change with them.
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
  let dependencies: DependencyChecks | undefined;
  const answers = HealthServiceImpl(health);
  server.add(HealthDefinition, {
    ...answers,
    async check(request, context) {
      await dependencies?.freshen(request.service);
      return answers.check(request, context);
    },
  });
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
      dependencies = dependencyChecks(checks, (name, ok) => {
        if (!stopped) health.setStatus(ok ? 'healthy' : 'unhealthy', dependencyHealthName(name));
      });
    },
    async shutdown(timeoutMs) {
      stopped = true;
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
