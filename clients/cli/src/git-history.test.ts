import { CHANGELOG_MAX_BYTES, fitChangelog } from './git-history';

describe('fitChangelog', () => {
  const entry = (i: number) => ({ message: `commit number ${i} with a message of some length`, author: 'Ann Example', email: 'ann@example.com', date: '2026-11-28T09:00:00+00:00' });

  it('when the commits fit the server\'s limit, then all are sent as they are', () => {
    const entries = Array.from({ length: 3 }, (_, i) => entry(i));
    expect(fitChangelog(entries)).toEqual({ json: JSON.stringify(entries), dropped: 0 });
  });

  it('when they do not (a 422 otherwise), then the newest that fit are sent and the count left out is told', () => {
    const entries = Array.from({ length: 500 }, (_, i) => entry(i));
    const { json, dropped } = fitChangelog(entries);
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(CHANGELOG_MAX_BYTES);
    const sent = JSON.parse(json) as { message: string }[];
    expect(sent[0]!.message).toBe(entries[0]!.message);
    expect(sent.length + dropped).toBe(500);
    expect(dropped).toBeGreaterThan(0);
  });
});
