import fc from 'fast-check';
import { compareReleases, compareVersions, versionSortKey } from './version-order';

// Hostile input, property-based: version ordering is a total order on whatever versions
// CI sends, and the stored sort key reproduces it byte for byte (the database answers "newer
// than" with a range scan over that key).

// Dotted versions as CI systems write them: numbers (with leading zeros, beyond 2^53), words,
// pre-release tags, joined by the separators the comparison knows (. - + _ and space).
const segment = fc.oneof(
  { weight: 4, arbitrary: fc.nat({ max: 1000 }).map(String) },
  fc.stringMatching(/^0{0,3}\d{1,30}$/),
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,6}$/),
  fc.constantFrom('alpha', 'beta', 'rc1', 'RC', 'SNAPSHOT', 'b', 'a'),
);
const version = fc
  .tuple(fc.array(segment, { minLength: 0, maxLength: 5 }), fc.array(fc.constantFrom('.', '.', '.', '-', '+', '_', ' ', '..'), { minLength: 5, maxLength: 5 }))
  .map(([segments, seps]) => segments.map((s, i) => (i === 0 ? s : `${seps[i]}${s}`)).join(''));
const release = fc.record({ releaseVersion: version, buildVersion: version });
const keyOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe('version order (property-based)', () => {
  it('compareVersions is reflexive and antisymmetric', () => {
    fc.assert(
      fc.property(version, version, (a, b) => {
        expect(compareVersions(a, a)).toBe(0);
        expect(compareVersions(a, b)).toBe(-compareVersions(b, a) || 0);
        expect([-1, 0, 1]).toContain(compareVersions(a, b));
      }),
      { numRuns: 2000 },
    );
  });

  it('compareVersions is transitive', () => {
    fc.assert(
      fc.property(version, version, version, (a, b, c) => {
        const sorted = [a, b, c].sort(compareVersions);
        expect(compareVersions(sorted[0]!, sorted[1]!)).toBeLessThanOrEqual(0);
        expect(compareVersions(sorted[1]!, sorted[2]!)).toBeLessThanOrEqual(0);
        expect(compareVersions(sorted[0]!, sorted[2]!)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('the sort key orders releases exactly as compareReleases does (what the database range scans rely on)', () => {
    fc.assert(
      fc.property(release, release, (a, b) => {
        const byKey = keyOrder(versionSortKey(a.releaseVersion, a.buildVersion), versionSortKey(b.releaseVersion, b.buildVersion));
        expect(byKey).toBe(compareReleases(a, b));
      }),
      { numRuns: 3000 },
    );
  });

  it('the sort key orders exactly as compareReleases for arbitrary text too (any separators, unicode, huge numbers)', () => {
    const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.stringMatching(/^[0-9a-z.!\t~-]{0,20}$/), fc.stringMatching(/^\d{95,105}$/));
    fc.assert(
      fc.property(anyText, anyText, anyText, anyText, (ra, ba, rb, bb) => {
        const byKey = keyOrder(versionSortKey(ra, ba), versionSortKey(rb, bb));
        expect(byKey).toBe(compareReleases({ releaseVersion: ra, buildVersion: ba }, { releaseVersion: rb, buildVersion: bb }));
      }),
      { numRuns: 3000 },
    );
    // The cases that broke the key when segments could hold any character.
    expect(keyOrder(versionSortKey('1.a.b', '1'), versionSortKey('1.a!', '1'))).toBe(compareReleases({ releaseVersion: '1.a.b', buildVersion: '1' }, { releaseVersion: '1.a!', buildVersion: '1' }));
    expect(keyOrder(versionSortKey('1.a\tb', '1'), versionSortKey('1.a', '1'))).toBe(compareReleases({ releaseVersion: '1.a\tb', buildVersion: '1' }, { releaseVersion: '1.a', buildVersion: '1' }));
  });

  it('compareVersions and versionSortKey never throw on arbitrary text, however long', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ maxLength: 50 }), (a, b) => {
        expect([-1, 0, 1]).toContain(compareVersions(a, b));
        expect(typeof versionSortKey(a, b)).toBe('string');
      }),
      { numRuns: 500 },
    );
    const long = '1.'.repeat(50_000);
    expect(compareVersions(long, `${long}1`)).toBe(-1);
    expect(versionSortKey(long, long).length).toBeGreaterThan(long.length);
  });
});
