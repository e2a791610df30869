import { anyOf } from './any-of';

describe('anyOf', () => {
  it('when there is one value, then the filter is that value (equality)', () => {
    expect(anyOf([7])).toBe(7);
  });

  it('when there are several or none, then the filter is $in', () => {
    expect(anyOf([1, 2])).toEqual({ $in: [1, 2] });
    expect(anyOf([])).toEqual({ $in: [] });
  });
});
