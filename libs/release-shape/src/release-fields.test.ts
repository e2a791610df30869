import type { releases } from '@hangar/proto';
import { releaseFields, releaseUrls } from './release-fields';

const release = (over: Partial<releases.Release> = {}): releases.Release =>
  ({
    id: 42,
    version: 7,
    appName: 'Hangar',
    bundleId: 'com.example.hangar',
    releaseVersion: '1.10',
    buildVersion: '310',
    releaseType: 'adhoc',
    source: 'api',
    branch: 'main',
    gitCommit: 'abc123',
    ciUrl: 'https://ci.example.com/1',
    size: 1024,
    platform: 'Android',
    deviceType: 'Phone',
    minOsVersion: '8.0',
    changelog: [{ message: 'first', author: '', email: 'dev@example.com', date: '' }],
    customFields: [{ name: 'QA', value: 'passed', icon: '' }],
    createdAtMs: 0,
    ...over,
  }) as releases.Release;

describe('the Release shape', () => {
  it('when a release is shaped, then it has exactly the seed fields that do not depend on context', () => {
    expect(Object.keys(releaseFields(release(), 'https://hangar.example.com', '2026-11-22T00:00:00.000+00:00')).sort()).toEqual(
      [
        'id', 'version', 'app_name', 'bundle_id', 'release_version', 'build_version', 'release_type', 'source', 'branch', 'git_commit', 'ci_url',
        'size', 'platform', 'device_type', 'min_os_version', 'icon_url', 'release_url', 'install_url', 'qrcode_url', 'changelog', 'text_changelog',
        'custom_fields', 'created_at', 'signing', 'android',
        // Added to the seed's fields: the package's hash, mandatory updates, download counts.
        'sha256', 'mandatory', 'download_count',
      ].sort(),
    );
  });

  it('when a release has no recorded hash, then sha256 is null; otherwise its hex, with mandatory and download_count as recorded', () => {
    expect(releaseFields(release({ sha256: '', mandatory: false, downloadCount: 0 }), '', 'x')).toMatchObject({ sha256: null, mandatory: false, download_count: 0 });
    expect(releaseFields(release({ sha256: 'ab'.repeat(32), mandatory: true, downloadCount: 12 }), '', 'x')).toMatchObject({ sha256: 'ab'.repeat(32), mandatory: true, download_count: 12 });
  });

  it('when changelog entries and custom fields have empty optional parts, then those parts are left out', () => {
    const shaped = releaseFields(release(), '', 'x');
    expect(shaped.changelog).toEqual([{ message: 'first', email: 'dev@example.com' }]);
    expect(shaped.text_changelog).toBe('- first');
    expect(shaped.custom_fields).toEqual([{ name: 'QA', value: 'passed' }]);
    expect(shaped.created_at).toBe('x');
  });

  it('when the build is iOS, then install_url is the itms-services link to its manifest; otherwise the download', () => {
    expect(releaseUrls('https://h.example.com', { id: 5, platform: 'iOS' }).install_url).toBe(
      'itms-services://?action=download-manifest&url=https%3A%2F%2Fh.example.com%2Fapi%2Freleases%2F5%2Fmanifest.plist',
    );
    expect(releaseUrls('https://h.example.com', { id: 5, platform: 'Android' }).install_url).toBe('https://h.example.com/api/releases/5/download');
  });

  it('when the base URL is empty, then the URLs are paths on the gateway origin', () => {
    expect(releaseUrls('', { id: 9, platform: 'Linux' })).toEqual({
      icon_url: '/api/releases/9/icon',
      release_url: '/releases/9',
      install_url: '/api/releases/9/download',
      qrcode_url: '/api/releases/9/qrcode',
    });
  });

  it('when the metadata carries a profile and certificates, then signing is in snake_case with entitlements as an object and expiry judged now', () => {
    const metadataJson = JSON.stringify({
      signing: {
        schemes: [],
        certificates: [{ subject: 'CN=A', commonName: 'A', sha256: 'AB:CD', expiresAt: '2030-01-01T00:00:00.000Z' }],
        certificatesTruncated: false,
        profile: {
          type: 'ad_hoc', name: 'P', team: { name: 'T', id: 'X1' }, platforms: ['iOS'], expiresAt: '2026-06-01T00:00:00.000Z',
          devicesCount: 3, devices: ['a', 'b', 'c'], devicesTruncated: false, provisionsAllDevices: false,
          entitlements: [{ key: 'com.apple.developer.team-identifier', value: '"X1"' }, { key: 'get-task-allow', value: 'false' }],
          entitlementsTruncated: false,
        },
      },
    });
    const before = releaseFields(release({ platform: 'iOS', metadataJson }), '', 'x', new Date('2026-01-01T00:00:00Z'));
    expect(before.signing?.profile).toMatchObject({ type: 'ad_hoc', devices_count: 3, expired: false, team: { name: 'T', id: 'X1' } });
    expect(before.signing?.profile?.entitlements).toEqual({ 'com.apple.developer.team-identifier': 'X1', 'get-task-allow': false });
    expect(before.signing?.certificates).toEqual([{ subject: 'CN=A', common_name: 'A', sha256: 'AB:CD', not_before: null, expires_at: '2030-01-01T00:00:00.000Z', expired: false }]);
    expect(before.android).toBeNull();
    const after = releaseFields(release({ platform: 'iOS', metadataJson }), '', 'x', new Date('2027-01-01T00:00:00Z'));
    expect(after.signing?.profile?.expired).toBe(true);
    expect(after.signing?.certificates[0]?.expired).toBe(false);
  });

  it('when the build is Android, then android carries SDK levels, permissions and native ABIs; metadata without them gives nulls, bad JSON too', () => {
    const metadataJson = JSON.stringify({ minSdkVersion: 14, targetSdkVersion: 29, permissions: ['android.permission.INTERNET'], architectures: ['arm64-v8a'] });
    expect(releaseFields(release({ platform: 'Android', metadataJson }), '', 'x').android).toEqual({
      min_sdk_version: 14, target_sdk_version: 29, permissions: ['android.permission.INTERNET'], native_abis: ['arm64-v8a'],
    });
    const broken = releaseFields(release({ platform: 'Android', metadataJson: '{not json' }), '', 'x');
    expect(broken.signing).toBeNull();
    expect(broken.android).toEqual({ min_sdk_version: null, target_sdk_version: null, permissions: [], native_abis: [] });
  });
});
