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

export type OrphanKind = 'object' | 'incomplete_upload' | 'trash';

/** Where the janitor moves what it takes out of a prefix: `trash/<key>`, removed for good a grace period later. */
export const TRASH_PREFIX = 'trash/';

/** Why a sweep left a prefix alone. */
export type RefusalReason = 'installation' | 'no_records' | 'share';

export interface SweepRefusal {
  prefix: string;
  reason: RefusalReason;
  /** Objects under the prefix, and of them the ones no record refers to. */
  objects?: number;
  orphans?: number;
  allowed?: number;
}

/** Defaults of the bound on one sweep (STORAGE_JANITOR_MAX_SHARE, STORAGE_JANITOR_MIN_REMOVALS). */
export const DEFAULT_MAX_SHARE = 0.1;
export const DEFAULT_MIN_REMOVALS = 10;

export interface OrphanSweep {
  storage: ObjectStorage;
  /** The key prefixes the service owns, e.g. `packages/`; nothing else is looked at. */
  prefixes: readonly string[];
  /** Objects and unfinished uploads younger than this are left alone; trash is kept this long. */
  graceMs: number;
  /** Of these keys (one listing page, at most `pageSize`), the ones a record refers to. */
  referenced(keys: string[]): Promise<Set<string>>;
  /**
   * How many records that refer to objects the owner holds (live or tombstoned). Zero beside a
   * prefix holding more than `minRemovals` objects is a database that is not this bucket's: the
   * prefix is refused, whatever the share.
   */
  recordCount?(): Promise<number>;
  /**
   * The bound: one sweep takes at most this share of a prefix's objects (but always up to
   * `minRemovals`); a prefix with more orphans than that is refused as a whole, nothing moved.
   */
  maxShare?: number;
  minRemovals?: number;
  /**
   * Asked again just before a prefix's orphans are moved (the installation guard): a database
   * dropped between the check before the sweep and the reference queries made every object look
   * unreferenced, and must not cost one.
   */
  confirm?(): Promise<boolean>;
  /** Told of every removal (metrics); `trash`: an object removed for good from `trash/`. */
  onRemoved?(prefix: string, kind: OrphanKind): void;
  /** Told of every refused prefix (metrics). */
  onRefused?(refusal: SweepRefusal): void;
  /** Keys per listing page and reference query (default 1000, the S3 maximum). */
  pageSize?: number;
  /** The clock (tests). */
  now?: () => number;
}

export interface SweepReport {
  objectsChecked: number;
  /** Moved to `trash/` (restorable until a later sweep removes them a grace period on). */
  objectsRemoved: number;
  uploadsAborted: number;
  /** Removed for good from `trash/`, a grace period after they were moved there. */
  trashEmptied?: number;
  /** Prefixes left alone, and why (see SweepRefusal). */
  refused?: SweepRefusal[];
}

/** Where an object of `key` waits in the trash. */
export const trashKeyOf = (key: string) => `${TRASH_PREFIX}${key}`;

/**
 * One pass over every prefix: memory holds one page of keys at a time, and references are
 * checked a page at a time in one query. Stops between pages once `signal` aborts.
 *
 * A prefix is counted first (objects, and orphans among them) and swept second, so a database
 * that lost its records (dropped, emptied, the wrong one) cannot empty the bucket: more orphans
 * than the bound, or no records at all beside many objects, and nothing is moved. What is moved
 * goes to `trash/<key>` (copy, then delete), and only a later sweep removes it, once it has
 * waited a grace period there: a wrong sweep is undone by copying it back.
 */
export async function sweepOrphans(sweep: OrphanSweep, signal?: AbortSignal): Promise<SweepReport> {
  const report: SweepReport = { objectsChecked: 0, objectsRemoved: 0, uploadsAborted: 0, trashEmptied: 0, refused: [] };
  const cutoff = (sweep.now ?? Date.now)() - sweep.graceMs;
  const pageSize = sweep.pageSize ?? 1000;
  const maxShare = sweep.maxShare ?? DEFAULT_MAX_SHARE;
  const minRemovals = sweep.minRemovals ?? DEFAULT_MIN_REMOVALS;
  let records: number | undefined;
  const orphansOf = async (page: { key: string; lastModified: Date }[]) => {
    const old = page.filter((o) => o.lastModified.getTime() < cutoff).map((o) => o.key);
    if (old.length === 0) return [];
    const kept = await sweep.referenced(old);
    return old.filter((key) => !kept.has(key));
  };
  const refuse = (refusal: SweepRefusal) => {
    report.refused!.push(refusal);
    sweep.onRefused?.(refusal);
  };

  for (const prefix of sweep.prefixes) {
    let objects = 0;
    let orphans = 0;
    for await (const page of sweep.storage.listObjectPages(prefix, pageSize)) {
      if (signal?.aborted) return report;
      objects += page.length;
      orphans += (await orphansOf(page)).length;
    }
    report.objectsChecked += objects;
    const allowed = Math.max(minRemovals, Math.floor(objects * maxShare));
    if (orphans > 0) {
      if (sweep.recordCount && records === undefined) records = await sweep.recordCount();
      if (records === 0 && objects > minRemovals) refuse({ prefix, reason: 'no_records', objects, orphans, allowed: 0 });
      else if (orphans > allowed) refuse({ prefix, reason: 'share', objects, orphans, allowed });
      else if (sweep.confirm && !(await sweep.confirm())) refuse({ prefix, reason: 'installation', objects, orphans, allowed: 0 });
      else {
        let moved = 0;
        for await (const page of sweep.storage.listObjectPages(prefix, pageSize)) {
          if (signal?.aborted) return report;
          for (const key of await orphansOf(page)) {
            if (moved >= allowed) break;
            await sweep.storage.copy(key, trashKeyOf(key));
            await sweep.storage.delete(key);
            moved += 1;
            report.objectsRemoved += 1;
            sweep.onRemoved?.(prefix, 'object');
          }
        }
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
    // The trash of this prefix: what waited there a grace period goes for good (its time is the move's).
    for await (const page of sweep.storage.listObjectPages(trashKeyOf(prefix), pageSize)) {
      if (signal?.aborted) return report;
      for (const object of page) {
        if (object.lastModified.getTime() >= cutoff) continue;
        await sweep.storage.delete(object.key);
        report.trashEmptied! += 1;
        sweep.onRemoved?.(prefix, 'trash');
      }
    }
  }
  return report;
}

export type JanitorRunResult = 'done' | 'skipped' | 'failed' | 'refused';

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

const REFUSAL_MESSAGES: Record<RefusalReason, string> = {
  installation: 'orphan sweep refused: the database and the bucket are not the same installation (docs/operations.md, Installation id); nothing removed',
  no_records: 'orphan sweep refused: the database holds no records beside a prefix of many objects (docs/operations.md, Orphan objects); nothing removed',
  share: 'orphan sweep refused: more orphans than the bound STORAGE_JANITOR_MAX_SHARE allows (docs/operations.md, Orphan objects); nothing removed',
};

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
      const { refused = [], ...counts } = report;
      schedule.onRun?.(refused.length > 0 ? 'refused' : 'done');
      const removed = report.objectsRemoved + report.uploadsAborted + (report.trashEmptied ?? 0);
      for (const refusal of refused) {
        logger.error({ job: schedule.name, ...refusal }, REFUSAL_MESSAGES[refusal.reason]);
      }
      logger[removed > 0 ? 'info' : 'debug']({ job: schedule.name, ...counts, ms: Date.now() - started }, 'orphan sweep done');
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
