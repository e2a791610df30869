import { S3_MAX_PARTS, S3_MIN_PART, firstPartAt, groupKey } from '../src/uploads/partial-placement';

const MiB = 1024 * 1024;
const PART = 8 * MiB;

/** The part numbers a partial placed at `start` uses: one for each part of `partSize` its bytes fill. */
function numbersOf(start: number, length: number, size: number, partSize = PART): number[] | undefined {
  const first = firstPartAt(start, length, size, partSize);
  if (first === undefined) return undefined;
  return Array.from({ length: Math.ceil(length / partSize) }, (_, i) => first + i);
}

describe('placing a parallel upload\'s partials into one S3 multipart upload', () => {
  it('when a file is cut into parts S3 can take as they are, then their part numbers ascend in the file\'s order and never meet, whatever the cuts', () => {
    // Seeded cuts of many shapes: whole 8 MiB blocks, and lengths whose last part is 5 MiB or more.
    let seed = 42;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 500; round++) {
      const cuts: number[] = [];
      const count = 1 + Math.floor(random() * 6);
      for (let i = 0; i < count; i++) {
        const whole = Math.floor(random() * 5) * PART;
        const short = random() < 0.5 ? 0 : S3_MIN_PART + Math.floor(random() * (PART - S3_MIN_PART));
        cuts.push(Math.max(S3_MIN_PART, whole + short));
      }
      const last = 1 + Math.floor(random() * 3 * PART); // the file's last part may be any length
      cuts.push(last);
      const size = cuts.reduce((a, b) => a + b, 0);
      let start = 0;
      let previous = 0;
      for (const length of cuts) {
        const numbers = numbersOf(start, length, size);
        expect({ round, start, length, placed: numbers !== undefined }).toEqual({ round, start, length, placed: true });
        expect(numbers![0]!).toBeGreaterThan(previous);
        previous = numbers!.at(-1)!;
        start += length;
      }
      expect(previous).toBeLessThanOrEqual(S3_MAX_PARTS);
    }
  });

  it('when a partial that does not end the file would leave a part under 5 MiB, or lies outside the file, then it is not placed (it is joined by a copy)', () => {
    expect(firstPartAt(0, 3 * MiB, 20 * MiB, PART)).toBeUndefined();
    expect(firstPartAt(0, PART + 4 * MiB, 20 * MiB, PART)).toBeUndefined();
    expect(firstPartAt(0, PART + 5 * MiB, 20 * MiB, PART)).toBe(1);
    // The file's last partial may end in a short part.
    expect(firstPartAt(16 * MiB, 4 * MiB, 20 * MiB, PART)).toBe(4);
    expect(firstPartAt(16 * MiB, 8 * MiB, 20 * MiB, PART)).toBeUndefined();
    expect(firstPartAt(-1, PART, 20 * MiB, PART)).toBeUndefined();
    expect(firstPartAt(0, 0, 20 * MiB, PART)).toBeUndefined();
    // Parts under S3's minimum cannot be placed at all.
    expect(firstPartAt(0, 4 * MiB, 8 * MiB, 4 * MiB)).toBeUndefined();
  });

  it('when a file is past what 10,000 numbers one every 5 MiB can place, then its last partial is not placed', () => {
    const size = S3_MAX_PARTS * S3_MIN_PART + PART;
    expect(firstPartAt(size - PART, PART, size, PART)).toBeUndefined();
    expect(firstPartAt(0, PART, size, PART)).toBe(1);
  });

  it('when two callers name their parallel uploads alike, then their groups are apart, and no group key can be an upload id', () => {
    expect(groupKey(1, 'build')).not.toBe(groupKey(2, 'build'));
    expect(groupKey(1, 'build')).toBe(groupKey(1, 'build'));
    expect(groupKey(1, 'build')).not.toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });
});
