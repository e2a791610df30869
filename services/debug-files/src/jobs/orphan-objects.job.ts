import type { Connection } from 'mongoose';
import type { Logger } from '@hangar/logger';
import { type Metrics, storageJanitorMetrics } from '@hangar/metrics';
import { claimTurn } from '@hangar/mongo';
import { type ObjectStorage, type RunningJanitor, type SweepReport, startJanitor, sweepOrphans } from '@hangar/storage';
import type { DebugFilesRepository } from '../data/debug-files.repository';

/** What debug-files owns in storage: the dSYM and ProGuard archives the gateway stores for it. */
export const DEBUG_FILE_PREFIXES = ['debug-files/'] as const;

const JOB = 'debug-files-orphans';

export interface DebugFileOrphansOptions {
  repository: DebugFilesRepository;
  storage: ObjectStorage;
  graceMs: number;
  metrics?: Metrics;
}

/**
 * One sweep: archives older than the grace period that no debug file (live or tombstoned)
 * refers to are removed, and unfinished multipart uploads under them aborted. Such objects
 * come from an upload whose gateway or debug-files process died between storing the archive
 * and recording it, from a replaced archive whose removal failed, or from an upload whose
 * outcome the gateway could not know.
 */
export function sweepDebugFileOrphans(options: DebugFileOrphansOptions, signal?: AbortSignal): Promise<SweepReport> {
  const removed = options.metrics && storageJanitorMetrics(options.metrics).removed;
  return sweepOrphans(
    {
      storage: options.storage,
      prefixes: DEBUG_FILE_PREFIXES,
      graceMs: options.graceMs,
      referenced: (keys) => options.repository.referencedKeys(keys),
      onRemoved: (prefix, kind) => removed?.inc({ prefix: prefix.replace(/\/$/, ''), kind }),
    },
    signal,
  );
}

/** The periodic janitor: one replica per interval sweeps (turns claimed in the service's database). */
export function startDebugFileOrphanJanitor(
  options: DebugFileOrphansOptions & { intervalMs: number; connection: Connection; logger: Logger },
): RunningJanitor {
  const runs = options.metrics && storageJanitorMetrics(options.metrics).runs;
  return startJanitor({
    name: JOB,
    intervalMs: options.intervalMs,
    run: (signal) => sweepDebugFileOrphans(options, signal),
    claimTurn: (turn) => claimTurn(options.connection, JOB, turn),
    logger: options.logger,
    onRun: (result) => runs?.inc({ result }),
  });
}
