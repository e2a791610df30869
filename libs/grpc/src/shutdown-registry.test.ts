import { ShutdownRegistry, type ShutdownPhase } from './shutdown-registry';

describe('ShutdownRegistry', () => {
  it('when parts register in any order, then they stop phase by phase, in registration order within a phase', async () => {
    const registry = new ShutdownRegistry();
    const stopped: string[] = [];
    const part = (name: string, phase: ShutdownPhase) => registry.register({ name, phase, stop: () => void stopped.push(name) });
    part('mongo', 'database');
    part('metrics', 'process');
    part('events', 'events');
    part('audit consumer', 'work');
    part('grpc', 'requests');
    part('retention job', 'work');
    part('telemetry', 'process');

    expect(await registry.stopAll(5_000)).toEqual({ cutOff: [], failed: [] });
    expect(stopped).toEqual(['grpc', 'audit consumer', 'retention job', 'events', 'mongo', 'metrics', 'telemetry']);
  });

  it('when a part hangs, then it is cut off in time for the parts after it, which still stop, all within the budget', async () => {
    const registry = new ShutdownRegistry();
    const stopped: string[] = [];
    registry.register({ name: 'grpc', phase: 'requests', reserveMs: 50, stop: () => new Promise<void>(() => undefined) });
    registry.register({ name: 'events', phase: 'events', reserveMs: 50, stop: () => void stopped.push('events') });
    registry.register({ name: 'mongo', phase: 'database', reserveMs: 50, stop: () => void stopped.push('mongo') });

    const started = Date.now();
    const outcome = await registry.stopAll(400);
    const took = Date.now() - started;

    expect(outcome).toEqual({ cutOff: ['grpc'], failed: [] });
    expect(stopped).toEqual(['events', 'mongo']);
    // Cut off at what the later parts leave it (400 - 2 × 50), not at the end of the budget.
    expect(took).toBeGreaterThanOrEqual(290);
    // Nothing waited for the hanging part (the slack is for a loaded machine's timers).
    expect(took).toBeLessThan(1_500);
  });

  it('hands each part what the budget has left minus what the parts after it keep', async () => {
    const registry = new ShutdownRegistry();
    const allowances: Record<string, number> = {};
    for (const [name, phase, reserveMs] of [['grpc', 'requests', 1_000], ['job', 'work', 200], ['mongo', 'database', 300]] as const) {
      registry.register({ name, phase, reserveMs, stop: (allowanceMs) => void (allowances[name] = allowanceMs) });
    }
    await registry.stopAll(10_000);
    expect(allowances.grpc).toBeGreaterThan(10_000 - 500 - 50);
    expect(allowances.grpc).toBeLessThanOrEqual(10_000 - 500);
    expect(allowances.mongo).toBeGreaterThan(10_000 - 100);
  });

  it('when a part throws, then the others still stop and the outcome names it', async () => {
    const registry = new ShutdownRegistry();
    const stopped: string[] = [];
    registry.register({ name: 'job', phase: 'work', stop: () => void stopped.push('job') });
    registry.register({ name: 'consumer', phase: 'work', stop: () => Promise.reject(new Error('consumer gone')) });
    registry.register({ name: 'sync part', phase: 'work', stop: () => { throw new Error('thrown at once'); } });
    registry.register({ name: 'mongo', phase: 'database', stop: () => void stopped.push('mongo') });

    expect(await registry.stopAll(5_000)).toEqual({ cutOff: [], failed: ['consumer', 'sync part'] });
    expect(stopped).toEqual(['job', 'mongo']);
  });

  it('when asked twice (a signal during a test stop), then every part stops once and both get the same outcome', async () => {
    const registry = new ShutdownRegistry();
    let stops = 0;
    registry.register({ name: 'mongo', phase: 'database', stop: () => void stops++ });
    const [first, second] = await Promise.all([registry.stopAll(1_000), registry.stopAll(1_000)]);
    expect(stops).toBe(1);
    expect(second).toBe(first);
    expect(() => registry.register({ name: 'late', phase: 'work', stop: () => undefined })).toThrow(/after the shutdown began/);
  });
});
