import { Writable } from 'node:stream';
import type { Request } from 'express';
import { connectEventBus, downloadMessageSchema, downloadSubject, EventBus, MAX_TALLIES_PER_MESSAGE } from '@hangar/events';
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

  const request = (ip: string, userAgent: string) => ({ ip, socket: {}, get: (name: string) => (name === 'user-agent' ? userAgent : undefined) }) as unknown as Request;

  async function receiving(work: (received: unknown[]) => Promise<void>): Promise<unknown[]> {
    const received: unknown[] = [];
    const sub = bus.nc.subscribe(downloadSubject(prefix), { callback: (_err, msg) => void received.push(JSON.parse(msg.string())) });
    try {
      await work(received);
    } finally {
      sub.unsubscribe();
    }
    return received;
  }
  const until = async (check: () => boolean, timeoutMs = 5_000) => {
    const end = Date.now() + timeoutMs;
    while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  };

  it('when downloads are reported, then each returns at once and one message a moment carries their sums per release and client hash, never the address', async () => {
    const salts = await DailySalt.open(bus.nc, prefix);
    const counter = downloadCounter(bus.nc, salts, { prefix, logger, flushMs: 200 });
    try {
      const received = await receiving(async (received) => {
        const phone = request('198.51.100.23', 'Phone/1.0');
        expect(counter.count(7, phone)).toBeUndefined(); // the first of the day waits for the salt off the request path
        await until(() => received.length >= 1);
        for (let i = 0; i < 999; i += 1) counter.count(7, phone);
        counter.count(8, phone);
        counter.count(7, request('198.51.100.24', 'Phone/1.0'));
        // A user agent too long to remember is hashed each time, to the same client.
        const huge = request('198.51.100.25', `Phone/${'x'.repeat(4_000)}`);
        counter.count(7, huge);
        counter.count(7, huge);
        await until(() => received.length >= 2);
        // Nothing more comes: closing publishes whatever is still gathered, and the round trip
        // after it brings back anything this connection published before it.
        counter.close();
        await bus.nc.flush();
      });

      expect(received).toHaveLength(2);
      const [first, second] = received.map((m) => downloadMessageSchema.parse(m));
      expect(first).toEqual([expect.objectContaining({ r: 7, n: 1 })]);
      const byRelease = (r: number) => second!.filter((t) => t.r === r).sort((x, y) => y.n - x.n);
      expect(byRelease(7).map((t) => t.n)).toEqual([999, 2, 1]);
      expect(byRelease(7)[1]!.c).toBe(clientHash(salts.peek(new Date().toISOString().slice(0, 10))!, '198.51.100.25', `Phone/${'x'.repeat(4_000)}`));
      expect(byRelease(7)[0]!.c).toBe(first![0]!.c);
      expect(byRelease(8)).toEqual([expect.objectContaining({ n: 1, c: first![0]!.c })]);
      expect(byRelease(7)[2]!.c).not.toBe(first![0]!.c);
      expect(JSON.stringify(received)).not.toContain('198.51.100');
    } finally {
      counter.close();
    }
  });

  it('when the day turns, then the same client is hashed with the new day\'s salt, and a tally of each day carries its own hash', async () => {
    const salts = await DailySalt.open(bus.nc, prefix);
    let clock = Date.parse('2026-11-20T23:59:59.900Z');
    // The next day's salt exists (another gateway made it); this one holds the day before's.
    const after = await salts.get('2026-11-21');
    const before = await salts.get('2026-11-20');
    const counter = downloadCounter(bus.nc, salts, { prefix, logger, flushMs: 100, now: () => clock });
    const phone = request('198.51.100.30', 'Phone/2.0');
    const received = await receiving(async (received) => {
      counter.count(9, phone);
      counter.count(9, phone);
      await until(() => received.length >= 1);
      clock += 200; // past midnight
      counter.count(9, phone);
      await until(() => received.length >= 2);
      counter.close();
    });
    const tallies = received.flatMap((m) => downloadMessageSchema.parse(m)).sort((x, y) => x.t - y.t);
    expect(tallies).toEqual([
      expect.objectContaining({ r: 9, n: 2, c: clientHash(before, '198.51.100.30', 'Phone/2.0') }),
      expect.objectContaining({ r: 9, n: 1, c: clientHash(after, '198.51.100.30', 'Phone/2.0') }),
    ]);
  });

  it('when a message\'s worth of tallies gathers, then it is sent at once, and a gateway stopping sends what it holds', async () => {
    const salts = await DailySalt.open(bus.nc, prefix);
    await salts.get(new Date().toISOString().slice(0, 10));
    const counter = downloadCounter(bus.nc, salts, { prefix, logger, flushMs: 60_000 });
    const received = await receiving(async (received) => {
      for (let i = 0; i < MAX_TALLIES_PER_MESSAGE + 5; i += 1) counter.count(1_000 + i, request('203.0.113.9', 'CI/1'));
      await until(() => received.length >= 1);
      counter.close();
      await until(() => received.length >= 2);
    });

    const messages = received.map((m) => downloadMessageSchema.parse(m));
    expect(messages.map((m) => m.length)).toEqual([MAX_TALLIES_PER_MESSAGE, 5]);
  });
});
