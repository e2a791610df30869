import { NatsConnection, connect } from '@nats-io/transport-node';
import { JetStreamClient, JetStreamManager, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { Logger } from '@hangar/logger';
import { watchConnection } from './connection-state';
import { useReplicas } from './jetstream-setup';

export interface EventBus {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  /** Copies of each stream and KV bucket created through this connection (`NATS_REPLICAS`). */
  replicas: number;
}

export interface EventBusOptions {
  /** `NATS_REPLICAS`: 1 for one server, 3 on a cluster (libs/config `natsReplicas`). */
  replicas?: number;
}

/** `NATS_URL` as the client takes it: one server, or a cluster's servers with commas between. */
export function natsServers(url: string): string[] {
  return url
    .split(',')
    .map((server) => server.trim())
    .filter(Boolean);
}

/**
 * Connects and keeps reconnecting for as long as the process lives: a NATS
 * outage delays events (the outbox holds them) but never stops a service. With
 * several servers (a cluster) it reconnects to whichever answers, so a node
 * going down moves the connection instead of waiting for that node.
 */
export async function connectEventBus(url: string, name: string, logger: Logger, options: EventBusOptions = {}): Promise<EventBus> {
  const replicas = options.replicas ?? 1;
  // A node that stops answering without closing the socket (a partition, a paused VM) is only
  // noticed by pings: with nats.js's default (every 2 min, 2 unanswered) a service would wait
  // minutes on it; a PING every 2 s, given up after 3 unanswered, moves within about 8 s. Such a
  // node still accepts connections (its kernel does), so a reconnect that tries it waits for a
  // greeting that never comes: 5 s, not nats.js's 20, before the next server is tried.
  const nc = await connect({
    servers: natsServers(url),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1_000,
    pingInterval: 2_000,
    maxPingOut: 3,
    timeout: 5_000,
  });
  watchConnection(nc, (change) => logger.warn({ nats: change }, 'NATS connection changed'));
  // JetStream may not answer yet (a cluster electing its meta leader): the start fails, and the
  // connection goes with it instead of reconnecting forever in a process that goes on.
  const jsm = await jetstreamManager(nc, { timeout: 5_000 }).catch(async (err: unknown) => {
    await nc.close().catch(() => undefined);
    throw err;
  });
  // Every stream and bucket made through this connection gets the same replica count,
  // whichever module makes it (ensureStream, openKvBucket): one setting, read here.
  useReplicas(nc, replicas);
  useReplicas(jsm, replicas);
  return { nc, js: jetstream(nc, { timeout: 5_000 }), jsm, replicas };
}
