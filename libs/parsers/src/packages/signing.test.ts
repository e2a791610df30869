import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build as buildPlist } from 'plist';
import { buildHfsPlusDisk, wrapAsDmg, writeMacApp } from '../../test/mac-disk-image';
import { parsePackage } from './index';
import { readMobileProvision } from './mobileprovision';
import type { PackageSigning } from './signing/signing.types';
import { fixturesDir } from '@hangar/testing';

// Signing details read from the shared fixtures, compared with what Apple's and Android's own
// formats say about them: the profile facts below were read with `openssl smime -verify` +
// plistlib and `openssl x509`, the apk fingerprints with keytool and, at test time, openssl.
const FIXTURES = fixturesDir();
const APPS = join(FIXTURES, 'apps');
const PROFILES = join(FIXTURES, 'mobileprovisions');

const sh = (file: string, args: string[], input?: Buffer) => execFileSync(file, args, { stdio: 'pipe', ...(input ? { input } : {}) });

let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'hangar-signing-'));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

async function signingOf(file: string): Promise<PackageSigning> {
  const parsed = await parsePackage(file);
  return parsed.details['signing'] as PackageSigning;
}

async function profileFile(file: string): Promise<PackageSigning> {
  const parsed = readMobileProvision(await readFile(join(PROFILES, file)));
  if (!parsed) throw new Error(`${file} did not parse`);
  return parsed.signing;
}

/** SHA-256 fingerprints of a v1 signature's certificates, as openssl prints them. */
function opensslFingerprints(apk: string): string[] {
  const pkcs7 = sh('unzip', ['-p', apk, 'META-INF/CERT.RSA']);
  const pem = sh('openssl', ['pkcs7', '-inform', 'DER', '-print_certs'], pkcs7);
  const out = sh('openssl', ['x509', '-noout', '-fingerprint', '-sha256'], pem).toString();
  return [out.split('=')[1]!.trim()];
}

describe('signing details of iOS packages (embedded.mobileprovision)', () => {
  it('when iphone.ipa is read, then its team development profile is development with its 100 devices, team, dates and 13 certificates', async () => {
    const signing = await signingOf(join(APPS, 'iphone.ipa'));
    const profile = signing.profile!;
    expect(profile).toMatchObject({
      type: 'development',
      name: 'iOS Team Provisioning Profile: *',
      uuid: '3e5c38a0-3031-4624-9c2d-c508df973b15',
      team: { name: 'QYER Inc', id: '5PJA6N5A3B' },
      createdAt: '2016-07-27T09:44:49.000Z',
      expiresAt: '2017-07-27T09:44:49.000Z',
      devicesCount: 100,
      devicesTruncated: false,
      provisionsAllDevices: false,
    });
    expect(profile.devices).toHaveLength(100);
    expect(profile.devices.every((udid) => /^[0-9a-f-]{25,40}$/i.test(udid))).toBe(true);
    expect(signing.certificates).toHaveLength(13);
    expect(signing.certificates[0]).toMatchObject({
      commonName: 'iPhone Developer: wangpeng wangpeng (U398GU648T)',
      expiresAt: '2017-05-24T07:38:49.000Z',
    });
    expect(signing.certificates[0]!.subject).toContain('O=QYER Inc');
    expect(signing.schemes).toEqual([]);
    // The release type keeps Zealot's precedence (devices listed → AdHoc): only the profile type is Apple's.
    expect((await parsePackage(join(APPS, 'iphone.ipa'))).releaseType).toBe('AdHoc');
  });

  it('when ipad.ipa and embedded.ipa are read, then their profiles are App Store and enterprise', async () => {
    const ipad = await signingOf(join(APPS, 'ipad.ipa'));
    expect(ipad.profile).toMatchObject({ type: 'app_store', devicesCount: 0, team: { id: '5PJA6N5A3B' } });
    expect(ipad.certificates.map((c) => c.commonName)).toEqual(['iPhone Distribution: QYER Inc (5PJA6N5A3B)']);
    const inHouse = await signingOf(join(APPS, 'embedded.ipa'));
    expect(inHouse.profile).toMatchObject({ type: 'enterprise', provisionsAllDevices: true, uuid: '1f67e425-350e-434c-9077-9e0791347bbf' });
    expect(inHouse.certificates.map((c) => c.expiresAt)).toEqual(['2024-01-11T03:19:37.000Z', '2022-06-19T11:29:49.000Z']);
  });
});

describe('signing details of the real profiles in fixtures/mobileprovisions', () => {
  it('when each is read, then its type is the one Xcode shows', async () => {
    expect((await profileFile('ios_adhoc.mobileprovision')).profile!.type).toBe('ad_hoc');
    expect((await profileFile('ios_appstore.mobileprovision')).profile!.type).toBe('app_store');
    expect((await profileFile('ios_development.mobileprovision')).profile!.type).toBe('development');
    expect((await profileFile('macos_development.provisionprofile')).profile!.type).toBe('development');
  });

  it('when the ad hoc profile is read, then devices, entitlements with dotted keys and the certificate fingerprint are kept', async () => {
    const signing = await profileFile('ios_adhoc.mobileprovision');
    expect(signing.profile).toMatchObject({
      name: 'iOS Full AdHoc',
      uuid: '7d02c76e-f937-40e9-bdac-a5a389612352',
      team: { name: 'Niceliving (Beijing) Technology Co., Ltd.', id: 'WKR87TTKML' },
      devices: ['e801228c2086d3aacc917b9c3d19bfa56efcab5b'],
      devicesCount: 1,
      expiresAt: '2020-10-24T08:40:28.000Z',
    });
    const entitlements = new Map(signing.profile!.entitlements.map((e) => [e.key, JSON.parse(e.value) as unknown]));
    expect(entitlements.get('com.apple.developer.team-identifier')).toBe('WKR87TTKML');
    expect(entitlements.get('get-task-allow')).toBe(false);
    expect(entitlements.size).toBe(35);
    expect(signing.certificates).toEqual([
      expect.objectContaining({
        commonName: 'Apple Distribution: Niceliving (Beijing) Technology Co., Ltd. (WKR87TTKML)',
        sha256: 'A3:D2:41:63:B2:B8:AD:42:98:37:5E:DF:3D:D1:A1:41:50:47:E1:30:28:2E:3D:3C:2B:3E:7D:77:68:4E:4A:D4',
        expiresAt: '2020-10-24T08:40:28.000Z',
      }),
    ]);
  });
});

describe('signing details of macOS apps (embedded.provisionprofile)', () => {
  it('when a zipped .app embeds the macOS development profile, then its profile and certificate are read', async () => {
    const contents = join(workDir, 'mac', 'Demo.app', 'Contents');
    await mkdir(contents, { recursive: true });
    await writeFile(join(contents, 'Info.plist'), buildPlist({ CFBundleIdentifier: 'com.example.mac', CFBundleShortVersionString: '1.0', CFBundleVersion: '7' }));
    await copyFile(join(PROFILES, 'macos_development.provisionprofile'), join(contents, 'embedded.provisionprofile'));
    execFileSync('zip', ['-qr', join(workDir, 'mac.zip'), 'Demo.app'], { cwd: join(workDir, 'mac') });
    const signing = await signingOf(join(workDir, 'mac.zip'));
    expect(signing.profile).toMatchObject({ type: 'development', platforms: ['OSX'], devices: ['CA0D8C4F-11CA-536F-BDCD-163DD790C48F'], uuid: '6768abe5-58b6-4d6f-8427-b8271e0b2655' });
    expect(signing.certificates.map((c) => c.commonName)).toEqual(['Apple Development: Shen Wang (A3Z3NZQ8V3)']);
  });
});

describe('signing details of macOS disk images', () => {
  it('when a dmg holds an app embedding the macOS development profile, then its profile is read from the HFS+ volume', async () => {
    const root = join(workDir, 'dmg-root');
    await mkdir(join(workDir, 'dmg-scratch'), { recursive: true });
    await writeMacApp(root, join(workDir, 'dmg-scratch'));
    await copyFile(join(PROFILES, 'macos_development.provisionprofile'), join(root, 'Foo.app', 'Contents', 'embedded.provisionprofile'));
    const dmg = join(workDir, 'signed.dmg');
    await writeFile(dmg, wrapAsDmg(await buildHfsPlusDisk(root, join(workDir, 'signed.hfs'))));
    const signing = await signingOf(dmg);
    expect(signing.profile).toMatchObject({ type: 'development', uuid: '6768abe5-58b6-4d6f-8427-b8271e0b2655', devicesCount: 1 });
    expect(signing.certificates).toHaveLength(1);
  });
});

describe('signing details of Android packages', () => {
  it('when android.apk is read, then it is signed by v1 and v2 with the Android Debug certificate keytool and openssl print', async () => {
    const apk = join(APPS, 'android.apk');
    const parsed = await parsePackage(apk);
    const signing = parsed.details['signing'] as PackageSigning;
    expect(signing.schemes).toEqual(['v1', 'v2']);
    expect(signing.certificates.map((c) => c.sha256)).toEqual(['EE:1C:4F:FC:2C:97:EA:DD:A1:0F:F2:23:AF:83:19:79:39:3C:8D:C6:03:3C:64:60:A4:BE:9B:E6:8C:E0:BB:94']);
    expect(signing.certificates.map((c) => c.sha256)).toEqual(opensslFingerprints(apk));
    expect(signing.certificates[0]).toMatchObject({ commonName: 'Android Debug', expiresAt: '2049-06-04T08:41:36.000Z' });
    expect(parsed.details).toMatchObject({ minSdkVersion: 14, targetSdkVersion: 29 });
    expect(Array.isArray(parsed.details['permissions'])).toBe(true);
    expect(Array.isArray(parsed.details['architectures'])).toBe(true);
  });

  it('when tv.apk and wear.apk are read, then each has its v1 certificate, the one openssl reads', async () => {
    for (const file of ['tv.apk', 'wear.apk']) {
      const apk = join(APPS, file);
      const signing = await signingOf(apk);
      expect(signing.schemes).toContain('v1');
      expect(signing.certificates.map((c) => c.sha256)).toEqual(opensslFingerprints(apk));
    }
  });
});
