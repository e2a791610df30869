import { InvalidArgument } from '@hangar/errors';
import { readAuditQuery } from './audit-query';

describe('readAuditQuery', () => {
  const now = Date.UTC(2026, 10, 25, 12);

  it('when no time is given, then today is asked', () => {
    expect(readAuditQuery({}, now)).toEqual({ days: ['2026-11-25'] });
  });

  it('when a range is given, then every day of it is asked, ends included', () => {
    expect(readAuditQuery({ from: '2026-02-27', to: '2026-03-02', user_id: '4', operation: 'deleteRelease' }, now)).toEqual({
      days: ['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02'],
      userId: 4,
      operation: 'deleteRelease',
    });
  });

  it.each([
    [{ day: '2026-02-30' }, 'day'],
    [{ from: '2026-03-02', to: '2026-03-01' }, 'from'],
    [{ from: '2026-01-01', to: '2026-02-01' }, 'to'],
    [{ to: '2026-01-01' }, 'from'],
    [{ day: '2026-01-01', from: '2026-01-01', to: '2026-01-02' }, 'day'],
    [{ app_id: '0' }, 'app_id'],
  ])('when the query is %j, then 422 names %s', (input, field) => {
    try {
      readAuditQuery(input, now);
      throw new Error('expected a failure');
    } catch (err) {
      expect(err).toBeInstanceOf(InvalidArgument);
      expect(Object.keys((err as InvalidArgument).entry ?? {})).toEqual([field]);
    }
  });
});
