import { InvalidArgument } from '@hangar/errors';
import { matchesBuildFilter, readBuildFilter } from './build-filter';

const build = { releaseVersion: '1.2.3', branch: 'release/2.0', gitCommit: 'deadbeefcafe' };

describe('the builds filter', () => {
  it('when a release version is given, then it matches that version and its dotted extensions only', () => {
    expect(matchesBuildFilter(build, { releaseVersion: '1.2.3' })).toBe(true);
    expect(matchesBuildFilter(build, { releaseVersion: '1.2' })).toBe(true);
    expect(matchesBuildFilter(build, { releaseVersion: '1' })).toBe(true);
    expect(matchesBuildFilter({ ...build, releaseVersion: '1.20' }, { releaseVersion: '1.2' })).toBe(false);
    expect(matchesBuildFilter(build, { releaseVersion: '1.2.3.4' })).toBe(false);
  });

  it('when a branch is given, then only that branch matches, exactly', () => {
    expect(matchesBuildFilter(build, { branch: 'release/2.0' })).toBe(true);
    expect(matchesBuildFilter(build, { branch: 'release' })).toBe(false);
  });

  it('when a commit is given, then a prefix in any case matches', () => {
    expect(matchesBuildFilter(build, { gitCommit: 'DEADbeef' })).toBe(true);
    expect(matchesBuildFilter(build, { gitCommit: 'beef' })).toBe(false);
  });

  it('when every field is given, then all must match', () => {
    expect(matchesBuildFilter(build, { releaseVersion: '1.2', branch: 'release/2.0', gitCommit: 'dead' })).toBe(true);
    expect(matchesBuildFilter(build, { releaseVersion: '1.2', branch: 'main', gitCommit: 'dead' })).toBe(false);
  });

  it('when fields are blank, then they are left out; when one is too long, then it is refused by name', () => {
    expect(readBuildFilter({ releaseVersion: ' ', branch: '', gitCommit: ' dead ' })).toEqual({ gitCommit: 'dead' });
    expect(readBuildFilter(undefined)).toEqual({});
    let refused: unknown;
    try {
      readBuildFilter({ branch: 'b'.repeat(201) });
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(InvalidArgument);
    expect((refused as InvalidArgument).entry).toHaveProperty('branch');
  });
});
