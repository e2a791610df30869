import { FailedPrecondition, InvalidArgument } from '@hangar/errors';
import type { ParsedDebugFile } from '@hangar/parsers';
import type { apps } from '@hangar/proto';
import { archiveFields } from './archive-fields';
import { versionSortKey } from '@hangar/versions';

const context = (deviceType: string): apps.ChannelContext => ({
  app: { id: 1, name: 'Demo', schemes: [], collaborators: [], createdAtMs: 0 },
  scheme: { id: 2, appId: 1, name: 'Adhoc', newBuildCallout: true, retainedBuilds: 0, channels: [] },
  channel: { id: 3, schemeId: 2, name: deviceType, slug: 'key', deviceType, bundleId: '*', hasPassword: false, minSupportedVersion: '' },
});

const dsym: ParsedDebugFile = {
  kind: 'dsym',
  deviceType: 'ios',
  bundleId: 'com.icyleaf.iOS',
  releaseVersion: '1.0',
  buildVersion: '2',
  entries: [
    { uuid: '26DFC15D-BDCE-351F-B5DE-6EE9F5DD6D85', type: 'armv7', object: 'iOS', size: 10, data: { dsym: 'iOS.app.dSYM' } },
    { uuid: '17f58291-dd25-3fc8-9417-ccbe8163d33e', type: 'arm64', object: 'iOS', size: 20, data: {} },
  ],
};

const mapping: ParsedDebugFile = {
  kind: 'proguard',
  deviceType: 'android',
  bundleId: 'com.icyleaf.appinfo',
  releaseVersion: '1.0',
  buildVersion: '1',
  entries: [{ uuid: '0a1f3400-8261-513d-88b7-2de2de6d4cae', type: 'mapping', object: 'mapping.txt', size: 5, data: { path: 'mapping.txt' } }],
};

const read = (parsed: ParsedDebugFile) => ({ parsed, checksum: 'c'.repeat(64), size: 1234, memberKeys: [] });
const form = (releaseVersion = '', buildVersion = '') => ({ objectKey: 'debug-files/x', fileName: 'x.zip', releaseVersion, buildVersion });

describe('archiveFields', () => {
  it('when a dSYM comes with other form versions, then the Info.plist versions win and every slice is a row', () => {
    const fields = archiveFields(context('ios'), read(dsym), form('9.9', '99'));
    expect(fields).toMatchObject({ deviceType: 'ios', kind: 'dsym', bundleId: 'com.icyleaf.iOS', releaseVersion: '1.0', buildVersion: '2', size: 1234, checksum: 'c'.repeat(64) });
    expect(fields.versionKey).toBe(versionSortKey('1.0', '2'));
    expect(fields.entries).toEqual([
      { uuid: '26dfc15d-bdce-351f-b5de-6ee9f5dd6d85', type: 'armv7', object: 'iOS', size: 10, dataJson: '{"dsym":"iOS.app.dSYM"}' },
      { uuid: '17f58291-dd25-3fc8-9417-ccbe8163d33e', type: 'arm64', object: 'iOS', size: 20, dataJson: '{}' },
    ]);
  });

  it('when a dSYM has no Info.plist versions, then the form versions are kept', () => {
    const bare = { ...dsym, releaseVersion: undefined, buildVersion: undefined };
    expect(archiveFields(context('macos'), read(bare), form('3.1', '7'))).toMatchObject({ releaseVersion: '3.1', buildVersion: '7' });
  });

  it('when a mapping comes without versions, then 422 names both fields', () => {
    expect(() => archiveFields(context('android'), read(mapping), form())).toThrow(
      expect.objectContaining({ entry: { release_version: ["can't be blank for an Android mapping"], build_version: ["can't be blank for an Android mapping"] } }),
    );
    expect(() => archiveFields(context('android'), read(mapping), form('1.0'))).toThrow(InvalidArgument);
  });

  it('when a mapping comes with versions, then the form versions are stored and the package is the bundle id', () => {
    expect(archiveFields(context('android'), read(mapping), form('2.0', '20'))).toMatchObject({ releaseVersion: '2.0', buildVersion: '20', bundleId: 'com.icyleaf.appinfo' });
  });

  it('when the archive does not fit the channel platform, then 422 says what the channel takes', () => {
    expect(() => archiveFields(context('android'), read(dsym), form('1', '1'))).toThrow(FailedPrecondition);
    expect(() => archiveFields(context('ios'), read(mapping), form('1', '1'))).toThrow(/takes dSYM archives or Breakpad symbol files, but this is a ProGuard mapping archive/);
    expect(() => archiveFields(context('windows'), read(dsym), form())).toThrow(/takes PDBs, PE images or Breakpad symbol files, but this is a dSYM archive/);
  });
});
