import type { CompatServiceDefinition, ServiceImplementation } from 'nice-grpc';
import { natsReachable, startServiceEvents, type ServiceEvents, type ServiceEventsOptions } from '@hangar/events';
import type { Logger } from '@hangar/logger';
import type { Metrics } from '@hangar/metrics';
import { connectMongo, countedMongoErrors, pingMongo, syncIndexes } from '@hangar/mongo';
import { createGrpcServer, type Dependency, ShutdownRegistry, type ShutdownPart } from '@hangar/grpc';

type Connection = Awaited<ReturnType<typeof connectMongo>>;

/** The settings every gRPC service's skeleton reads (libs/config's service fields). */
export interface SkeletonConfig {
  MONGO_URL?: string | undefined;
  MONGO_DB: string;
  HANGAR_QUERY_LOG_DIR?: string | undefined;
  NATS_URL: string;
  NATS_REPLICAS?: number | undefined;
  NATS_SUBJECT_PREFIX: string;
  GRPC_LISTEN: string;
  SHUTDOWN_TIMEOUT_MS: number;
}

export interface StartServiceOptions<C extends SkeletonConfig> {
  /** The service's name: its NATS connection and its messages. */
  name: string;
  config: C;
  logger: Logger;
  metrics?: Metrics | undefined;
  /** The process's registry (main.ts, so metrics and telemetry stop after); a registry of its own when unset (component tests). */
  shutdown?: ShutdownRegistry | undefined;
}

/** What a service's wiring is handed: each part it starts here registers how it stops. */
export interface ServiceParts<C extends SkeletonConfig> {
  readonly config: C;
  readonly logger: Logger;
  readonly metrics: Metrics | undefined;
  /** Register what only the service has (a job, a consumer, a worker) in its phase. */
  readonly shutdown: ShutdownRegistry;
  /** Its database: connected, `models` made on it, their indexes built; closed in the database phase, checked for health. */
  connectMongo<M>(models: (connection: Connection) => M): Promise<M & { connection: Connection }>;
  /** Its side of NATS (outbox relay, consumers); drained in the events phase, checked for health. */
  startEvents(options: Pick<ServiceEventsOptions, 'outboxOf' | 'keepTombstonesOf'>): Promise<ServiceEvents>;
  /** A gRPC service the server answers once the wiring is done. */
  serve<S extends CompatServiceDefinition>(definition: S, implementation: ServiceImplementation<S>): void;
  /** A further dependency the gRPC health reports (the storage). */
  watch(dependency: Dependency, check: () => Promise<boolean>): void;
}

export interface RunningService {
  /** The bound gRPC port. */
  port: number;
  shutdown: ShutdownRegistry;
  /** Every part, in phase order, within SHUTDOWN_TIMEOUT_MS. */
  stop(): Promise<void>;
}

/** The gRPC drain ends its own in-flight calls this long before the registry would cut it off. */
const DRAIN_FORCE_MARGIN_MS = 100;
/** The drain's floor however many parts come after it. */
const DRAIN_RESERVE_MS = 1_000;
/** Kept for the outbox relay's last pass and the NATS drain should a part before them hang. */
const EVENTS_RESERVE_MS = 1_000;

/**
 * The skeleton every gRPC service starts from: `wire` builds what is the service's own
 * (models, repositories, consumers, jobs, handlers) on the parts handed to it; then the
 * gRPC server reports the dependencies' health and listens. Should anything fail before
 * it listens, whatever had started is stopped again and the error is thrown.
 * `<service>-service.ts` calls it; main.ts and the component tests call that.
 */
export async function startService<C extends SkeletonConfig, T extends object>(options: StartServiceOptions<C>, wire: (parts: ServiceParts<C>) => Promise<T>): Promise<T & RunningService> {
  const { name, config, logger, metrics } = options;
  const shutdown = options.shutdown ?? new ShutdownRegistry(logger);
  const server = createGrpcServer({ logger, classifiers: [countedMongoErrors(metrics)], metrics });
  const checks: Partial<Record<Dependency, () => Promise<boolean>>> = {};
  const register = (part: ShutdownPart) => shutdown.register(part);

  const parts: ServiceParts<C> = {
    config,
    logger,
    metrics,
    shutdown,
    async connectMongo(models) {
      if (!config.MONGO_URL) throw new Error(`MONGO_URL is required to run the ${name} service`);
      const connection = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB, logger, queryLogDir: config.HANGAR_QUERY_LOG_DIR });
      register({ name: 'mongo', phase: 'database', stop: () => connection.close() });
      const made = models(connection);
      await syncIndexes(connection);
      checks.database = () => pingMongo(connection);
      return { ...made, connection };
    },
    async startEvents({ outboxOf, keepTombstonesOf }) {
      const events = await startServiceEvents({
        natsUrl: config.NATS_URL,
        natsReplicas: config.NATS_REPLICAS,
        name,
        prefix: config.NATS_SUBJECT_PREFIX,
        logger,
        metrics,
        outboxOf,
        ...(keepTombstonesOf ? { keepTombstonesOf } : {}),
      });
      // Consumers, then the relay's last pass, then the connection drained (ServiceEvents.stop).
      register({ name: 'events', phase: 'events', reserveMs: EVENTS_RESERVE_MS, stop: () => events.stop() });
      checks.events = () => natsReachable(events.bus.nc);
      return events;
    },
    serve: (definition, implementation) => server.add(definition, implementation),
    watch(dependency, check) {
      checks[dependency] = check;
    },
  };

  try {
    const wired = await wire(parts);
    // /api/health reports these (the gateway asks every service); checked when asked, at most once a second.
    server.watchDependencies(checks);
    const port = await server.listen(config.GRPC_LISTEN);
    // Stops taking calls and reports NOT_SERVING, lets in-flight calls finish with what the later parts leave.
    register({ name: 'grpc', phase: 'requests', reserveMs: DRAIN_RESERVE_MS, stop: (allowanceMs) => server.shutdown(Math.max(0, allowanceMs - DRAIN_FORCE_MARGIN_MS)) });
    return {
      ...wired,
      port,
      shutdown,
      async stop() {
        await shutdown.stopAll(config.SHUTDOWN_TIMEOUT_MS);
      },
    };
  } catch (err) {
    // Before listening, nothing is served: undo what did start, then say why.
    await shutdown.stopAll(config.SHUTDOWN_TIMEOUT_MS);
    throw err;
  }
}
