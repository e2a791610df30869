import type { Connection } from 'mongoose';
import type { Logger } from '@hangar/logger';
import { type Metrics, storageJanitorMetrics } from '@hangar/metrics';
import { claimTurn } from '@hangar/mongo';
import { type ObjectStorage, type RunningJanitor, type SweepReport, startJanitor, sweepOrphans } from '@hangar/storage';
import type { ReleasesRepository } from '../data/releases.repository';

/** What releases owns in storage: packages (stored by the gateway) and the icons its parsers extract. */
export const RELEASE_PREFIXES = ['packages/', 'icons/'] as const;

const JOB = 'releases-orphans';

export interface ReleaseOrphansOptions {
  repository: ReleasesRepository;
  storage: ObjectStorage;
  graceMs: number;
  metrics?: Metrics;
}

/**
 * One sweep: packages and icons older than the grace period that no release (live or
 * tombstoned) refers to are removed, and unfinished multipart uploads under them aborted.
 * Such objects come from an upload whose gateway or releases process died between storing
 * the file and recording the release, or whose outcome the gateway could not know.
 */
export function sweepReleaseOrphans(options: ReleaseOrphansOptions, signal?: AbortSignal): Promise<SweepReport> {
  const removed = options.metrics && storageJanitorMetrics(options.metrics).removed;
  return sweepOrphans(
    {
      storage: options.storage,
      prefixes: RELEASE_PREFIXES,
      graceMs: options.graceMs,
      referenced: (keys) => options.repository.referencedKeys(keys),
      onRemoved: (prefix, kind) => removed?.inc({ prefix: prefix.replace(/\/$/, ''), kind }),
    },
    signal,
  );
}

/** The periodic janitor: one replica per interval sweeps (turns claimed in the service's database). */
export function startReleaseOrphanJanitor(
  options: ReleaseOrphansOptions & { intervalMs: number; connection: Connection; logger: Logger },
): RunningJanitor {
  const runs = options.metrics && storageJanitorMetrics(options.metrics).runs;
  return startJanitor({
    name: JOB,
    intervalMs: options.intervalMs,
    run: (signal) => sweepReleaseOrphans(options, signal),
    claimTurn: (turn) => claimTurn(options.connection, JOB, turn),
    logger: options.logger,
    onRun: (result) => runs?.inc({ result }),
  });
}
