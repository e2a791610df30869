import { JetStreamManager, StreamConfig } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { KV, KvOptions, Kvm } from '@nats-io/kv';
import { failingFastWhileDisconnected } from './connection-state';

/** The methods of a KV bucket that send to NATS. */
const KV_CALLS = ['get', 'put', 'create', 'update', 'delete', 'purge', 'keys', 'history', 'watch', 'status', 'destroy'] as const satisfies readonly (keyof KV)[];

/**
 * Creates a stream when missing; safe to call from every replica at start. Two replicas that
 * both find it missing both add it: the one that loses sees "already in use" or (NATS 2.9)
 * "subjects overlap with an existing stream", and finds the winner's stream on a second look.
 */
export async function ensureStream(jsm: JetStreamManager, config: Partial<StreamConfig> & { name: string }): Promise<string> {
  try {
    await jsm.streams.info(config.name);
  } catch {
    try {
      await jsm.streams.add(config);
    } catch (err) {
      await jsm.streams.info(config.name).catch(() => {
        throw err;
      });
    }
  }
  return config.name;
}

/**
 * Opens a KV bucket, creating it when missing — the same race as `ensureStream`, inside
 * `Kvm.create`: it looks the bucket up, then adds it, and a replica that loses the race is
 * refused. A second try finds the bucket and opens it. Bucket names allow letters, digits,
 * `-` and `_`; anything else in `name` becomes `_`.
 */
export async function openKvBucket(nc: NatsConnection, name: string, options: Partial<KvOptions>): Promise<KV> {
  const bucket = name.replace(/[^A-Za-z0-9_-]/g, '_');
  let kv: KV;
  try {
    kv = await new Kvm(nc).create(bucket, options);
  } catch (err) {
    kv = await new Kvm(nc).create(bucket, options).catch(() => {
      throw err;
    });
  }
  return failingFastWhileDisconnected(nc, kv, KV_CALLS);
}
