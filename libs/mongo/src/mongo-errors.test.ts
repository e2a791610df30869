import { Unavailable } from '@hangar/errors';
import { Metrics } from '@hangar/metrics';
import { countedMongoErrors, isDuplicateKeyError, mongoErrorToDomain } from './mongo-errors';

function named(name: string, message = 'x'): Error {
  const err = new Error(message);
  err.name = name;
  return err;
}

describe('mongoErrorToDomain', () => {
  it('when the driver reports a network or selection failure, then it is Unavailable', () => {
    for (const name of ['MongoNetworkError', 'MongoServerSelectionError', 'MongooseServerSelectionError', 'MongoNotConnectedError']) {
      expect(mongoErrorToDomain(named(name))).toBeInstanceOf(Unavailable);
    }
  });

  it('when mongoose refuses to run before connecting, then it is Unavailable', () => {
    const err = new Error('Cannot call `things.findOne()` before initial connection is complete if `bufferCommands = false`.');

    expect(mongoErrorToDomain(err)).toBeInstanceOf(Unavailable);
  });

  it('when FerretDB reports its PostgreSQL lost, refused or restarting, then it is Unavailable', () => {
    // FerretDB 1.24's answers, measured with its PostgreSQL killed by SIGKILL.
    const ferret = (message: string) => Object.assign(named('MongoServerError', message), { code: 1, codeName: 'InternalError' });
    for (const message of [
      '[msg_find.go:344 handler.handleMaxTimeMSError] [collection.go:109 postgresql.(*collection).Query] FATAL: terminating connection due to unexpected postmaster exit (SQLSTATE 57P01)',
      "[msg_insert.go:168 handler.(*Handler).MsgInsert] failed to connect to `user=hangar database=ferretdb`:\n\t127.0.0.1:28400 (127.0.0.1): dial error: dial tcp 127.0.0.1:28400: connect: connection refused",
      '[msg_ping.go:55 handler.(*Handler).MsgPing] FATAL: the database system is starting up (SQLSTATE 57P03)',
    ]) {
      expect(mongoErrorToDomain(ferret(message))).toBeInstanceOf(Unavailable);
    }
    // Other internal errors stay bugs.
    expect(mongoErrorToDomain(ferret('[msg_find.go:1] ERROR: syntax error at or near "x" (SQLSTATE 42601)'))).toBeUndefined();
  });

  it('when it is any other error, then it is left to the caller', () => {
    expect(mongoErrorToDomain(named('MongoServerError', 'E11000 duplicate key'))).toBeUndefined();
    expect(mongoErrorToDomain('text')).toBeUndefined();
  });
});

describe('countedMongoErrors', () => {
  it('when a database failure ends an RPC, then hangar_database_errors_total counts it, and other errors are neither classified nor counted', async () => {
    const metrics = new Metrics({ defaultMetrics: false });
    const classify = countedMongoErrors(metrics);
    expect(classify(named('MongoNetworkError'))).toBeInstanceOf(Unavailable);
    expect(classify(named('MongoServerSelectionError'))).toBeInstanceOf(Unavailable);
    expect(classify(named('MongoServerError', 'E11000 duplicate key'))).toBeUndefined();
    expect(classify(new Error('a bug'))).toBeUndefined();
    const [series] = (await metrics.registry.getSingleMetric('hangar_database_errors_total')!.get()).values;
    expect(series?.value).toBe(2);
  });
});

describe('isDuplicateKeyError', () => {
  it('when the code is 11000, then it is a duplicate key', () => {
    expect(isDuplicateKeyError(Object.assign(new Error('E11000'), { code: 11000 }))).toBe(true);
    expect(isDuplicateKeyError(Object.assign(new Error('other'), { code: 11001 }))).toBe(false);
    expect(isDuplicateKeyError(null)).toBe(false);
  });
});
