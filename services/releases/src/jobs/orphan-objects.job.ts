import type { Connection } from 'mongoose';
import type { Logger } from '@hangar/logger';
import type { Metrics } from '@hangar/metrics';
import { claimTurn, recordCount } from '@hangar/mongo';
import { type ObjectStorage, type OwnedObjects, type RunningJanitor, type SweepReport, startOwnedOrphanJanitor, sweepOwnedOrphans } from '@hangar/storage';
import type { ReleasesRepository } from '../data/releases.repository';

/** What releases owns in storage: packages (stored by the gateway) and the icons its parsers extract. */
export const RELEASE_PREFIXES = ['packages/', 'icons/'] as const;

export interface ReleaseOrphansOptions {
  repository: ReleasesRepository;
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
 * Packages and icons older than the grace period that no release (live or tombstoned) refers
 * to are orphans: an upload whose gateway or releases process died between storing the file
 * and recording the release, or whose outcome the gateway could not know, leaves them.
 */
const releaseObjects = (repository: ReleasesRepository, connection?: Connection): OwnedObjects => ({
  job: 'releases-orphans',
  prefixes: RELEASE_PREFIXES,
  referenced: (keys) => repository.referencedKeys(keys),
  ...(connection ? { recordCount: () => recordCount(connection, ['releases']) } : {}),
});

/** One sweep: those orphans removed, unfinished multipart uploads under the prefixes aborted. */
export function sweepReleaseOrphans(options: ReleaseOrphansOptions, signal?: AbortSignal): Promise<SweepReport> {
  return sweepOwnedOrphans(releaseObjects(options.repository, options.connection), options, signal);
}

/** The periodic janitor: one replica per interval sweeps (turns claimed in the service's database). */
export function startReleaseOrphanJanitor(
  options: ReleaseOrphansOptions & { intervalMs: number; connection: Connection; logger: Logger },
): RunningJanitor {
  const owned = releaseObjects(options.repository, options.connection);
  return startOwnedOrphanJanitor(owned, { ...options, claimTurn: (turn) => claimTurn(options.connection, owned.job, turn) });
}
