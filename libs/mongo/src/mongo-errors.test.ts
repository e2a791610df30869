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
