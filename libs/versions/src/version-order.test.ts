import { compareReleases, compareVersions, versionSortKey } from './version-order';

describe('version order', () => {
  it.each([
    ['1.10', '1.9', 1],
    ['1.9', '1.10', -1],
    ['1.2.3', '1.2.3', 0],
    ['1.2', '1.2.1', -1],
    ['2.0', '10.0', -1],
    ['1.02', '1.2', 0],
    ['1.0.0-beta', '1.0.0', 1],
    ['1.0.0-alpha', '1.0.0-beta', -1],
    ['1.0.1', '1.0.0-rc1', 1],
    ['100', '99', 1],
  ])('when %s is compared with %s, then the result is %i', (a, b, expected) => {
    expect(compareVersions(a, b)).toBe(expected);
  });

  it.each([
    [{ releaseVersion: '2.0', buildVersion: '1' }, { releaseVersion: '1.9', buildVersion: '50' }, 1],
    [{ releaseVersion: '1.9', buildVersion: '50' }, { releaseVersion: '1.9', buildVersion: '49' }, 1],
    [{ releaseVersion: '1.9', buildVersion: '5' }, { releaseVersion: '1.9', buildVersion: '10' }, -1],
    [{ releaseVersion: '1.2.3', buildVersion: '5' }, { releaseVersion: '1.2.3', buildVersion: '5' }, 0],
  ])('when release %o is compared with %o, then %i', (a, b, expected) => {
    expect(compareReleases(a, b)).toBe(expected);
  });

  it('when sort keys are compared as strings, then they order exactly like compareReleases', () => {
    const releases = [
      ['1.9', '50'], ['1.10', '1'], ['2.0', '1'], ['1.9', '5'], ['1.9', '10'], ['1.2', '7'], ['1.2.1', '1'],
      ['10.0', '0'], ['1.0.0-beta', '3'], ['1.0.0', '3'], ['0.9', '100'], ['1.9', '9'], ['3', '1'], ['3.0', '1'],
    ].map(([releaseVersion, buildVersion]) => ({ releaseVersion: releaseVersion!, buildVersion: buildVersion! }));
    for (const a of releases) {
      for (const b of releases) {
        const ka = versionSortKey(a.releaseVersion, a.buildVersion);
        const kb = versionSortKey(b.releaseVersion, b.buildVersion);
        const binary = ka < kb ? -1 : ka > kb ? 1 : 0;
        expect({ a, b, order: binary }).toEqual({ a, b, order: compareReleases(a, b) });
      }
    }
  });
});
