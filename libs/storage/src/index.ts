export * from './object-storage';
export { multipartUpload } from './multipart-upload';
export { RangeReader, type RangeFetcher, type RangeReaderOptions, type RangeReaderStats } from './range-reader';
export { PartPool } from './part-pool';
export { sweepOrphans, startJanitor, trashKeyOf, TRASH_PREFIX, DEFAULT_MAX_SHARE, DEFAULT_MIN_REMOVALS, type RefusalReason, type SweepRefusal, type OrphanKind, type OrphanSweep, type SweepReport, type JanitorSchedule, type JanitorRunResult, type RunningJanitor } from './orphan-janitor';
export { sweepOwnedOrphans, startOwnedOrphanJanitor, type OwnedObjects, type OwnedOrphansOptions } from './owned-orphans';
export { checkInstallation, guardInstallation, type InstallationGuard, installationIdOfBucket, InstallationMismatch, INSTALLATION_MARKER, type InstallationCheck, type InstallationRecord, type InstallationState } from './installation';
