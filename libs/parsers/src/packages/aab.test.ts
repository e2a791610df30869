import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { detectPackageFormat, parsePackage } from './index';

// The bundle's module content is made by Debian's aapt2 with --proto-format (what the Android
// Gradle plugin feeds bundletool), then laid out as bundletool does: base/manifest, base/res,
// base/resources.pb. framework-res.apk (android-framework-res) provides the android: attributes.
const FRAMEWORK = '/usr/share/android-framework-res/framework-res.apk';
const ICON_SIDE = 144;

let workDir: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'hangar-aab-'));
});

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

async function buildAab(label: string, tv: boolean): Promise<string> {
  const src = join(workDir, `src-${tv ? 'tv' : 'phone'}`);
  await mkdir(join(src, 'res/values'), { recursive: true });
  await mkdir(join(src, 'res/mipmap-xxhdpi'), { recursive: true });
  await writeFile(
    join(src, 'AndroidManifest.xml'),
    `<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.hangar.bundle"
    android:versionCode="42" android:versionName="3.2.1">
  <uses-sdk android:minSdkVersion="21" android:targetSdkVersion="33"/>
  ${tv ? '<uses-feature android:name="android.software.leanback" android:required="true"/>' : ''}
  <uses-permission android:name="android.permission.INTERNET"/>
  <application android:label="@string/app_name" android:icon="@mipmap/ic_launcher">
    <activity android:name=".Main">
      <intent-filter>
        <action android:name="android.intent.action.MAIN"/>
        <category android:name="android.intent.category.${tv ? 'LEANBACK_LAUNCHER' : 'LAUNCHER'}"/>
      </intent-filter>
    </activity>
  </application>
</manifest>
`,
  );
  await writeFile(join(src, 'res/values/strings.xml'), `<resources><string name="app_name">${label}</string></resources>`);
  const png = new PNG({ width: ICON_SIDE, height: ICON_SIDE });
  png.data.fill(90);
  await writeFile(join(src, 'res/mipmap-xxhdpi/ic_launcher.png'), PNG.sync.write(png));

  execFileSync('aapt2', ['compile', '--dir', join(src, 'res'), '-o', join(src, 'compiled.zip')]);
  const linked = join(src, 'linked.zip');
  execFileSync('aapt2', ['link', '--proto-format', '-I', FRAMEWORK, '--manifest', join(src, 'AndroidManifest.xml'), '-o', linked, join(src, 'compiled.zip')]);

  const stage = join(src, 'stage');
  await mkdir(join(stage, 'base'), { recursive: true });
  execFileSync('unzip', ['-q', linked, '-d', join(stage, 'base')]);
  await mkdir(join(stage, 'base/manifest'), { recursive: true });
  await mkdir(join(stage, 'base/dex'), { recursive: true });
  await rename(join(stage, 'base/AndroidManifest.xml'), join(stage, 'base/manifest/AndroidManifest.xml'));
  await writeFile(join(stage, 'base/dex/classes.dex'), 'dex\n035\0');
  const out = join(workDir, `${tv ? 'tv' : 'phone'}.upload`);
  execFileSync('zip', ['-qr', out, 'base'], { cwd: stage });
  return out;
}

describe('aab', () => {
  it('when an app bundle is built from aapt2 proto output, then package, versions, label, SDKs and icon are read', async () => {
    const path = await buildAab('Hangar Bundle', false);
    expect(await detectPackageFormat(path)).toBe('aab');
    const parsed = await parsePackage(path);
    expect(parsed).toMatchObject({
      format: 'aab',
      platform: 'Android',
      deviceType: 'Phone',
      name: 'Hangar Bundle',
      bundleId: 'com.example.hangar.bundle',
      releaseVersion: '3.2.1',
      buildVersion: '42',
      minOsVersion: '21',
    });
    expect(parsed.details).toMatchObject({ minSdkVersion: 21, targetSdkVersion: 33, permissions: ['android.permission.INTERNET'] });
    if (!parsed.icon) throw new Error('expected the mipmap icon');
    expect(PNG.sync.read(parsed.icon).width).toBe(ICON_SIDE);
  });

  it('when the bundle declares leanback, then it is a TV app', async () => {
    const parsed = await parsePackage(await buildAab('Hangar TV', true));
    expect([parsed.deviceType, parsed.name]).toEqual(['TV', 'Hangar TV']);
  });

  it('when the proto manifest is garbage, then PackageParseError rather than a crash', async () => {
    const stage = join(workDir, 'garbage');
    await mkdir(join(stage, 'base/manifest'), { recursive: true });
    await copyFile(join(__dirname, 'aab.test.ts'), join(stage, 'base/manifest/AndroidManifest.xml'));
    const out = join(workDir, 'garbage.upload');
    execFileSync('zip', ['-qr', out, 'base'], { cwd: stage });
    await expect(parsePackage(out)).rejects.toThrow(/aab|protobuf/);
  });
});
