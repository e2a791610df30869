import { NatsConnection, connect } from '@nats-io/transport-node';
import { JetStreamClient, JetStreamManager, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { Logger } from '@hangar/logger';
import { watchConnection } from './connection-state';

export interface EventBus {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
}

/**
 * Connects and keeps reconnecting for as long as the process lives: a NATS
 * outage delays events (the outbox holds them) but never stops a service.
 */
export async function connectEventBus(url: string, name: string, logger: Logger): Promise<EventBus> {
  const nc = await connect({ servers: url, name, maxReconnectAttempts: -1, reconnectTimeWait: 1_000 });
  watchConnection(nc, (change) => logger.warn({ nats: change }, 'NATS connection changed'));
  const jsm = await jetstreamManager(nc, { timeout: 5_000 });
  return { nc, js: jetstream(nc, { timeout: 5_000 }), jsm };
}
