import type { Model } from 'mongoose';
import type { Logger } from '@hangar/logger';
import type { Metrics } from '@hangar/metrics';
import { EventHandler, RunningConsumer, startConsumer } from './consumer-runner';
import type { EventType } from './event-registry';
import { ensureEventStream } from './event-stream';
import { EventBus, connectEventBus } from './nats-connection';
import { OutboxRelay } from './outbox';

export interface ServiceEventsOptions {
  natsUrl: string;
  /** `NATS_REPLICAS`: copies of each stream and KV bucket (1 when unset). */
  natsReplicas?: number;
  /** The service's name, as NATS shows the connection. */
  name: string;
  prefix: string;
  logger: Logger;
  metrics?: Metrics;
  /** Models whose documents carry an outbox the relay publishes from. */
  outboxOf: Model<any>[];
  /** Of those, the ones whose tombstones their own consumers remove (see OutboxRelayOptions). */
  keepTombstonesOf?: Model<any>[];
}

/** A service's side of the event bus: the connection, its outbox relay and its consumers. */
export interface ServiceEvents {
  bus: EventBus;
  relay: OutboxRelay;
  /** Starts a durable consumer, stopped by `stop()`. */
  consume<T extends EventType>(handler: EventHandler<T>): Promise<void>;
  /** Consumers first (no new work), then the relay (no half-published pass), then the connection, drained. */
  stop(): Promise<void>;
}

/**
 * Connects a service to NATS the way every service does: the event stream
 * exists, the outbox relay runs, consumers share the service's options. One
 * place for that wiring and its stop order, instead of a copy per service.
 */
export async function startServiceEvents(options: ServiceEventsOptions): Promise<ServiceEvents> {
  const { natsUrl, natsReplicas, name, prefix, logger, metrics, outboxOf, keepTombstonesOf } = options;
  const bus = await connectEventBus(natsUrl, name, logger, { replicas: natsReplicas });
  await ensureEventStream(bus.jsm, prefix);
  const relay = new OutboxRelay({ models: outboxOf, ...(keepTombstonesOf ? { keepTombstonesOf } : {}), js: bus.js, logger, prefix, metrics });
  relay.start();
  const consumers: RunningConsumer[] = [];
  return {
    bus,
    relay,
    async consume(handler) {
      consumers.push(await startConsumer(handler, { bus, logger, prefix, metrics }));
    },
    async stop() {
      await Promise.all(consumers.splice(0).map((c) => c.stop()));
      await relay.stop();
      await bus.nc.drain();
    },
  };
}
