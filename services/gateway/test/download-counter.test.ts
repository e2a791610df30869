import { Writable } from 'node:stream';
import type { Request } from 'express';
import { connectEventBus, downloadMessageSchema, downloadSubject, EventBus } from '@hangar/events';
import { createLogger } from '@hangar/logger';
import { testInfrastructure, uniqueName } from '@hangar/testing';
import { DailySalt } from '../src/downloads/daily-salt';
import { clientHash, downloadCounter } from '../src/downloads/download-counter';

/** The gateway's side of download counting against a real NATS: the shared daily salt and the published message. */
describe('gateway: downloads reported', () => {
  const infra = testInfrastructure();
  const prefix = uniqueName('dl-gw');
  const logger = createLogger({ service: 'download-counter-test', level: 'warn', destination: new Writable({ write: (_c, _e, d) => d() }) });
  let bus: EventBus;

  beforeAll(async () => {
    bus = await connectEventBus(infra.natsUrl, 'download-counter-test', logger);
  });
  afterAll(async () => {
    await bus?.nc.drain();
  });

  it('when two gateways need the same day\'s salt, then they share one, another day has another, and hashes depend on it', async () => {
    const [a, b] = await Promise.all([DailySalt.open(bus.nc, prefix), DailySalt.open(bus.nc, prefix)]);
    const [saltA, saltB] = await Promise.all([a.get('2026-11-20'), b.get('2026-11-20')]);
    expect(saltA.equals(saltB)).toBe(true);
    expect(saltA).toHaveLength(32);
    const nextDay = await a.get('2026-11-21');
    expect(nextDay.equals(saltA)).toBe(false);
    expect(clientHash(saltA, '203.0.113.7', 'UA/1')).toBe(clientHash(saltB, '203.0.113.7', 'UA/1'));
    expect(clientHash(nextDay, '203.0.113.7', 'UA/1')).not.toBe(clientHash(saltA, '203.0.113.7', 'UA/1'));
    expect(clientHash(saltA, '203.0.113.7', 'UA/2')).not.toBe(clientHash(saltA, '203.0.113.7', 'UA/1'));
    expect(clientHash(saltA, '203.0.113.7', 'UA/1')).not.toContain('203');
  });

  it('when a download is reported, then it returns at once and the message carries the release, the kind and a hash, never the address', async () => {
    const salts = await DailySalt.open(bus.nc, prefix);
    const count = downloadCounter(bus.nc, salts, prefix, logger);
    const received: unknown[] = [];
    const sub = bus.nc.subscribe(downloadSubject(prefix), { callback: (_err, msg) => void received.push(JSON.parse(msg.string())) });
    const req = { ip: '198.51.100.23', socket: {}, get: (name: string) => (name === 'user-agent' ? 'Phone/1.0' : undefined) } as unknown as Request;

    expect(count(7, 'install', req)).toBeUndefined(); // the first of the day waits for the salt off the request path
    count(7, 'download', req);
    const end = Date.now() + 5_000;
    while (received.length < 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    sub.unsubscribe();

    expect(received).toHaveLength(2);
    const [first, second] = received.map((m) => downloadMessageSchema.parse(m));
    expect(first).toMatchObject({ r: 7, k: 'install' });
    expect(second).toMatchObject({ r: 7, k: 'download', c: first!.c });
    expect(JSON.stringify(received)).not.toContain('198.51.100.23');
  });
});
