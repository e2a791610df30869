import { MAX_INPUT_DEPTH, boundedJson, nestsDeeperThan } from './bounded-json';

const nested = (depth: number): unknown => {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = i % 2 ? { a: value } : [value];
  return value;
};

describe('nestsDeeperThan', () => {
  it('counts objects and arrays, not scalars', () => {
    expect(nestsDeeperThan('x', 0)).toBe(false);
    expect(nestsDeeperThan({}, 0)).toBe(true);
    expect(nestsDeeperThan({ a: [1, { b: 2 }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [1, { b: 2 }] }, 2)).toBe(true);
    expect(nestsDeeperThan(nested(MAX_INPUT_DEPTH), MAX_INPUT_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_INPUT_DEPTH + 1), MAX_INPUT_DEPTH)).toBe(true);
  });

  it('walks a value nested 200,000 deep without overflowing the stack', () => {
    expect(nestsDeeperThan(JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`), MAX_INPUT_DEPTH)).toBe(true);
  });
});

describe('boundedJson', () => {
  it('writes what JSON.stringify cannot: 200,000 deep, cycles, bigints — without throwing', () => {
    const deep = JSON.parse(`{"name":${'['.repeat(200_000)}${']'.repeat(200_000)}}`);
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(boundedJson(deep, { maxDepth: 3 })).toBe('{"name":[["[…]"]]}');
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    expect(boundedJson(cycle)).toBe('{"a":1,"self":"[circular]"}');
    expect(boundedJson({ n: 10n, f: () => 1, u: undefined, inf: Infinity })).toBe('{"n":"10","f":"[function]","u":null,"inf":"Infinity"}');
  });

  it('limits entries and length, and keeps a __proto__ key a key', () => {
    expect(boundedJson(Array.from({ length: 5 }, (_, i) => i), { maxEntries: 2 })).toBe('[0,1,"…"]');
    expect(boundedJson({ a: 1, b: 2, c: 3 }, { maxEntries: 1 })).toBe('{"a":1,"…":"2 more"}');
    expect(boundedJson('x'.repeat(100), { maxChars: 10 })).toHaveLength(10);
    expect(boundedJson(JSON.parse('{"__proto__":{"polluted":1}}'))).toBe('{"__proto__":{"polluted":1}}');
  });

  it('calls no getter and no toJSON', () => {
    const hostile = { toJSON: () => { throw new Error('no'); } };
    Object.defineProperty(hostile, 'g', { enumerable: true, get: () => { throw new Error('no'); } });
    expect(boundedJson(hostile)).toBe('{"toJSON":"[function]","g":"[getter]"}');
  });
});
