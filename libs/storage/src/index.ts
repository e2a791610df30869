export * from './object-storage';
export { multipartUpload } from './multipart-upload';
export { RangeReader, type RangeFetcher, type RangeReaderOptions, type RangeReaderStats } from './range-reader';
export { PartPool } from './part-pool';
export { sweepOrphans, startJanitor, type OrphanKind, type OrphanSweep, type SweepReport, type JanitorSchedule, type JanitorRunResult, type RunningJanitor } from './orphan-janitor';
export { sweepOwnedOrphans, startOwnedOrphanJanitor, type OwnedObjects, type OwnedOrphansOptions } from './owned-orphans';
