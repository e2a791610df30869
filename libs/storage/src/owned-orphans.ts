import type { Logger } from '@hangar/logger';
import { type Metrics, storageJanitorMetrics } from '@hangar/metrics';
import type { ObjectStorage } from './object-storage';
import { type RunningJanitor, type SweepRefusal, type SweepReport, startJanitor, sweepOrphans } from './orphan-janitor';

/** What one service owns in storage, and how it knows which of those objects a record refers to. */
export interface OwnedObjects {
  /** Names the job in logs and in turn claims, e.g. `releases-orphans`. */
  job: string;
  prefixes: readonly string[];
  referenced(keys: string[]): Promise<Set<string>>;
  /** How many records (live or tombstoned) refer to objects under the prefixes; zero beside many objects refuses the sweep. */
  recordCount?(): Promise<number>;
}

export interface OwnedOrphansOptions {
  storage: ObjectStorage;
  graceMs: number;
  /** STORAGE_JANITOR_MAX_SHARE and STORAGE_JANITOR_MIN_REMOVALS (see sweepOrphans). */
  maxShare?: number;
  minRemovals?: number;
  /**
   * Whether the database and the bucket are one installation, asked before every sweep
   * (checkInstallation): anything else and the sweep touches nothing. Without it (tests of the
   * sweep alone) every sweep runs.
   */
  installationMatches?(): Promise<boolean>;
  /** hangar_storage_orphans_removed_total, hangar_storage_janitor_runs_total and hangar_storage_janitor_refused_total. */
  metrics?: Metrics;
  /** The clock the grace period is judged by (tests: an object made a moment ago counted old). */
  now?: () => number;
}

/** One sweep of a service's own prefixes (see sweepOrphans), counted in its metrics. */
export async function sweepOwnedOrphans(owned: OwnedObjects, options: OwnedOrphansOptions, signal?: AbortSignal): Promise<SweepReport> {
  const series = options.metrics && storageJanitorMetrics(options.metrics);
  const label = (prefix: string) => prefix.replace(/\/$/, '');
  const onRefused = (refusal: SweepRefusal) => series?.refused.inc({ prefix: label(refusal.prefix), reason: refusal.reason });
  if (options.installationMatches && !(await options.installationMatches())) {
    const refused = owned.prefixes.map((prefix): SweepRefusal => ({ prefix, reason: 'installation' }));
    refused.forEach(onRefused);
    return { objectsChecked: 0, objectsRemoved: 0, uploadsAborted: 0, trashEmptied: 0, refused };
  }
  return sweepOrphans(
    {
      storage: options.storage,
      prefixes: owned.prefixes,
      graceMs: options.graceMs,
      referenced: (keys) => owned.referenced(keys),
      ...(owned.recordCount ? { recordCount: () => owned.recordCount!() } : {}),
      ...(options.maxShare !== undefined ? { maxShare: options.maxShare } : {}),
      ...(options.minRemovals !== undefined ? { minRemovals: options.minRemovals } : {}),
      ...(options.now ? { now: options.now } : {}),
      ...(options.installationMatches ? { confirm: () => options.installationMatches!() } : {}),
      onRemoved: (prefix, kind) => series?.removed.inc({ prefix: label(prefix), kind }),
      onRefused,
    },
    signal,
  );
}

/** The periodic janitor of a service's own prefixes (see startJanitor); `claimTurn` lets one replica sweep per interval. */
export function startOwnedOrphanJanitor(
  owned: OwnedObjects,
  options: OwnedOrphansOptions & { intervalMs: number; logger: Logger; claimTurn?(turn: number): Promise<boolean> },
): RunningJanitor {
  const runs = options.metrics && storageJanitorMetrics(options.metrics).runs;
  return startJanitor({
    name: owned.job,
    intervalMs: options.intervalMs,
    run: (signal) => sweepOwnedOrphans(owned, options, signal),
    ...(options.claimTurn ? { claimTurn: options.claimTurn } : {}),
    logger: options.logger,
    onRun: (result) => runs?.inc({ result }),
  });
}
