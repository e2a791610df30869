import { formatTimestamp } from './timestamps';

describe('formatTimestamp', () => {
  const instant = Date.UTC(2026, 10, 22, 23, 30, 5, 7);

  it.each([
    ['Etc/UTC', '2026-11-22T23:30:05.007+00:00'],
    ['Asia/Shanghai', '2026-11-23T07:30:05.007+08:00'],
    ['America/St_Johns', '2026-11-22T20:00:05.007-03:30'],
    ['Asia/Kathmandu', '2026-11-23T05:15:05.007+05:45'],
    ['Etc/GMT+12', '2026-11-22T11:30:05.007-12:00'],
  ])('when rendered in %s, then local time with ms and offset is %s', (zone, expected) => {
    expect(formatTimestamp(instant, zone)).toBe(expected);
    expect(Date.parse(expected)).toBe(instant);
  });

  it('when zones alternate, then each timestamp keeps its own zone', () => {
    const zones = ['Asia/Shanghai', 'Etc/UTC', 'America/St_Johns', 'Asia/Shanghai', 'Etc/UTC'];
    expect(zones.map((zone) => formatTimestamp(instant, zone))).toEqual([
      '2026-11-23T07:30:05.007+08:00',
      '2026-11-22T23:30:05.007+00:00',
      '2026-11-22T20:00:05.007-03:30',
      '2026-11-23T07:30:05.007+08:00',
      '2026-11-22T23:30:05.007+00:00',
    ]);
  });

  it('when the zone is unknown, then it throws and later calls still work', () => {
    expect(() => formatTimestamp(instant, 'Mars/Olympus_Mons')).toThrow(RangeError);
    expect(formatTimestamp(instant, 'Asia/Kathmandu')).toBe('2026-11-23T05:15:05.007+05:45');
  });

  it('when no zone is given, then UTC is used', () => {
    expect(formatTimestamp(instant)).toBe('2026-11-22T23:30:05.007+00:00');
  });
});
