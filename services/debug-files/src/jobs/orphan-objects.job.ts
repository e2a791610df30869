import type { Connection } from 'mongoose';
import type { Logger } from '@hangar/logger';
import type { Metrics } from '@hangar/metrics';
import { claimTurn, recordCount } from '@hangar/mongo';
import { type ObjectStorage, type OwnedObjects, type RunningJanitor, type SweepReport, startOwnedOrphanJanitor, sweepOwnedOrphans } from '@hangar/storage';
import type { DebugFilesRepository } from '../data/debug-files.repository';

/** What debug-files owns in storage: the dSYM and ProGuard archives the gateway stores for it. */
export const DEBUG_FILE_PREFIXES = ['debug-files/'] as const;

export interface DebugFileOrphansOptions {
  repository: DebugFilesRepository;
  storage: ObjectStorage;
  graceMs: number;
  metrics?: Metrics;
  /** STORAGE_JANITOR_MAX_SHARE / _MIN_REMOVALS (see sweepOrphans). */
  maxShare?: number;
  minRemovals?: number;
  /** The installation guard of the service (see guardInstallation): no sweep unless it matches. */
  installationMatches?(): Promise<boolean>;
  /** The service's database: its record count guards the sweep (none beside many objects: refused). */
  connection?: Connection;
  /** The clock the grace period is judged by (tests: an object made a moment ago counted old). */
  now?: () => number;
}

/**
 * Archives older than the grace period that no debug file (live or tombstoned) refers to are
 * orphans: an upload whose gateway or debug-files process died between storing the archive and
 * recording it, a replaced archive whose removal failed, or an upload whose outcome the gateway
 * could not know, leaves them.
 */
const debugFileObjects = (repository: DebugFilesRepository, connection?: Connection): OwnedObjects => ({
  job: 'debug-files-orphans',
  prefixes: DEBUG_FILE_PREFIXES,
  referenced: (keys) => repository.referencedKeys(keys),
  ...(connection ? { recordCount: () => recordCount(connection, ['debug_files']) } : {}),
});

/** One sweep: those orphans removed, unfinished multipart uploads under the prefix aborted. */
export function sweepDebugFileOrphans(options: DebugFileOrphansOptions, signal?: AbortSignal): Promise<SweepReport> {
  return sweepOwnedOrphans(debugFileObjects(options.repository, options.connection), options, signal);
}

/** The periodic janitor: one replica per interval sweeps (turns claimed in the service's database). */
export function startDebugFileOrphanJanitor(
  options: DebugFileOrphansOptions & { intervalMs: number; connection: Connection; logger: Logger },
): RunningJanitor {
  const owned = debugFileObjects(options.repository, options.connection);
  return startOwnedOrphanJanitor(owned, { ...options, claimTurn: (turn) => claimTurn(options.connection, owned.job, turn) });
}
