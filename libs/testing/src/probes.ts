import { freePort } from '@hangar/infra';
import { eventually } from './eventually';

/**
 * Small probes component tests share: a port nothing listens on, what an S3
 * bucket still holds of unfinished uploads, and a counter's value. Typed by
 * shape, so this lib does not depend on the libs it probes.
 */

/** A port nothing listens on: for pointing a client at a server that is down. */
export const closedPort = (): Promise<number> => freePort();

interface IncompleteUploadLister {
  listIncompleteUploadPages(prefix: string): AsyncGenerator<{ uploadId: string }[]>;
}

/** The ids of the multipart uploads under `prefix` that were begun and neither completed nor aborted. */
export async function incompleteUploadIds(storage: IncompleteUploadLister, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const page of storage.listIncompleteUploadPages(prefix)) ids.push(...page.map((u) => u.uploadId));
  return ids;
}

interface MetricReader {
  registry: { getSingleMetric(name: string): { get(): Promise<{ values: { labels: Record<string, unknown>; value: number }[] }> } | undefined };
}

/** The sum of a metric's series whose labels include `labels` (0 when the metric is not registered). */
export async function metricTotal(metrics: MetricReader, name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = metrics.registry.getSingleMetric(name);
  if (!metric) return 0;
  const { values } = await metric.get();
  return values.filter((v) => Object.entries(labels).every(([k, val]) => v.labels[k] === val)).reduce((sum, v) => sum + v.value, 0);
}

/** Whether a process of this pid exists (signal 0 checks without signalling). */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * S3 keeps an object's time, and an unfinished upload's start, to the second (truncated). Waits
 * until the clock is in a later second than `at` and answers where that second starts: whatever
 * was stored by `at` is older than it, whatever is stored from now on is not. A sweep given the
 * clock `() => cutoff + graceMs` then tells the two apart at once, instead of the test waiting
 * out a grace period in real time.
 */
export async function nextStorageSecond(at = Date.now()): Promise<number> {
  const cutoff = Math.floor(at / 1_000) * 1_000 + 1_000;
  // A little past it: the server stamps times by a clock that can run behind this one (the local
  // S3's are file times, which the kernel takes from a coarse clock up to a tick behind); an
  // object stored just after the second turned was once stamped in the second before.
  await eventually(() => Date.now() >= cutoff + STORAGE_CLOCK_LAG_MS, { timeoutMs: 5_000, stepMs: 10, what: 'the clock to pass the next second' });
  return cutoff;
}

/** How far behind this process's clock the storage server's stamps may be (see nextStorageSecond). */
const STORAGE_CLOCK_LAG_MS = 100;
