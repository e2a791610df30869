import { CompatServiceDefinition, Server, ServiceImplementation, createServer } from 'nice-grpc';
import { HealthDefinition, HealthServiceImpl, HealthState } from 'nice-grpc-server-health';
import type { Logger } from '@hangar/logger';
import type { Metrics } from '@hangar/metrics';
import { ErrorClassifier, errorMiddleware, metricsMiddleware, requestContextMiddleware } from './server-middleware';

export interface GrpcServer {
  add<S extends CompatServiceDefinition>(definition: S, implementation: ServiceImplementation<S>): void;
  /** Binds and starts serving; returns the bound port (useful with port 0). */
  listen(address: string): Promise<number>;
  /** Standard gRPC health: SERVING once started, NOT_SERVING while stopping. */
  setServing(serving: boolean): void;
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

  return {
    add: (definition, implementation) => server.add(definition, implementation),
    async listen(address) {
      const port = await server.listen(address);
      health.setStatus('healthy');
      logger.info({ address, port }, 'gRPC server listening');
      return port;
    },
    setServing: (serving) => health.setStatus(serving ? 'healthy' : 'unhealthy'),
    async shutdown(timeoutMs) {
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
