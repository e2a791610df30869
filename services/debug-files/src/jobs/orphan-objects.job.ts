import type { Connection } from 'mongoose';
import type { Logger } from '@hangar/logger';
import type { Metrics } from '@hangar/metrics';
import { claimTurn } from '@hangar/mongo';
import { type ObjectStorage, type OwnedObjects, type RunningJanitor, type SweepReport, startOwnedOrphanJanitor, sweepOwnedOrphans } from '@hangar/storage';
import type { DebugFilesRepository } from '../data/debug-files.repository';

/** What debug-files owns in storage: the dSYM and ProGuard archives the gateway stores for it. */
export const DEBUG_FILE_PREFIXES = ['debug-files/'] as const;

export interface DebugFileOrphansOptions {
  repository: DebugFilesRepository;
  storage: ObjectStorage;
  graceMs: number;
  metrics?: Metrics;
}

/**
 * Archives older than the grace period that no debug file (live or tombstoned) refers to are
 * orphans: an upload whose gateway or debug-files process died between storing the archive and
 * recording it, a replaced archive whose removal failed, or an upload whose outcome the gateway
 * could not know, leaves them.
 */
const debugFileObjects = (repository: DebugFilesRepository): OwnedObjects => ({
  job: 'debug-files-orphans',
  prefixes: DEBUG_FILE_PREFIXES,
  referenced: (keys) => repository.referencedKeys(keys),
});

/** One sweep: those orphans removed, unfinished multipart uploads under the prefix aborted. */
export function sweepDebugFileOrphans(options: DebugFileOrphansOptions, signal?: AbortSignal): Promise<SweepReport> {
  return sweepOwnedOrphans(debugFileObjects(options.repository), options, signal);
}

/** The periodic janitor: one replica per interval sweeps (turns claimed in the service's database). */
export function startDebugFileOrphanJanitor(
  options: DebugFileOrphansOptions & { intervalMs: number; connection: Connection; logger: Logger },
): RunningJanitor {
  const owned = debugFileObjects(options.repository);
  return startOwnedOrphanJanitor(owned, { ...options, claimTurn: (turn) => claimTurn(options.connection, owned.job, turn) });
}
