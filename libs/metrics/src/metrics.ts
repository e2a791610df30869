import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface MetricsOptions {
  /** Node.js process metrics (CPU, memory, event-loop lag, GC, handles); on by default. */
  defaultMetrics?: boolean;
}

/** Seconds buckets for request and RPC latency: 5 ms to 30 s. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * One process's Prometheus registry. Created in each process's main (or a
 * service's start function) and handed to whatever records metrics: no hidden
 * global, so component tests that start several services in one jest worker
 * each get their own series, and a test can read exactly what one piece
 * recorded.
 *
 * The metric accessors are get-or-create: asking twice for a name returns the
 * same metric, so a lib and a service can both ask for e.g. the webhook
 * counter without passing the instance around separately.
 */
export class Metrics {
  readonly registry = new Registry();

  constructor({ defaultMetrics = true }: MetricsOptions = {}) {
    if (defaultMetrics) collectDefaultMetrics({ register: this.registry });
  }

  counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
    return this.existing(name, Counter) ?? new Counter<L>({ name, help, labelNames, registers: [this.registry] });
  }

  histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[] = LATENCY_BUCKETS): Histogram<L> {
    return this.existing(name, Histogram) ?? new Histogram<L>({ name, help, labelNames, buckets, registers: [this.registry] });
  }

  gauge<L extends string>(name: string, help: string, labelNames: readonly L[]): Gauge<L> {
    return this.existing(name, Gauge) ?? new Gauge<L>({ name, help, labelNames, registers: [this.registry] });
  }

  /** The text exposition format Prometheus scrapes. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private existing<T>(name: string, kind: abstract new (...args: never[]) => T): T | undefined {
    const found = this.registry.getSingleMetric(name);
    if (!found) return undefined;
    if (!(found instanceof kind)) throw new Error(`metric ${name} is already registered as another type`);
    return found as T;
  }
}
