import type { Generations } from './generations';
import { ValidatedCache } from './validated-cache';

/** Generations in memory: the logic of the cache, apart from NATS (which test/ covers). */
function memoryGenerations() {
  const values = new Map<string, number>();
  let reads = 0;
  let failing = false;
  const generations: Generations = {
    async read(keys) {
      reads += 1;
      if (failing) throw new Error('NATS away');
      return keys.map((k) => values.get(k) ?? 0);
    },
    async bump(keys) {
      for (const k of keys) values.set(k, (values.get(k) ?? 0) + 1);
    },
  };
  return { generations, reads: () => reads, fail: (f: boolean) => (failing = f) };
}

describe('ValidatedCache', () => {
  it('when the generations are unchanged, then the value is loaded once', async () => {
    const { generations } = memoryGenerations();
    const cache = new ValidatedCache<string>({ generations, capacity: 10, maxAgeMs: 60_000 });
    const load = jest.fn(async () => 'v');
    expect(await cache.get('k', ['g'], load)).toBe('v');
    expect(await cache.get('k', ['g'], load)).toBe('v');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('when a key it depends on is bumped, then the next get loads again', async () => {
    const { generations } = memoryGenerations();
    const cache = new ValidatedCache<number>({ generations, capacity: 10, maxAgeMs: 60_000 });
    let n = 0;
    const load = async () => ++n;
    expect(await cache.get('k', ['a', 'b'], load)).toBe(1);
    await generations.bump(['b']);
    expect(await cache.get('k', ['a', 'b'], load)).toBe(2);
    await generations.bump(['other']);
    expect(await cache.get('k', ['a', 'b'], load)).toBe(2);
  });

  it('when a write lands during a load, then that copy is not served after the bump', async () => {
    const { generations } = memoryGenerations();
    const cache = new ValidatedCache<string>({ generations, capacity: 10, maxAgeMs: 60_000 });
    let db = 'old';
    // The write and its bump happen while the first load is reading.
    const first = await cache.get('k', ['g'], async () => {
      const seen = db;
      db = 'new';
      await generations.bump(['g']);
      return seen;
    });
    expect(first).toBe('old');
    expect(await cache.get('k', ['g'], async () => db)).toBe('new');
  });

  it('when the generations cannot be read, then it loads every time and keeps nothing', async () => {
    const memory = memoryGenerations();
    const cache = new ValidatedCache<string>({ generations: memory.generations, capacity: 10, maxAgeMs: 60_000 });
    await cache.get('k', ['g'], async () => 'cached');
    memory.fail(true);
    const load = jest.fn(async () => 'fresh');
    expect(await cache.get('k', ['g'], load)).toBe('fresh');
    expect(await cache.get('k', ['g'], load)).toBe('fresh');
    expect(load).toHaveBeenCalledTimes(2);
    expect(cache.size).toBe(0);
  });

  it('when many gets miss at once, then the value is loaded once for all of them', async () => {
    const { generations } = memoryGenerations();
    const cache = new ValidatedCache<string>({ generations, capacity: 10, maxAgeMs: 60_000 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const load = jest.fn(async () => {
      await gate;
      return 'v';
    });
    const gets = Array.from({ length: 20 }, () => cache.get('k', ['g'], load));
    await new Promise((r) => setImmediate(r));
    release();
    expect(new Set(await Promise.all(gets))).toEqual(new Set(['v']));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('when the loader returns a thenable that runs on each then (a mongoose query), then concurrent misses run it once', async () => {
    const { generations } = memoryGenerations();
    const cache = new ValidatedCache<string>({ generations, capacity: 10, maxAgeMs: 60_000 });
    let runs = 0;
    const query = () => ({
      then(resolve: (v: string) => void, reject: (e: Error) => void) {
        runs += 1;
        if (runs > 1) return reject(new Error('Query was already executed'));
        setTimeout(() => resolve('v'), 5);
      },
    });
    const answers = await Promise.all(Array.from({ length: 5 }, () => cache.get('k', ['g'], query as unknown as () => Promise<string>)));
    expect(answers).toEqual(['v', 'v', 'v', 'v', 'v']);
    expect(runs).toBe(1);
  });

  it('when the capacity is passed, then the least recently used values go first', async () => {
    const { generations } = memoryGenerations();
    const cache = new ValidatedCache<number[]>({ generations, capacity: 5, maxAgeMs: 60_000, weigh: (v) => v.length });
    await cache.get('a', [], async () => [1, 2]);
    await cache.get('b', [], async () => [1, 2]);
    await cache.get('a', [], async () => [9]); // a is used again: b is now the oldest
    await cache.get('c', [], async () => [1, 2]);
    const loads: string[] = [];
    for (const key of ['a', 'b', 'c']) await cache.get(key, [], async () => (loads.push(key), [0]));
    expect(loads).toEqual(['b']);
  });

  it('when a copy is older than maxAgeMs, then it is loaded again though nothing was bumped', async () => {
    const { generations } = memoryGenerations();
    const cache = new ValidatedCache<number>({ generations, capacity: 10, maxAgeMs: 0 });
    let n = 0;
    await cache.get('k', [], async () => ++n);
    expect(await cache.get('k', [], async () => ++n)).toBe(2);
  });
});
