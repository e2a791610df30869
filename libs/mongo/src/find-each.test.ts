import { findEach } from './find-each';

describe('findEach', () => {
  it('when values repeat, then each distinct value is queried once and the results are joined', async () => {
    const asked: number[] = [];
    const found = await findEach([3, 1, 3, 2], async (v) => {
      asked.push(v);
      return v === 2 ? [] : [`doc-${v}`];
    });
    expect(asked.sort()).toEqual([1, 2, 3]);
    expect(found.sort()).toEqual(['doc-1', 'doc-3']);
  });

  it('when there are no values, then nothing is queried', async () => {
    const query = jest.fn(async () => ['x']);
    expect(await findEach([], query)).toEqual([]);
    expect(query).not.toHaveBeenCalled();
  });
});
