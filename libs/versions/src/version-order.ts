/**
 * Versions compare segment by segment, numerically where both segments are
 * numbers (`1.10` > `1.9`), else as text, numbers before text; a version that
 * runs out of segments is the older (`1.2` < `1.2.1`). A release is newer than
 * another when its release version is higher, or equal with a higher build
 * (`2.0` build `1` is newer than `1.9` build `50`).
 */

// Segments are runs of letters and digits; everything else separates them.
// Keeping segments alphanumeric keeps every segment character above '.'
// and ' ' (the key's separators), so the key sorts exactly like the compare.
const SEGMENT_SEPARATORS = /[^A-Za-z0-9]+/;

function segments(version: string): string[] {
  return version.trim().split(SEGMENT_SEPARATORS).filter(Boolean);
}

// The key writes a number's digit count in two places: longer runs of digits
// (absurd as versions) are compared as text, by the compare and the key alike.
const isNumeric = (s: string) => /^\d{1,99}$/.test(s);

function compareSegment(a: string, b: string): number {
  const an = isNumeric(a);
  const bn = isNumeric(b);
  if (an && bn) {
    const x = a.replace(/^0+(?=\d)/, '');
    const y = b.replace(/^0+(?=\d)/, '');
    return x.length !== y.length ? x.length - y.length : x < y ? -1 : x > y ? 1 : 0;
  }
  if (an !== bn) return an ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareVersions(a: string, b: string): number {
  const x = segments(a);
  const y = segments(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] === undefined) return -1;
    if (y[i] === undefined) return 1;
    const c = compareSegment(x[i]!, y[i]!);
    if (c !== 0) return Math.sign(c);
  }
  return 0;
}

export function compareReleases(a: { releaseVersion: string; buildVersion: string }, b: { releaseVersion: string; buildVersion: string }): number {
  return compareVersions(a.releaseVersion, b.releaseVersion) || compareVersions(a.buildVersion, b.buildVersion);
}

/**
 * A string whose byte order is the order above, so the database can index it
 * and answer "newer than" with a range scan. Numbers are written with their
 * digit count first (`n02` `10` sorts after `n01` `9`); segments are joined by
 * `.`, and the build follows after a space, which sorts below `.` — so a
 * release version that is a prefix of another ends first.
 */
export function versionSortKey(releaseVersion: string, buildVersion: string): string {
  const encode = (version: string) =>
    segments(version)
      .map((s) => {
        if (!isNumeric(s)) return `s${s}`;
        const digits = s.replace(/^0+(?=\d)/, '');
        return `n${String(digits.length).padStart(2, '0')}${digits}`;
      })
      .join('.');
  return `${encode(releaseVersion)} ${encode(buildVersion)}`;
}
