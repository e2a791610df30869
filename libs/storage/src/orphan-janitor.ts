import type { Logger } from '@hangar/logger';
import type { ObjectStorage } from './object-storage';

/**
 * The orphan-object janitor. The gateway stores a file first and asks the owning service for
 * its record second; a process killed in between (or a failure whose outcome the gateway cannot
 * know) leaves an object no record refers to, and one killed mid-stream leaves an unfinished
 * multipart upload holding its parts. The owning service sweeps its own key prefixes now and
 * then and removes what is older than a grace period and unreferenced.
 *
 * The grace period is what makes this safe without coordination with uploads: it must be longer
 * than any upload can take from its first byte to its record (docs/operations.md), so an
 * object that may still get a record is never looked at. Removals are idempotent, so several
 * replicas sweeping at once only repeat work.
 */

export type OrphanKind = 'object' | 'incomplete_upload';

export interface OrphanSweep {
  storage: ObjectStorage;
  /** The key prefixes the service owns, e.g. `packages/`; nothing else is looked at. */
  prefixes: readonly string[];
  /** Objects and unfinished uploads younger than this are left alone. */
  graceMs: number;
  /** Of these keys (one listing page, at most `pageSize`), the ones a record refers to. */
  referenced(keys: string[]): Promise<Set<string>>;
  /** Told of every removal (metrics). */
  onRemoved?(prefix: string, kind: OrphanKind): void;
  /** Keys per listing page and reference query (default 1000, the S3 maximum). */
  pageSize?: number;
  /** The clock (tests). */
  now?: () => number;
}

export interface SweepReport {
  objectsChecked: number;
  objectsRemoved: number;
  uploadsAborted: number;
}

/**
 * One pass over every prefix: memory holds one page of keys at a time, and references are
 * checked a page at a time in one query. Stops between pages once `signal` aborts.
 */
export async function sweepOrphans(sweep: OrphanSweep, signal?: AbortSignal): Promise<SweepReport> {
  const report: SweepReport = { objectsChecked: 0, objectsRemoved: 0, uploadsAborted: 0 };
  const cutoff = (sweep.now ?? Date.now)() - sweep.graceMs;
  for (const prefix of sweep.prefixes) {
    for await (const page of sweep.storage.listObjectPages(prefix, sweep.pageSize ?? 1000)) {
      if (signal?.aborted) return report;
      const old = page.filter((o) => o.lastModified.getTime() < cutoff).map((o) => o.key);
      report.objectsChecked += page.length;
      if (old.length === 0) continue;
      const kept = await sweep.referenced(old);
      for (const key of old) {
        if (kept.has(key)) continue;
        await sweep.storage.delete(key);
        report.objectsRemoved += 1;
        sweep.onRemoved?.(prefix, 'object');
      }
    }
    for await (const page of sweep.storage.listIncompleteUploadPages(prefix)) {
      if (signal?.aborted) return report;
      for (const upload of page) {
        if (upload.initiated.getTime() >= cutoff) continue;
        await sweep.storage.abortIncompleteUpload(upload.key, upload.uploadId);
        report.uploadsAborted += 1;
        sweep.onRemoved?.(prefix, 'incomplete_upload');
      }
    }
  }
  return report;
}

export type JanitorRunResult = 'done' | 'skipped' | 'failed';

export interface JanitorSchedule {
  /** Names the job in logs and in turn claims, e.g. `releases-orphans`. */
  name: string;
  /** Time between sweeps; 0 turns the janitor off. */
  intervalMs: number;
  run(signal: AbortSignal): Promise<SweepReport>;
  /**
   * Claims turn `turn` (Date.now() / intervalMs, rounded down) for this process, so of several
   * replicas one sweeps per interval; false: another has it. Without it every replica sweeps.
   */
  claimTurn?(turn: number): Promise<boolean>;
  logger: Logger;
  /** Told how each turn ended (metrics). */
  onRun?(result: JanitorRunResult): void;
}

export interface RunningJanitor {
  /** Ends the schedule; a sweep in progress stops after its current page. */
  stop(): Promise<void>;
}

/**
 * Runs `run` once per interval: the first time at a random point of the first interval (replicas
 * started together do not sweep together, and a process that restarts often still gets its
 * turn), then early in each following interval. Sweeps never overlap; a failed one (storage or
 * database down) is logged and the next interval tries again.
 */
export function startJanitor(schedule: JanitorSchedule): RunningJanitor {
  const { intervalMs, logger } = schedule;
  if (intervalMs <= 0) return { stop: async () => undefined };
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let lastTurn = -Infinity;

  const tick = async () => {
    // A timer may fire a millisecond before the wall clock reaches the turn it was set for
    // (timers run on the monotonic clock): that is still the next turn, never the last one again.
    const turn = Math.max(Math.floor(Date.now() / intervalMs), lastTurn + 1);
    lastTurn = turn;
    try {
      if (schedule.claimTurn && !(await schedule.claimTurn(turn))) {
        schedule.onRun?.('skipped');
        return;
      }
      const started = Date.now();
      const report = await schedule.run(abort.signal);
      schedule.onRun?.('done');
      const removed = report.objectsRemoved + report.uploadsAborted;
      logger[removed > 0 ? 'info' : 'debug']({ job: schedule.name, ...report, ms: Date.now() - started }, 'orphan sweep done');
    } catch (err) {
      schedule.onRun?.('failed');
      logger.warn({ job: schedule.name, err }, 'orphan sweep failed; trying again next interval');
    }
  };

  const scheduleNext = (delayMs: number) => {
    if (abort.signal.aborted) return;
    timer = setTimeout(() => {
      running = tick().finally(() => {
        const next = (Math.floor(Date.now() / intervalMs) + 1) * intervalMs;
        scheduleNext(next - Date.now() + Math.random() * intervalMs * 0.1);
      });
    }, delayMs);
    timer.unref();
  };
  scheduleNext(Math.random() * intervalMs);

  return {
    async stop() {
      abort.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
