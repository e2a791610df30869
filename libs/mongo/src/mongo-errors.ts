import { DomainError, Unavailable } from '@hangar/errors';
import { Metrics, databaseErrorsCounter } from '@hangar/metrics';

const UNAVAILABLE_ERRORS = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'PoolClearedError',
  'PoolClearedOnNetworkError',
  'MongooseServerSelectionError',
]);

/** Database outages become Unavailable (503), never a 500. */
export function mongoErrorToDomain(err: unknown): DomainError | undefined {
  if (err instanceof Error && UNAVAILABLE_ERRORS.has(err.name)) {
    return new Unavailable('The database is unavailable, try again shortly');
  }
  // mongoose refuses to run a command while disconnected (bufferCommands off).
  if (err instanceof Error && /Cannot call .* before initial connection|Client must be connected/.test(err.message)) {
    return new Unavailable('The database is unavailable, try again shortly');
  }
  return undefined;
}

/**
 * mongoErrorToDomain for a gRPC server's classifiers, counting each database
 * failure it recognises in hangar_database_errors_total.
 */
export function countedMongoErrors(metrics?: Metrics): (err: unknown) => DomainError | undefined {
  const failures = metrics ? databaseErrorsCounter(metrics) : undefined;
  return (err) => {
    const domain = mongoErrorToDomain(err);
    if (domain) failures?.inc();
    return domain;
  };
}

/** E11000: a unique index refused the write (FerretDB does not say which index). */
export function isDuplicateKeyError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}
