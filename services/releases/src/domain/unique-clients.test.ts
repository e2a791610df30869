import { SPARSE_LIMIT, UniqueClients } from './unique-clients';

/** Adds `count` distinct clients named from `from` on; answers the sketch. */
function withClients(count: number, sketch = UniqueClients.empty(), from = 0): UniqueClients {
  for (let i = from; i < from + count; i += 1) sketch.add(`client-${i}`);
  return sketch;
}

describe('unique clients of a release and day', () => {
  it('when one client comes 10,000 times, then it is one client, and only its first visit changes anything', () => {
    const sketch = UniqueClients.empty();
    expect(sketch.add('same-client-hash')).toBe(true);
    for (let i = 0; i < 9_999; i += 1) expect(sketch.add('same-client-hash')).toBe(false);
    expect(sketch.count).toBe(1);
  });

  it.each([0, 1, 2, 17, 1_000, SPARSE_LIMIT])('when %i clients come, then exactly that many are counted, before and after being stored', (n) => {
    const sketch = withClients(n);
    expect(sketch.isExact).toBe(true);
    expect(sketch.count).toBe(n);
    const stored = UniqueClients.from(sketch.toBuffer());
    expect(stored.count).toBe(n);
    expect(withClients(n, stored).count).toBe(n); // the same clients again add nothing
  });

  it('when more clients come than the exact list holds, then it turns into registers of 16 KiB and keeps counting', () => {
    const sketch = withClients(SPARSE_LIMIT + 1);
    expect(sketch.isExact).toBe(false);
    expect(sketch.toBuffer().length).toBe(1 + 16_384);
    expect(Math.abs(sketch.count - (SPARSE_LIMIT + 1)) / (SPARSE_LIMIT + 1)).toBeLessThan(0.03);
    expect(UniqueClients.from(sketch.toBuffer()).count).toBe(sketch.count);
  });

  // Deterministic: the clients are named, their hashes fixed. 0.81 % is one standard error;
  // three of them is the bound, where a broken estimator is off by tens of percent.
  it.each([5_000, 20_000, 100_000, 300_000])('when %i distinct clients come, then the estimate is within 2.5 %', (n) => {
    const sketch = withClients(n);
    expect(Math.abs(sketch.count - n) / n).toBeLessThan(0.025);
  });

  it('when clients partly seen before are added to what was stored, then the count is that of the union, whatever the order', () => {
    const stored = withClients(30_000).toBuffer();
    const merged = withClients(10_000, UniqueClients.from(stored), 25_000); // 25,000–29,999 seen, 30,000–34,999 new
    const union = withClients(35_000);
    expect(merged.toBuffer().equals(union.toBuffer())).toBe(true);
    expect(Math.abs(merged.count - 35_000) / 35_000).toBeLessThan(0.025);
  });

  it('when the stored bytes are empty or not a sketch, then it starts empty instead of failing', () => {
    expect(UniqueClients.from(null).count).toBe(0);
    expect(UniqueClients.from(Buffer.alloc(0)).count).toBe(0);
    expect(UniqueClients.from(Buffer.from('not a sketch')).count).toBe(0);
    expect(UniqueClients.from(Buffer.of(2, 1, 2, 3)).count).toBe(0);
  });
});
