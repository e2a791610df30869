import { JetStreamManager, StreamConfig, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { KV, KvOptions, Kvm } from '@nats-io/kv';
import { failingFastWhileDisconnected } from './connection-state';

/** The methods of a KV bucket that send to NATS. */
const KV_CALLS = ['get', 'put', 'create', 'update', 'delete', 'purge', 'keys', 'history', 'watch', 'status', 'destroy'] as const satisfies readonly (keyof KV)[];

/**
 * The replica count (`NATS_REPLICAS`) of each connection `connectEventBus` made, and of its
 * JetStream manager: the streams and KV buckets are created in many modules, each handed only
 * `nc` or `jsm`, and must all get the count the process was configured with. A connection made
 * any other way gets 1, JetStream's own default.
 */
const replicasOf = new WeakMap<object, number>();

export function useReplicas(connectionOrManager: NatsConnection | JetStreamManager, replicas: number): void {
  replicasOf.set(connectionOrManager, replicas);
}

export function replicasFor(connectionOrManager: NatsConnection | JetStreamManager): number {
  return replicasOf.get(connectionOrManager) ?? 1;
}

/**
 * Gives an existing stream (or KV bucket, whose stream is `KV_<bucket>`) the replica count
 * asked for: an installation that moves from one NATS server to a cluster, and sets
 * `NATS_REPLICAS=3`, has its streams made at 1 copy by earlier starts. JetStream copies the
 * data to the new peers itself; every replica starting asks for the same count, so their
 * updates agree. Consumers that did not set their own count follow their stream's.
 */
async function keepReplicas(jsm: JetStreamManager, config: StreamConfig, replicas: number): Promise<void> {
  if ((config.num_replicas || 1) === replicas || config.mirror) return;
  await jsm.streams.update(config.name, { ...config, num_replicas: replicas }).catch((err: unknown) => {
    throw new Error(`stream ${config.name}: changing ${config.num_replicas || 1} replicas to ${replicas} (NATS_REPLICAS) failed: ${(err as Error).message}`);
  });
}

/**
 * Creates a stream when missing; safe to call from every replica at start. Two replicas that
 * both find it missing both add it: the one that loses sees "already in use" or (NATS 2.9)
 * "subjects overlap with an existing stream", and finds the winner's stream on a second look.
 * The stream gets the manager's replica count (`NATS_REPLICAS`) unless `config` names one.
 */
export async function ensureStream(jsm: JetStreamManager, config: Partial<StreamConfig> & { name: string }): Promise<string> {
  const replicas = config.num_replicas ?? replicasFor(jsm);
  const wanted = { ...config, num_replicas: replicas };
  let existing: StreamConfig | undefined;
  try {
    existing = (await jsm.streams.info(config.name)).config;
  } catch {
    try {
      await jsm.streams.add(wanted);
    } catch (err) {
      existing = (
        await jsm.streams.info(config.name).catch(() => {
          throw err;
        })
      ).config;
    }
  }
  if (existing) await keepReplicas(jsm, existing, replicas);
  return config.name;
}

/**
 * Opens a KV bucket, creating it when missing — the same race as `ensureStream`, inside
 * `Kvm.create`: it looks the bucket up, then adds it, and a replica that loses the race is
 * refused. A second try finds the bucket and opens it. Bucket names allow letters, digits,
 * `-` and `_`; anything else in `name` becomes `_`. The bucket gets the connection's replica
 * count (`NATS_REPLICAS`) unless `options` names one; an existing bucket is brought to it.
 */
export async function openKvBucket(nc: NatsConnection, name: string, options: Partial<KvOptions>): Promise<KV> {
  const bucket = name.replace(/[^A-Za-z0-9_-]/g, '_');
  const withReplicas = { ...options, replicas: options.replicas ?? replicasFor(nc) };
  let kv: KV;
  try {
    kv = await new Kvm(nc).create(bucket, withReplicas);
  } catch (err) {
    kv = await new Kvm(nc).create(bucket, withReplicas).catch(() => {
      throw err;
    });
  }
  // `Kvm.create` opens an existing bucket as it is: its copies are brought to the count here.
  const status = await kv.status();
  if (status.replicas !== withReplicas.replicas) {
    const jsm = await jetstreamManager(nc, { timeout: 5_000 });
    await keepReplicas(jsm, (await jsm.streams.info(status.streamInfo.config.name)).config, withReplicas.replicas);
  }
  return failingFastWhileDisconnected(nc, kv, KV_CALLS);
}
