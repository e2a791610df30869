import { Writable } from 'node:stream';
import { jetstreamManager } from '@nats-io/jetstream';
import { createLogger } from '@hangar/logger';
import { testInfrastructure, uniqueName } from '@hangar/testing';
import { connectEventBus, ensureStream, EventBus, openKvBucket } from '../src';

/**
 * Replicas that start together all create the same buckets and streams. On NATS 2.9 the one
 * that loses the race was refused ("subjects overlap with an existing stream") — a gateway
 * replica failed to start once in CI that way. Eight connections open the same names at once,
 * over and over: the race, made likely.
 */
describe('events: buckets and streams created by replicas starting together', () => {
  const infra = testInfrastructure();
  const logger = createLogger({ service: 'jetstream-setup-test', level: 'warn', destination: new Writable({ write: (_c, _e, d) => d() }) });
  let replicas: EventBus[] = [];

  beforeAll(async () => {
    replicas = await Promise.all(Array.from({ length: 8 }, (_, i) => connectEventBus(infra.natsUrl, `replica-${i}`, logger)));
  });
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.nc.drain()));
  });

  it('when eight replicas open the same KV buckets at once, then every one opens and they share each bucket', async () => {
    const names = Array.from({ length: 150 }, () => uniqueName('race'));
    const opened = await Promise.all(names.flatMap((name) => replicas.map((r) => openKvBucket(r.nc, name, { history: 1, ttl: 60_000 }))));
    expect(opened).toHaveLength(names.length * replicas.length);
    // What one replica writes, another reads: one bucket per name, not eight.
    const [first, last] = [opened[0]!, opened[replicas.length - 1]!];
    await first.put('k', 'v');
    expect((await last.get('k'))?.string()).toBe('v');
    await Promise.all(names.map((_, i) => opened[i * replicas.length]!.destroy()));
  });

  it('when a bucket name holds characters NATS refuses, then they become underscores', async () => {
    const kv = await openKvBucket(replicas[0]!.nc, `${uniqueName('odd')}.name/with:chars`, { history: 1 });
    expect((await kv.status()).bucket).toMatch(/^[A-Za-z0-9_-]+$/);
    await kv.destroy();
  });

  it('when eight replicas ensure the same streams at once, then every one gets its name back', async () => {
    const jsms = await Promise.all(replicas.map((r) => jetstreamManager(r.nc)));
    const names = Array.from({ length: 60 }, () => uniqueName('RACE').replace(/[^A-Za-z0-9_-]/g, '_'));
    const ensured = await Promise.all(names.flatMap((name) => jsms.map((jsm) => ensureStream(jsm, { name, subjects: [`${name}.>`] }))));
    expect(ensured).toEqual(names.flatMap((name) => jsms.map(() => name)));
    await Promise.all(names.map((name) => jsms[0]!.streams.delete(name)));
  });
});
