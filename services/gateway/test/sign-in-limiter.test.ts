import { Writable } from 'node:stream';
import { connectEventBus, EventBus } from '@hangar/events';
import { createLogger } from '@hangar/logger';
import { testInfrastructure, uniqueName } from '@hangar/testing';
import { SignInLimiter } from '../src/http/sign-in-limiter';

/** Sign-in attempts counted in NATS KV by two gateway replicas, each with its own connection. */
describe('gateway: sign-in attempts limited across replicas', () => {
  const infra = testInfrastructure();
  const logger = createLogger({ service: 'sign-in-limiter-test', level: 'warn', destination: new Writable({ write: (_c, _e, d) => d() }) });
  let buses: EventBus[] = [];

  beforeAll(async () => {
    buses = await Promise.all([connectEventBus(infra.natsUrl, 'replica-a', logger), connectEventBus(infra.natsUrl, 'replica-b', logger)]);
  });
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.nc.drain()));
  });

  const twoReplicas = async (limits = { perEmail: 10, perAddress: 1000, windowMs: 60_000 }) => {
    const prefix = uniqueName('sign-in');
    const [a, b] = await Promise.all(buses.map((bus) => SignInLimiter.open(bus.nc, prefix, limits)));
    return [a!, b!] as const;
  };

  it('when 20 attempts for one email arrive at once on two replicas, then exactly the limit of 10 is let through', async () => {
    const [a, b] = await twoReplicas();
    const verdicts = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).attempt('Victim@Example.com', `198.51.100.${i}`)));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(10);
    const refused = verdicts.find((v) => !v.allowed);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: expect.any(Number) });
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(50);
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(60);
    // The same email in another case is the same account.
    expect((await a.attempt('victim@example.com', '203.0.113.1')).allowed).toBe(false);
  });

  it('when the window was opened by a replica whose clock reads later, then Retry-After still asks for no more than one window', async () => {
    const [a, b] = await twoReplicas();
    const opened = Date.now();
    for (let i = 0; i < 10; i++) expect((await b.attempt('skew@example.com', '198.51.100.1', opened + 900)).allowed).toBe(true);
    expect(await a.attempt('skew@example.com', '198.51.100.1', opened)).toEqual({ allowed: false, retryAfterSeconds: 60 });
  });

  it('when the window has passed, then attempts are let through again', async () => {
    const [a, b] = await twoReplicas({ perEmail: 1, perAddress: 1000, windowMs: 60_000 });
    const now = Date.now();
    expect((await a.attempt('x@example.com', '1', now)).allowed).toBe(true);
    expect((await b.attempt('x@example.com', '1', now + 1_000)).allowed).toBe(false);
    expect((await b.attempt('x@example.com', '1', now + 61_000)).allowed).toBe(true);
  });

  it('when a sign-in succeeds on one replica, then its email starts afresh on the other, but its address keeps its count', async () => {
    const [a, b] = await twoReplicas({ perEmail: 2, perAddress: 3, windowMs: 60_000 });
    await a.attempt('y@example.com', '192.0.2.9');
    await a.attempt('y@example.com', '192.0.2.9');
    expect((await b.attempt('y@example.com', '192.0.2.10')).allowed).toBe(false);
    await a.succeeded('y@example.com');
    expect((await b.attempt('y@example.com', '192.0.2.10')).allowed).toBe(true);
    // The address 192.0.2.9 made two attempts; one more is allowed, then any email is refused from it.
    expect((await b.attempt('z1@example.com', '192.0.2.9')).allowed).toBe(true);
    expect((await b.attempt('z2@example.com', '192.0.2.9')).allowed).toBe(false);
  });
});
