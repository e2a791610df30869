import type { Generations } from './generations';

interface Entry<V> {
  value: V;
  generations: number[];
  weight: number;
  storedAt: number;
}

export interface ValidatedCacheOptions<V> {
  generations: Generations;
  /** The most the cache holds, in units of `weigh` (entries, by default). */
  capacity: number;
  weigh?: (value: V) => number;
  /**
   * A copy older than this is read again even when its generations match: the
   * bound on staleness should a writer die between its write and its bump.
   */
  maxAgeMs: number;
}

/**
 * Values read from a database, kept while the generation keys they depend on
 * are unchanged (see generations.ts). The generations are read before the
 * value is loaded, so a copy is never newer-stamped than it is: a write that
 * lands during the load bumps past the stamp and the next use reloads. When
 * the generations cannot be read (NATS away), the value is loaded and not
 * kept. Least recently used values go first when the capacity is reached.
 */
export class ValidatedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /** Loads under way, so a burst of misses on one key reads the database once. */
  private readonly loading = new Map<string, { generations: number[]; value: Promise<V> }>();
  private weight = 0;

  constructor(private readonly options: ValidatedCacheOptions<V>) {}

  async get(key: string, dependsOn: readonly string[], load: () => Promise<V>): Promise<V> {
    let current: number[];
    try {
      current = await this.options.generations.read(dependsOn);
    } catch {
      this.clear();
      return load();
    }
    const entry = this.entries.get(key);
    if (entry && sameGenerations(entry.generations, current) && Date.now() - entry.storedAt < this.options.maxAgeMs) {
      // Map order is recency order: move it to the end.
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry.value;
    }
    const pending = this.loading.get(key);
    if (pending && sameGenerations(pending.generations, current)) return pending.value;
    // A real promise, awaited by every waiter: a mongoose query is a thenable that runs again
    // on each `then` ("Query was already executed" on the second waiter, found under load).
    const value = Promise.resolve(load());
    this.loading.set(key, { generations: current, value });
    try {
      const loaded = await value;
      this.store(key, { value: loaded, generations: current, weight: this.options.weigh?.(loaded) ?? 1, storedAt: Date.now() });
      return loaded;
    } finally {
      if (this.loading.get(key)?.value === value) this.loading.delete(key);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }

  clear(): void {
    this.entries.clear();
    this.weight = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Whether a copy is held for `key`, current or not (`get` still checks it). */
  holds(key: string): boolean {
    return this.entries.has(key);
  }

  private store(key: string, entry: Entry<V>): void {
    this.delete(key);
    if (entry.weight > this.options.capacity) return;
    this.entries.set(key, entry);
    this.weight += entry.weight;
    for (const [oldest, old] of this.entries) {
      if (this.weight <= this.options.capacity) break;
      this.entries.delete(oldest);
      this.weight -= old.weight;
    }
  }
}

function sameGenerations(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((g, i) => g === b[i]);
}
