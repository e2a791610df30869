import type { Logger } from '@hangar/logger';
import { type Metrics, storageJanitorMetrics } from '@hangar/metrics';
import type { ObjectStorage } from './object-storage';
import { type RunningJanitor, type SweepReport, startJanitor, sweepOrphans } from './orphan-janitor';

/** What one service owns in storage, and how it knows which of those objects a record refers to. */
export interface OwnedObjects {
  /** Names the job in logs and in turn claims, e.g. `releases-orphans`. */
  job: string;
  prefixes: readonly string[];
  referenced(keys: string[]): Promise<Set<string>>;
}

export interface OwnedOrphansOptions {
  storage: ObjectStorage;
  graceMs: number;
  /** hangar_storage_orphans_removed_total and hangar_storage_janitor_runs_total. */
  metrics?: Metrics;
}

/** One sweep of a service's own prefixes (see sweepOrphans), counted in its metrics. */
export function sweepOwnedOrphans(owned: OwnedObjects, options: OwnedOrphansOptions, signal?: AbortSignal): Promise<SweepReport> {
  const removed = options.metrics && storageJanitorMetrics(options.metrics).removed;
  return sweepOrphans(
    {
      storage: options.storage,
      prefixes: owned.prefixes,
      graceMs: options.graceMs,
      referenced: (keys) => owned.referenced(keys),
      onRemoved: (prefix, kind) => removed?.inc({ prefix: prefix.replace(/\/$/, ''), kind }),
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
