import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build as buildPlist } from 'plist';
import { PNG } from 'pngjs';
import { detectPackageFormat, PackageParseError, parsePackage } from './index';

// Packages are made here with each format's own tool (dpkg-deb, rpmbuild, zip + png2icns).
const ICON_SIDE = 128;
const ICON_RGBA = Buffer.from([30, 120, 210, 255]);

let workDir: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'hangar-linux-mac-'));
});

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

async function buildDeb(compression: 'xz' | 'gzip' | 'zstd', version: string): Promise<string> {
  const root = join(workDir, `deb-${compression}`);
  await mkdir(join(root, 'DEBIAN'), { recursive: true });
  await mkdir(join(root, 'usr/share/doc/hangar-demo'), { recursive: true });
  await writeFile(join(root, 'usr/share/doc/hangar-demo/README'), 'demo\n');
  await writeFile(
    join(root, 'DEBIAN/control'),
    [
      'Package: hangar-demo',
      `Version: ${version}`,
      'Architecture: amd64',
      'Maintainer: Hangar Tests <tests@example.com>',
      'Section: utils',
      'Description: Hangar demo tool',
      ' A longer description on a continuation line.',
      '',
    ].join('\n'),
  );
  const out = join(workDir, `demo-${compression}.upload`);
  execFileSync('dpkg-deb', ['--root-owner-group', `-Z${compression}`, '--build', root, out], { stdio: 'pipe' });
  return out;
}

async function buildRpm(): Promise<string> {
  const top = join(workDir, 'rpm');
  await mkdir(join(top, 'SPECS'), { recursive: true });
  const spec = join(top, 'SPECS/demo.spec');
  await writeFile(
    spec,
    [
      'Name: hangar-rpm-demo',
      'Version: 3.1.4',
      'Release: 15',
      'Summary: Hangar rpm demo',
      'License: MIT',
      'BuildArch: noarch',
      '%description',
      'Demo package for parser tests.',
      '%files',
      '',
    ].join('\n'),
  );
  execFileSync('rpmbuild', ['-bb', '--nodeps', '--define', `_topdir ${top}`, spec], { stdio: 'pipe' });
  const rpms = join(top, 'RPMS/noarch');
  const [file] = await readdir(rpms);
  if (!file) throw new Error('rpmbuild produced nothing');
  return join(rpms, file);
}

async function buildAppZip(plistFormat: 'xml' | 'binary', iconTool: 'png2icns' | 'pillow'): Promise<string> {
  const root = join(workDir, `mac-${plistFormat}`);
  const contents = join(root, 'Demo.app/Contents');
  await mkdir(join(contents, 'Resources'), { recursive: true });
  await mkdir(join(contents, 'MacOS'), { recursive: true });
  const info = {
    CFBundleIdentifier: 'com.example.hangar.mac',
    CFBundleName: 'Hangar Mac Demo',
    CFBundleShortVersionString: '4.5.6',
    CFBundleVersion: '789',
    CFBundleExecutable: 'Demo',
    CFBundleIconFile: 'AppIcon',
    LSMinimumSystemVersion: '11.0',
  };
  const plistPath = join(contents, 'Info.plist');
  await writeFile(plistPath, buildPlist(info));
  if (plistFormat === 'binary') execFileSync('python3', ['-c', 'import plistlib,sys; p=sys.argv[1]; d=plistlib.load(open(p,"rb")); plistlib.dump(d, open(p,"wb"), fmt=plistlib.FMT_BINARY)', plistPath]);
  await writeFile(join(contents, 'MacOS/Demo'), '#!/bin/sh\necho demo\n');

  const png = new PNG({ width: ICON_SIDE, height: ICON_SIDE });
  for (let i = 0; i < png.data.length; i += 4) png.data.set(ICON_RGBA, i);
  const pngPath = join(workDir, `icon-${plistFormat}.png`);
  const icnsPath = join(contents, 'Resources/AppIcon.icns');
  await writeFile(pngPath, PNG.sync.write(png));
  // libicns writes a legacy RLE 'it32' icon at 128 px; Pillow writes PNG-typed entries (ic07…).
  if (iconTool === 'png2icns') execFileSync('png2icns', [icnsPath, pngPath], { stdio: 'pipe' });
  else execFileSync('/usr/bin/python3', ['-c', 'import sys; from PIL import Image; Image.open(sys.argv[1]).save(sys.argv[2])', pngPath, icnsPath]);

  const out = join(workDir, `mac-${plistFormat}.upload`);
  execFileSync('zip', ['-qr', out, 'Demo.app'], { cwd: root });
  return out;
}

describe('deb', () => {
  it.each(['xz', 'gzip', 'zstd'] as const)('when dpkg-deb builds with %s control compression, then package, versions and arch are read', async (compression) => {
    const path = await buildDeb(compression, '1:2.3.4-5');
    expect(await detectPackageFormat(path)).toBe('deb');
    const parsed = await parsePackage(path);
    expect(parsed).toMatchObject({
      format: 'deb',
      platform: 'Linux',
      deviceType: 'Linux',
      name: 'hangar-demo',
      bundleId: 'hangar-demo',
      releaseVersion: '2.3.4',
      buildVersion: '5',
    });
    expect(parsed.details).toMatchObject({ architecture: 'amd64', epoch: 1, summary: 'Hangar demo tool', version: '1:2.3.4-5' });
  });

  it('when a native package has no Debian revision, then the build version is "0"', async () => {
    const parsed = await parsePackage(await buildDeb('gzip', '7.0'));
    expect([parsed.releaseVersion, parsed.buildVersion]).toEqual(['7.0', '0']);
  });
});

describe('rpm', () => {
  it('when rpmbuild makes a package, then name, version, release and arch come from its header', async () => {
    const path = await buildRpm();
    expect(await detectPackageFormat(path)).toBe('rpm');
    const parsed = await parsePackage(path);
    expect(parsed).toMatchObject({
      format: 'rpm',
      platform: 'Linux',
      name: 'hangar-rpm-demo',
      bundleId: 'hangar-rpm-demo',
      releaseVersion: '3.1.4',
      buildVersion: '15',
    });
    expect(parsed.details).toMatchObject({ summary: 'Hangar rpm demo', architecture: 'noarch', license: 'MIT' });
  });

  it('when an rpm is cut inside its header, then PackageParseError', async () => {
    const path = await buildRpm();
    const truncated = join(workDir, 'truncated.rpm');
    await writeFile(truncated, execFileSync('head', ['-c', '200', path]));
    await expect(parsePackage(truncated)).rejects.toThrow(PackageParseError);
  });
});

describe('zipped macOS app', () => {
  it.each([
    ['xml', 'png2icns'],
    ['binary', 'pillow'],
  ] as const)('when Info.plist is %s and the icns comes from %s, then bundle id, versions, min OS and the icon are read', async (plistFormat, iconTool) => {
    const path = await buildAppZip(plistFormat, iconTool);
    expect(await detectPackageFormat(path)).toBe('app-zip');
    const parsed = await parsePackage(path);
    expect(parsed).toMatchObject({
      format: 'app-zip',
      platform: 'macOS',
      deviceType: 'macOS',
      name: 'Hangar Mac Demo',
      bundleId: 'com.example.hangar.mac',
      releaseVersion: '4.5.6',
      buildVersion: '789',
      minOsVersion: '11.0',
    });
    if (!parsed.icon) throw new Error('expected an icon from the icns');
    const icon = PNG.sync.read(parsed.icon);
    // Pillow also writes upscaled sizes up to 1024 px; the largest entry must be the one returned.
    expect(icon.width).toBe(iconTool === 'pillow' ? 1024 : ICON_SIDE);
    expect([...icon.data.subarray(0, 4)]).toEqual([...ICON_RGBA]);
  });
});
