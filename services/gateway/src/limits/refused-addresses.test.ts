import { RecentlyRefused } from './refused-addresses';

describe('addresses refused lately', () => {
  it('when an address was refused, then it is known until its wait ends, and then forgotten', () => {
    const refused = new RecentlyRefused();
    refused.mark('203.0.113.7', 30, 1_000);
    expect([refused.has('203.0.113.7', 1_000), refused.has('203.0.113.7', 30_999), refused.has('198.51.100.1', 1_000)]).toEqual([true, true, false]);
    expect(refused.has('203.0.113.7', 31_000)).toBe(false);
  });

  it('when more addresses are refused than it keeps, then the expired go first, then the oldest, and it never grows past its capacity', () => {
    const refused = new RecentlyRefused(2);
    refused.mark('a', 1, 0);
    refused.mark('b', 60, 0);
    refused.mark('c', 60, 5_000); // 'a' has expired: it makes the room
    expect(['a', 'b', 'c'].map((address) => refused.has(address, 5_000))).toEqual([false, true, true]);
    refused.mark('d', 60, 6_000); // none expired: the oldest entry, 'b', goes
    expect(['b', 'c', 'd'].map((address) => refused.has(address, 6_000))).toEqual([false, true, true]);
  });
});
