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

/**
 * What FerretDB answers (code 1, InternalError) when its PostgreSQL is gone or restarting: the
 * backend's connection lost (`FATAL: terminating connection due to unexpected postmaster exit
 * (SQLSTATE 57P01)`), refused (`failed to connect to … connection refused`), or a server
 * starting, shutting down or recovering (SQLSTATE class 08 connection exceptions, 57P01–57P03).
 * Measured on FerretDB 1.24 with a PostgreSQL killed by SIGKILL.
 */
const LOST_BACKEND =
  /SQLSTATE (08\w{3}|57P0[1-3])\)|failed to connect to|dial tcp|connection refused|connection reset by peer|broken pipe|unexpected EOF|conn closed|the database system is (starting up|shutting down|in recovery mode)/i;

function isLostBackend(err: Error): boolean {
  const { code, codeName } = err as { code?: unknown; codeName?: unknown };
  return err.name === 'MongoServerError' && (code === 1 || codeName === 'InternalError') && LOST_BACKEND.test(err.message);
}

/** Database outages (of the MongoDB-wire server, or of the PostgreSQL under FerretDB) become Unavailable (503), never a 500. */
export function mongoErrorToDomain(err: unknown): DomainError | undefined {
  if (err instanceof Error && (UNAVAILABLE_ERRORS.has(err.name) || isLostBackend(err))) {
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
