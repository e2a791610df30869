import type { Connection } from 'mongoose';
import type { Logger } from '@hangar/logger';
import type { Metrics } from '@hangar/metrics';
import { claimTurn, recordCount } from '@hangar/mongo';
import { type ObjectStorage, type OwnedObjects, type RunningJanitor, type SweepReport, startJanitor, startOwnedOrphanJanitor, sweepOwnedOrphans } from '@hangar/storage';
import { dayOf, type TeardownsRepository } from '../data/teardowns.repository';

/** Where the gateway stores teardown uploads; owned by releases like `packages/`. */
export const TEARDOWN_PREFIX = 'teardowns/';

/**
 * How far back the sweep looks for expiry days. Each day is one equality query (FerretDB serves
 * no range from an index), so the sweep asks for the last 60 days every turn: a teardown is
 * missed only if no replica ran a turn for two months after it expired — and then the orphan
 * janitor still cannot take its file, since the record refers to it.
 */
export const SWEEP_LOOKBACK_DAYS = 60;

export interface TeardownExpiryOptions {
  teardowns: TeardownsRepository;
  storage: ObjectStorage;
  now?: () => Date;
}

/** One sweep: every expired teardown loses its file, then its record (a retry finds it again if the delete fails). */
export async function sweepExpiredTeardowns(options: TeardownExpiryOptions, signal?: AbortSignal): Promise<SweepReport> {
  const now = (options.now ?? (() => new Date()))();
  const today = dayOf(now);
  const days = Array.from({ length: SWEEP_LOOKBACK_DAYS + 1 }, (_, i) => today - i);
  const report: SweepReport = { objectsChecked: 0, objectsRemoved: 0, uploadsAborted: 0 };
  for (const teardown of await options.teardowns.expiringOn(days)) {
    if (signal?.aborted) break;
    report.objectsChecked += 1;
    if (teardown.expiresAt.getTime() > now.getTime()) continue;
    await options.storage.delete(teardown.objectKey);
    await options.teardowns.remove(teardown._id);
    report.objectsRemoved += 1;
  }
  return report;
}

/** The periodic sweep, one replica per interval (turns claimed in the service's database). */
export function startTeardownExpiry(options: TeardownExpiryOptions & { intervalMs: number; connection: Connection; logger: Logger }): RunningJanitor {
  return startJanitor({
    name: 'teardowns-expiry',
    intervalMs: options.intervalMs,
    logger: options.logger,
    run: (signal) => sweepExpiredTeardowns(options, signal),
    claimTurn: (turn) => claimTurn(options.connection, 'teardowns-expiry', turn),
  });
}

const teardownObjects = (teardowns: TeardownsRepository, connection?: Connection): OwnedObjects => ({
  job: 'teardowns-orphans',
  prefixes: [TEARDOWN_PREFIX],
  referenced: (keys) => teardowns.referencedKeys(keys),
  ...(connection ? { recordCount: () => recordCount(connection, ['teardowns']) } : {}),
});

/** The janitor's bound and installation guard (see OwnedOrphansOptions). */
type Guarded = { maxShare?: number; minRemovals?: number; installationMatches?(): Promise<boolean> };

/** One orphan sweep of `teardowns/` (see startTeardownOrphanJanitor). */
export function sweepTeardownOrphans(
  // now: the clock the grace period is judged by (tests: an upload made a moment ago counted old).
  options: { teardowns: TeardownsRepository; storage: ObjectStorage; graceMs: number; metrics?: Metrics; connection?: Connection; now?: () => number } & Guarded,
  signal?: AbortSignal,
): Promise<SweepReport> {
  return sweepOwnedOrphans(teardownObjects(options.teardowns, options.connection), options, signal);
}

/**
 * Uploads whose teardown was never recorded (the gateway or this process died in between, or the
 * outcome was unknown) are orphans under `teardowns/`, removed after the storage grace period.
 */
export function startTeardownOrphanJanitor(options: {
  teardowns: TeardownsRepository;
  storage: ObjectStorage;
  graceMs: number;
  intervalMs: number;
  connection: Connection;
  logger: Logger;
  metrics?: Metrics;
} & Guarded): RunningJanitor {
  const owned = teardownObjects(options.teardowns, options.connection);
  return startOwnedOrphanJanitor(owned, { ...options, claimTurn: (turn) => claimTurn(options.connection, owned.job, turn) });
}
