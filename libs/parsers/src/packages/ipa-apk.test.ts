import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { detectPackageFormat, parsePackage, type ParsedPackage } from './index';
import { fixturesDir } from '@hangar/testing';

const APPS = join(fixturesDir(), 'apps');

interface Expected {
  file: string;
  format: 'ipa' | 'apk';
  platform: 'iOS' | 'Android';
  deviceType: string;
  bundleId: string;
  releaseVersion: string;
  buildVersion: string;
}

// The fixtures README's table.
const FIXTURES: Expected[] = [
  { file: 'android.apk', format: 'apk', platform: 'Android', deviceType: 'Phone', bundleId: 'com.icyleaf.appinfodemo', releaseVersion: '1.2.3', buildVersion: '5' },
  { file: 'wear.apk', format: 'apk', platform: 'Android', deviceType: 'Watch', bundleId: 'com.icyleaf.appinfoweardemo', releaseVersion: '1.0', buildVersion: '1' },
  { file: 'tv.apk', format: 'apk', platform: 'Android', deviceType: 'TV', bundleId: 'com.icyleaf.appinfotvdemo', releaseVersion: '1.0', buildVersion: '1' },
  { file: 'iphone.ipa', format: 'ipa', platform: 'iOS', deviceType: 'iPhone', bundleId: 'com.icyleaf.AppInfoDemo', releaseVersion: '1.2.3', buildVersion: '5' },
  { file: 'ipad.ipa', format: 'ipa', platform: 'iOS', deviceType: 'iPad', bundleId: 'com.icyleaf.bundle', releaseVersion: '1.0', buildVersion: '1' },
  // The README gives no device for embedded.ipa; its Info.plist says UIDeviceFamily [1, 2].
  { file: 'embedded.ipa', format: 'ipa', platform: 'iOS', deviceType: 'Universal', bundleId: 'com.icyleaf.test.Demo', releaseVersion: '1.0', buildVersion: '1' },
];

let workDir: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'hangar-ipa-apk-'));
});

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

/** A copy under a meaningless name, so nothing can lean on the extension. */
async function anonymousCopy(file: string): Promise<string> {
  const target = join(workDir, `${file.replace(/\W/g, '_')}-${Math.random().toString(36).slice(2)}.upload`);
  await copyFile(join(APPS, file), target);
  return target;
}

function decodePng(icon: Buffer | undefined): PNG {
  if (!icon) throw new Error('expected an icon');
  return PNG.sync.read(icon);
}

function collectKeys(value: unknown, keys: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => collectKeys(item, keys));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      keys.push(key);
      collectKeys(item, keys);
    }
  }
  return keys;
}

describe.each(FIXTURES)('fixture $file', (expected) => {
  let parsed: ParsedPackage;

  beforeAll(async () => {
    parsed = await parsePackage(await anonymousCopy(expected.file));
  });

  it('when detected under a name without extension, then the content decides the format', async () => {
    expect(await detectPackageFormat(await anonymousCopy(expected.file))).toBe(expected.format);
  });

  it('when parsed, then id, versions, platform and device type match the known facts', () => {
    expect({
      format: parsed.format,
      platform: parsed.platform,
      deviceType: parsed.deviceType,
      bundleId: parsed.bundleId,
      releaseVersion: parsed.releaseVersion,
      buildVersion: parsed.buildVersion,
    }).toEqual({
      format: expected.format,
      platform: expected.platform,
      deviceType: expected.deviceType,
      bundleId: expected.bundleId,
      releaseVersion: expected.releaseVersion,
      buildVersion: expected.buildVersion,
    });
  });

  it('when parsed, then details survive JSON and have no key MongoDB would refuse', () => {
    expect(JSON.parse(JSON.stringify(parsed.details))).toEqual(parsed.details);
    expect(collectKeys(parsed.details).filter((key) => key.includes('.') || key.startsWith('$'))).toEqual([]);
  });
});

describe('iOS specifics', () => {
  it('when iphone.ipa is parsed, then its ad-hoc profile, team, architectures and min OS are read and no icon is invented', async () => {
    const parsed = await parsePackage(await anonymousCopy('iphone.ipa'));
    expect(parsed.releaseType).toBe('AdHoc');
    expect(parsed.minOsVersion).toBe('9.3');
    expect(parsed.details['provisioning']).toMatchObject({ teamName: 'QYER Inc' });
    expect(parsed.details['architectures']).toEqual(['armv7', 'arm64']);
    expect(parsed.icon).toBeUndefined();
  });

  it('when ipad.ipa is parsed, then its Apple-crushed icon comes back as a standard PNG that pngjs decodes', async () => {
    const parsed = await parsePackage(await anonymousCopy('ipad.ipa'));
    expect(parsed.name).toBe('bundle');
    expect(parsed.minOsVersion).toBe('9.3');
    const icon = decodePng(parsed.icon);
    expect(parsed.icon?.toString('latin1', 12, 16)).toBe('IHDR');
    // The largest icon in the bundle is AppIcon83.5x83.5@2x (167 px).
    expect([icon.width, icon.height]).toEqual([167, 167]);
    expect(icon.data.some((byte, index) => index % 4 !== 3 && byte !== 0)).toBe(true);
  });

  it('when embedded.ipa is parsed, then its notification extension and framework are listed', async () => {
    const parsed = await parsePackage(await anonymousCopy('embedded.ipa'));
    expect(parsed.details['extensions']).toEqual([expect.objectContaining({ bundleId: 'com.icyleaf.test.Demo.Notification' })]);
    expect(parsed.details['frameworks']).toEqual(['CarPlay.framework']);
  });
});

describe('Android specifics', () => {
  it('when android.apk is parsed, then its label, SDK levels and a PNG icon are read', async () => {
    const parsed = await parsePackage(await anonymousCopy('android.apk'));
    expect(parsed.name).toBe('AppInfoDemo');
    expect(parsed.minOsVersion).toBe('14');
    expect(parsed.details).toMatchObject({ minSdkVersion: 14, targetSdkVersion: 29 });
    // The launcher icon is adaptive (XML); the densest PNG fallback is expected instead.
    expect(decodePng(parsed.icon).width).toBeGreaterThanOrEqual(96);
  });

  it('when wear.apk is parsed, then its name and min SDK are read', async () => {
    const parsed = await parsePackage(await anonymousCopy('wear.apk'));
    expect(parsed.name).toBe('AppInfoWearDemo');
    expect(parsed.minOsVersion).toBe('21');
  });
});

describe('resource hygiene', () => {
  it('when many packages are parsed, then no file descriptor is left open', async () => {
    const ipa = await anonymousCopy('ipad.ipa');
    const apk = await anonymousCopy('android.apk');
    await parsePackage(ipa);
    const before = (await readdir('/proc/self/fd')).length;
    for (let i = 0; i < 5; i++) {
      await parsePackage(ipa);
      await parsePackage(apk);
      await detectPackageFormat(apk);
    }
    expect((await readdir('/proc/self/fd')).length).toBeLessThanOrEqual(before);
  });
});
