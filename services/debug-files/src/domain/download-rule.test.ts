import { InvalidArgument } from '@hangar/errors';
import { downloadSelection } from './download-rule';
import { versionSortKey } from '@hangar/versions';

const query = (q: Partial<{ releaseVersion: string; buildVersion: string; order: string }>) => ({ releaseVersion: '', buildVersion: '', order: '', ...q });

describe('download selection rule', () => {
  it('when an Android download names release and build, then both are matched', () => {
    expect(downloadSelection('android', query({ releaseVersion: '1.2.0', buildVersion: '42' }))).toEqual({
      match: { releaseVersion: '1.2.0', buildVersion: '42' },
      order: 'version',
    });
  });

  it('when an Android download has no build, then the release is matched and order decides (version by default)', () => {
    expect(downloadSelection('android', query({ releaseVersion: '1.2.0' }))).toEqual({ match: { releaseVersion: '1.2.0' }, order: 'version' });
    expect(downloadSelection('android', query({ releaseVersion: '1.2.0', order: 'upload_date' }))).toEqual({ match: { releaseVersion: '1.2.0' }, order: 'upload_date' });
  });

  it('when an Android download has no release version, then 422 names release_version', () => {
    expect(() => downloadSelection('android', query({ buildVersion: '42' }))).toThrow(InvalidArgument);
    expect(() => downloadSelection('android', query({ releaseVersion: '  ' }))).toThrow(expect.objectContaining({ entry: { release_version: ["can't be blank"] } }));
  });

  it('when an iOS download names a release version, then it is ignored', () => {
    expect(downloadSelection('ios', query({ releaseVersion: '9.9', buildVersion: '7' }))).toEqual({ match: { buildVersion: '7' }, order: 'version' });
    expect(downloadSelection('ios', query({ releaseVersion: '9.9' }))).toEqual({ match: {}, order: 'version' });
  });

  it('when the order is neither version nor upload_date, then 422 names order', () => {
    expect(() => downloadSelection('ios', query({ order: 'newest' }))).toThrow(expect.objectContaining({ entry: { order: ['must be version or upload_date'] } }));
  });

  it('when order=version picks among builds of one release, then the numerically highest build sorts first', () => {
    const builds = ['9', '10', '2', '100', '11'];
    const sorted = [...builds].sort((a, b) => (versionSortKey('1.0', b) < versionSortKey('1.0', a) ? -1 : 1));
    expect(sorted).toEqual(['100', '11', '10', '9', '2']);
  });
});
