import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { build as buildPlist } from 'plist';
import { BufferByteSource, MUTATION_KINDS, type Mutation, mutate, settleWithin, storedZip, fixturesDir } from '@hangar/testing';
import { buildHfsPlusDisk, wrapAsDmg, writeMacApp } from '../../test/mac-disk-image';
import { couldBePackage, detectPackageFormat, PackageParseError, PACKAGE_HEAD_BYTES, parsePackage, UnknownPackageError, type ParsedPackage } from './index';

// Hostile input, property-based: whatever bytes arrive, every package parser either
// answers with a well-formed ParsedPackage or rejects with PackageParseError / UnknownPackageError
// — never another error type, never a hang, and the source is always closed. The seeds are real
// packages (the shared fixtures, plus one per other format made with that format's own tool) so
// mutations reach deep into each parser instead of stopping at the magic bytes. The fixed-case
// corrupt-input tests (corrupt-input.test.ts) stay as they are; this file covers the space
// between them.

const APPS = join(fixturesDir(), 'apps');
const FORMATS = new Set(['ipa', 'apk', 'aab', 'app-zip', 'dmg', 'exe', 'msi', 'deb', 'rpm', 'appimage']);
/** Far above any honest parse of these seeds (a few ms to ~100 ms); a parse past it is a hang. */
const HANG_MS = 10_000;
const FRAMEWORK = '/usr/share/android-framework-res/framework-res.apk';

let workDir: string;
const seeds = new Map<string, Buffer>();
/** Members of real packages that their parsers decode by hand (plists, binary XML, protobuf). */
const members = new Map<string, { layout: Array<{ name: string; data: Buffer }>; target: string }>();

const sh = (file: string, args: string[], cwd?: string) => execFileSync(file, args, { stdio: 'pipe', cwd });

async function buildDeb(): Promise<Buffer> {
  const root = join(workDir, 'deb');
  await mkdir(join(root, 'DEBIAN'), { recursive: true });
  await writeFile(join(root, 'DEBIAN/control'), 'Package: hostile-demo\nVersion: 1:2.3.4-5\nArchitecture: amd64\nMaintainer: T <t@example.com>\nDescription: demo\n');
  sh('dpkg-deb', ['--root-owner-group', '-Zgzip', '--build', root, join(workDir, 'demo.deb')]);
  return readFile(join(workDir, 'demo.deb'));
}

async function buildRpm(): Promise<Buffer> {
  const top = join(workDir, 'rpm');
  await mkdir(join(top, 'SPECS'), { recursive: true });
  await writeFile(join(top, 'SPECS/demo.spec'), 'Name: hostile-rpm\nVersion: 3.1.4\nRelease: 15\nSummary: demo\nLicense: MIT\nBuildArch: noarch\n%description\ndemo\n%files\n');
  sh('rpmbuild', ['-bb', '--nodeps', '--define', `_topdir ${top}`, join(top, 'SPECS/demo.spec')]);
  const [file] = await readdir(join(top, 'RPMS/noarch'));
  return readFile(join(top, 'RPMS/noarch', file!));
}

async function buildExe(): Promise<Buffer> {
  await writeFile(join(workDir, 'main.c'), 'int main(void) { return 0; }\n');
  await writeFile(
    join(workDir, 'version.rc'),
    '1 VERSIONINFO\nFILEVERSION 2,7,1,1234\nPRODUCTVERSION 2,7,1,0\nBEGIN\n BLOCK "StringFileInfo"\n BEGIN\n  BLOCK "040904B0"\n  BEGIN\n' +
      '   VALUE "ProductName", "Hostile Demo"\n   VALUE "ProductVersion", "2.7.1"\n   VALUE "FileVersion", "2.7.1.1234"\n  END\n END\n' +
      ' BLOCK "VarFileInfo"\n BEGIN\n  VALUE "Translation", 0x409, 1200\n END\nEND\n',
  );
  sh('x86_64-w64-mingw32-windres', [join(workDir, 'version.rc'), '-O', 'coff', '-o', join(workDir, 'version.o')]);
  sh('x86_64-w64-mingw32-gcc', ['-o', join(workDir, 'demo.exe'), join(workDir, 'main.c'), join(workDir, 'version.o')]);
  return readFile(join(workDir, 'demo.exe'));
}

async function buildMsi(): Promise<Buffer> {
  await writeFile(join(workDir, 'readme.txt'), 'demo\n');
  await writeFile(
    join(workDir, 'demo.wxs'),
    `<?xml version="1.0" encoding="utf-8"?>
<Wix xmlns="http://schemas.microsoft.com/wix/2006/wi">
  <Product Id="8A3F6C57-5E8B-4F3A-9C62-2A1F5C0D7E11" Name="Hostile MSI" Language="1033" Version="5.4.321"
           Manufacturer="T" UpgradeCode="3C1E5B7A-9D2F-4E60-8B4A-6F0D2C9E1A55">
    <Package InstallerVersion="200" Compressed="yes"/>
    <Media Id="1" Cabinet="demo.cab" EmbedCab="yes"/>
    <Directory Id="TARGETDIR" Name="SourceDir"><Directory Id="ProgramFilesFolder"><Directory Id="INSTALLDIR" Name="HostileDemo">
      <Component Id="MainFile" Guid="0B7C8D9E-1F2A-4B3C-8D4E-5F6A7B8C9D0E"><File Id="ReadMe" Name="readme.txt" Source="readme.txt"/></Component>
    </Directory></Directory></Directory>
    <Feature Id="Main" Level="1"><ComponentRef Id="MainFile"/></Feature>
  </Product>
</Wix>
`,
  );
  sh('wixl', ['-o', join(workDir, 'demo.msi'), join(workDir, 'demo.wxs')], workDir);
  return readFile(join(workDir, 'demo.msi'));
}

async function buildAppImage(): Promise<Buffer> {
  await writeFile(join(workDir, 'runtime.c'), 'int main(void) { return 0; }\n');
  const runtime = join(workDir, 'runtime');
  sh('gcc', ['-o', runtime, join(workDir, 'runtime.c')]);
  const elf = await readFile(runtime);
  elf.write('AI\x02', 8, 'latin1');
  const appDir = join(workDir, 'AppDir');
  await mkdir(appDir, { recursive: true });
  await writeFile(join(appDir, 'hostile.desktop'), '[Desktop Entry]\nType=Application\nName=Hostile\nExec=hostile\nIcon=hostile\nX-AppImage-Version=1.2.3\n');
  await writeFile(join(appDir, 'AppRun'), '#!/bin/sh\n', { mode: 0o755 });
  const image = join(workDir, 'fs.squashfs');
  sh('mksquashfs', [appDir, image, '-root-owned', '-noappend', '-quiet', '-comp', 'gzip']);
  return Buffer.concat([elf, await readFile(image)]);
}

async function buildAppZip(): Promise<Buffer> {
  const stage = join(workDir, 'mac');
  await mkdir(join(stage, 'Hostile.app/Contents/MacOS'), { recursive: true });
  const info = { CFBundleIdentifier: 'com.example.hostile', CFBundleName: 'Hostile', CFBundleShortVersionString: '4.5.6', CFBundleVersion: '456', CFBundleExecutable: 'Hostile' };
  await writeFile(join(stage, 'Hostile.app/Contents/Info.plist'), buildPlist(info));
  // A thin x86_64 Mach-O header is all the parser reads of the executable.
  const macho = Buffer.alloc(64);
  macho.writeUInt32LE(0xfeedfacf, 0);
  macho.writeUInt32LE(0x01000007, 4);
  await writeFile(join(stage, 'Hostile.app/Contents/MacOS/Hostile'), macho);
  sh('zip', ['-qr', join(workDir, 'mac.zip'), 'Hostile.app'], stage);
  return readFile(join(workDir, 'mac.zip'));
}

async function buildAab(): Promise<Buffer> {
  const src = join(workDir, 'aab');
  await mkdir(join(src, 'res/values'), { recursive: true });
  await writeFile(
    join(src, 'AndroidManifest.xml'),
    `<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.hostile" android:versionCode="42" android:versionName="3.2.1">
  <uses-sdk android:minSdkVersion="21" android:targetSdkVersion="33"/>
  <application android:label="@string/app_name"/>
</manifest>
`,
  );
  await writeFile(join(src, 'res/values/strings.xml'), '<resources><string name="app_name">Hostile</string></resources>');
  sh('aapt2', ['compile', '--dir', join(src, 'res'), '-o', join(src, 'compiled.zip')]);
  sh('aapt2', ['link', '--proto-format', '-I', FRAMEWORK, '--manifest', join(src, 'AndroidManifest.xml'), '-o', join(src, 'linked.zip'), join(src, 'compiled.zip')]);
  const stage = join(src, 'stage');
  await mkdir(join(stage, 'base/manifest'), { recursive: true });
  sh('unzip', ['-q', join(src, 'linked.zip'), '-d', join(stage, 'base')]);
  await rename(join(stage, 'base/AndroidManifest.xml'), join(stage, 'base/manifest/AndroidManifest.xml'));
  sh('zip', ['-qr', join(workDir, 'demo.aab'), 'base'], stage);
  return readFile(join(workDir, 'demo.aab'));
}

/** xorriso's HFS+ volume as a .dmg of raw chunks, so mutations land in the HFS+ structures themselves. */
async function buildDmg(): Promise<Buffer> {
  const volume = join(workDir, 'dmg/volume');
  await mkdir(volume, { recursive: true });
  await writeMacApp(volume, join(workDir, 'dmg'));
  return wrapAsDmg(await buildHfsPlusDisk(volume, join(workDir, 'dmg/disk.img')), { rawEvery: 1 });
}

/** The named members of a zip, read with unzip(1) (a reader independent of ours). */
function unzipMember(zip: string, name: string): Buffer {
  return execFileSync('unzip', ['-p', zip, name], { maxBuffer: 64 * 1024 * 1024 });
}

beforeAll(async () => {
  // app-info-parser reports every chunk it skips with console.debug; damaged manifests have many.
  // xmldom reports damaged plists and profiles with console.error/warn before throwing.
  for (const method of ['debug', 'warn', 'error'] as const) jest.spyOn(console, method).mockImplementation(() => undefined);
  workDir = await mkdtemp(join(tmpdir(), 'hangar-hostile-parsers-'));
  for (const file of ['iphone.ipa', 'ipad.ipa', 'embedded.ipa', 'android.apk', 'wear.apk']) seeds.set(file, await readFile(join(APPS, file)));
  const built = await Promise.all([buildDeb(), buildRpm(), buildExe(), buildMsi(), buildAppImage(), buildAppZip(), buildAab(), buildDmg()]);
  ['demo.deb', 'demo.rpm', 'demo.exe', 'demo.msi', 'demo.AppImage', 'mac.zip', 'demo.aab', 'demo.dmg'].forEach((name, i) => seeds.set(name, built[i]!));
  await writeFile(join(workDir, 'demo.aab'), seeds.get('demo.aab')!);

  // Layouts whose one hand-decoded member is fuzzed; the rest is kept so detection still succeeds.
  const ipa = join(APPS, 'iphone.ipa');
  members.set('ipa Info.plist (binary)', {
    target: 'Payload/AppInfoDemo.app/Info.plist',
    layout: [
      { name: 'Payload/AppInfoDemo.app/Info.plist', data: unzipMember(ipa, 'Payload/AppInfoDemo.app/Info.plist') },
      { name: 'Payload/AppInfoDemo.app/embedded.mobileprovision', data: unzipMember(ipa, 'Payload/AppInfoDemo.app/embedded.mobileprovision') },
    ],
  });
  members.set('ipa embedded.mobileprovision', { ...members.get('ipa Info.plist (binary)')!, target: 'Payload/AppInfoDemo.app/embedded.mobileprovision' });
  const apk = join(APPS, 'android.apk');
  members.set('apk AndroidManifest.xml', {
    target: 'AndroidManifest.xml',
    layout: [
      { name: 'AndroidManifest.xml', data: unzipMember(apk, 'AndroidManifest.xml') },
      { name: 'resources.arsc', data: unzipMember(apk, 'resources.arsc') },
      { name: 'classes.dex', data: Buffer.from('dex\n035\0') },
    ],
  });
  members.set('apk resources.arsc', { ...members.get('apk AndroidManifest.xml')!, target: 'resources.arsc' });
  members.set('apk v1 signature (CMS)', {
    target: 'META-INF/CERT.RSA',
    layout: [...members.get('apk AndroidManifest.xml')!.layout, { name: 'META-INF/CERT.RSA', data: unzipMember(apk, 'META-INF/CERT.RSA') }],
  });
  const aab = join(workDir, 'demo.aab');
  members.set('aab proto manifest', {
    target: 'base/manifest/AndroidManifest.xml',
    layout: [
      { name: 'base/manifest/AndroidManifest.xml', data: unzipMember(aab, 'base/manifest/AndroidManifest.xml') },
      { name: 'base/resources.pb', data: unzipMember(aab, 'base/resources.pb') },
    ],
  });
  members.set('aab resources.pb', { ...members.get('aab proto manifest')!, target: 'base/resources.pb' });
}, 90_000);

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

/** A package parse came back with the contract's shape: strings where strings belong, JSON-safe details. */
function assertWellFormed(parsed: ParsedPackage): void {
  expect(FORMATS.has(parsed.format)).toBe(true);
  for (const key of ['platform', 'deviceType', 'name', 'bundleId', 'releaseVersion', 'buildVersion'] as const) expect(typeof parsed[key]).toBe('string');
  for (const key of ['minOsVersion', 'releaseType'] as const) expect(['string', 'undefined']).toContain(typeof parsed[key]);
  if (parsed.icon !== undefined) expect(Buffer.isBuffer(parsed.icon)).toBe(true);
  const json = JSON.stringify(parsed.details);
  expect(JSON.parse(json)).toEqual(parsed.details);
  // Keys walked, not matched in the JSON text: a string value may hold escaped JSON with dots.
  expect(unstorableKeys(parsed.details)).toEqual([]);
}

function unstorableKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(unstorableKeys);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => [...(key.includes('.') || key.startsWith('$') ? [key] : []), ...unstorableKeys(item)]);
}

/** parsePackage and detectPackageFormat over `bytes`: only the two parse errors, no hang, source closed. */
async function checkPackageBytes(bytes: Buffer): Promise<void> {
  const source = new BufferByteSource(bytes);
  const parsed = await settleWithin(parsePackage(source), HANG_MS);
  if (parsed.kind === 'hang') throw new Error(`parsePackage did not settle in ${HANG_MS} ms`);
  if (parsed.kind === 'error' && !(parsed.error instanceof PackageParseError || parsed.error instanceof UnknownPackageError)) {
    throw new Error(`parsePackage threw ${String((parsed.error as Error)?.name)}: ${String((parsed.error as Error)?.message)}`);
  }
  if (parsed.kind === 'error') expect((parsed.error as Error).message.length).toBeGreaterThan(0);
  if (parsed.kind === 'value') assertWellFormed(parsed.value);
  expect(source.closes).toBeGreaterThanOrEqual(1);

  const detectSource = new BufferByteSource(bytes);
  const detected = await settleWithin(detectPackageFormat(detectSource), HANG_MS);
  if (detected.kind === 'hang') throw new Error(`detectPackageFormat did not settle in ${HANG_MS} ms`);
  if (detected.kind === 'error' && !(detected.error instanceof PackageParseError)) {
    throw new Error(`detectPackageFormat threw ${String((detected.error as Error)?.name)}: ${String((detected.error as Error)?.message)}`);
  }
  if (detected.kind === 'value' && detected.value !== undefined) expect(FORMATS.has(detected.value)).toBe(true);
  expect(detectSource.closes).toBeGreaterThanOrEqual(1);
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom(...MUTATION_KINDS),
  at: fc.nat(),
  region: fc.constantFrom('head', 'tail', 'anywhere'),
  span: fc.nat(),
  noise: fc.array(fc.nat({ max: 255 }), { minLength: 1, maxLength: 64 }),
});

// Replays are printed with their seed on failure; the run count keeps the file under ~40 s on 2 cores.
const runs = (numRuns: number): fc.Parameters<unknown> => ({ numRuns, interruptAfterTimeLimit: 25_000, markInterruptAsFailure: false });

// Info.plist values of every plist type where strings are expected, huge strings, deep nesting.
const plistScalar = fc.oneof(
  fc.string({ maxLength: 64 }),
  fc.string({ unit: 'grapheme', maxLength: 32 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }),
  fc.uint8Array({ maxLength: 32 }).map((a) => Buffer.from(a)),
);
const { plistValue } = fc.letrec((tie) => ({
  plistValue: fc.oneof({ depthSize: 'small', withCrossShrink: true }, plistScalar, fc.array(tie('plistValue'), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 12 }), tie('plistValue'), { maxKeys: 4, noNullPrototype: true })),
}));
describe('package parsers on hostile bytes (property-based)', () => {
  it('when the bytes are arbitrary (optionally behind a real magic number), then only the two parse errors come back', async () => {
    const magics = ['', 'PK\x03\x04', 'PK\x05\x06', '!<arch>\ndebian-binary   ', '\xed\xab\xee\xdb', '\x7fELF\x02\x01\x01\x00AI\x02', 'MZ', '\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1', 'bplist00'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...magics), fc.uint8Array({ maxLength: 4096 }), fc.boolean(), async (magic, body, kolyTrailer) => {
        const parts = [Buffer.from(magic, 'latin1'), Buffer.from(body)];
        // The UDIF trailer is found from the end: put one 512 bytes before it.
        if (kolyTrailer) parts.push(Buffer.from('koly', 'latin1'), Buffer.alloc(508, 7));
        await checkPackageBytes(Buffer.concat(parts));
      }),
      runs(300),
    );
  });

  it('when a real package of any format is damaged (bit flips, truncation, overwritten or copied blocks, duplicated directory entries), then only the two parse errors come back', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...seeds.keys()), fc.array(mutation, { minLength: 1, maxLength: 3 }), async (seed, mutations) => {
        let bytes = seeds.get(seed)!;
        for (const m of mutations) bytes = mutate(bytes, m);
        await checkPackageBytes(bytes);
      }),
      runs(250),
    );
  });

  it('when the one member a parser decodes by hand (plist, binary XML, protobuf, profile) is damaged, then only the two parse errors come back', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...members.keys()), fc.array(mutation, { minLength: 1, maxLength: 3 }), async (key, mutations) => {
        const { layout, target } = members.get(key)!;
        const zip = storedZip(
          layout.map((member) => {
            if (member.name !== target) return member;
            let data = member.data;
            for (const m of mutations) data = mutate(data, m);
            return { name: member.name, data };
          }),
        );
        await checkPackageBytes(zip);
      }),
      runs(250),
    );
  });

  const INFO_KEYS = ['CFBundleIdentifier', 'CFBundleVersion', 'CFBundleShortVersionString', 'CFBundleName', 'CFBundleDisplayName', 'CFBundleExecutable', 'MinimumOSVersion', 'UIDeviceFamily', 'CFBundleIcons', 'CFBundleIconFiles', 'CFBundleIconFile', 'LSMinimumSystemVersion', 'NSHumanReadableCopyright'];

  it('when Info.plist values have absurd types and shapes, then an ipa or macOS app parses to strings or is refused with PackageParseError', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('Payload/Demo.app/', 'Demo.app/Contents/'),
        fc.dictionary(fc.constantFrom(...INFO_KEYS), plistValue, { maxKeys: INFO_KEYS.length, noNullPrototype: true }),
        fc.boolean(),
        async (dir, info, withId) => {
          const dict: Record<string, unknown> = withId ? { CFBundleIdentifier: 'com.example.absurd', ...info } : info;
          const xml = buildPlist(dict as Parameters<typeof buildPlist>[0]);
          const names = [`${dir}Info.plist`, ...(typeof dict.CFBundleExecutable === 'string' ? [`${dir}${dir.includes('Contents') ? 'MacOS/' : ''}${dict.CFBundleExecutable}`] : [])];
          await checkPackageBytes(storedZip(names.map((name, i) => ({ name, data: i === 0 ? xml : Buffer.from('not mach-o') }))));
        },
      ),
      runs(200),
    );
  });

  it('when Info.plist holds a multi-MB string or dicts nested thousands deep, then the parse settles with a value or a PackageParseError', async () => {
    const huge = `<?xml version="1.0"?><plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.huge</string><key>CFBundleVersion</key><string>${'9'.repeat(8 * 1024 * 1024)}</string></dict></plist>`;
    const deep = `<?xml version="1.0"?><plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.deep</string><key>X</key>${'<dict><key>a</key>'.repeat(20_000)}<string/>${'</dict>'.repeat(20_000)}</dict></plist>`;
    for (const plist of [huge, deep]) await checkPackageBytes(storedZip([{ name: 'Payload/Demo.app/Info.plist', data: plist }]));
  });
});

/** The zip with `block` inserted just before its central directory, as an APK Signing Block sits. */
function withBlockBeforeCentralDirectory(zip: Buffer, block: Buffer): Buffer {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const cd = zip.readUInt32LE(eocd + 16);
  const out = Buffer.concat([zip.subarray(0, cd), block, zip.subarray(cd)]);
  out.writeUInt32LE(cd + block.length, eocd + block.length + 16);
  return out;
}

/** A real CMS SignedData over `plist`, signed by a fresh self-signed certificate (openssl). */
function signedProfile(plist: string, days = 1): { profile: Buffer; certificate: Buffer } {
  const dir = join(workDir, `cms-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir, { recursive: true });
  sh('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=Hostile Signer/O=Hangar Tests', '-days', String(days), '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')]);
  const certificate = sh('openssl', ['x509', '-in', join(dir, 'cert.pem'), '-outform', 'DER']);
  const signed = execFileSync('openssl', ['cms', '-sign', '-binary', '-nodetach', '-outform', 'DER', '-signer', join(dir, 'cert.pem'), '-inkey', join(dir, 'key.pem')], { input: plist, maxBuffer: 64 * 1024 * 1024 });
  return { profile: signed, certificate };
}

describe('the leading-bytes check of teardown uploads (couldBePackage)', () => {
  it('when the head of a real package of any format is shown, then it could be a package; text, zeros and random media cannot', () => {
    for (const [name, bytes] of seeds) expect({ name, ok: couldBePackage(bytes.subarray(0, PACKAGE_HEAD_BYTES)) }).toEqual({ name, ok: true });
    expect(couldBePackage(Buffer.alloc(PACKAGE_HEAD_BYTES))).toBe(false);
    expect(couldBePackage(Buffer.from('not a package at all '.repeat(100)))).toBe(false);
    expect(couldBePackage(Buffer.concat([Buffer.from('\x00\x00\x00\x18ftypmp42', 'latin1'), Buffer.alloc(2000, 1)]))).toBe(false);
  });
});

describe('signing details on hostile input', () => {
  const ipaWithProfile = (profile: Buffer) =>
    storedZip([
      { name: 'Payload/Demo.app/Info.plist', data: buildPlist({ CFBundleIdentifier: 'com.example.signed', CFBundleVersion: '1' }) },
      { name: 'Payload/Demo.app/embedded.mobileprovision', data: profile },
    ]);

  it('when a signed profile lists 100,000 devices and absurd dates, then the answer is bounded: the count, the first 200 UDIDs, no dates', async () => {
    const devices = Array.from({ length: 100_000 }, (_, i) => `<string>${i.toString(16).padStart(40, '0')}</string>`).join('');
    const plist = `<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>Name</key><string>Huge</string>` +
      `<key>CreationDate</key><date>0001-01-01T00:00:00Z</date><key>ExpirationDate</key><date>99999-12-31T00:00:00Z</date>` +
      `<key>ProvisionedDevices</key><array>${devices}</array><key>Entitlements</key><dict><key>get-task-allow</key><false/></dict></dict></plist>`;
    const { profile } = signedProfile(plist);
    const started = Date.now();
    const parsed = await parsePackage(new BufferByteSource(ipaWithProfile(profile)));
    // A bound against a hang or a quadratic walk (minutes at this size), not a speed target:
    // at 8 s it failed on a machine loaded with another suite (10.8–12.9 s seen, 2026-11-27).
    expect(Date.now() - started).toBeLessThan(HANG_MS * 3);
    assertWellFormed(parsed);
    const signing = parsed.details['signing'] as { profile: Record<string, unknown> };
    expect(signing.profile).toMatchObject({ type: 'ad_hoc', devicesCount: 100_000, devicesTruncated: true });
    expect(signing.profile['devices']).toHaveLength(200);
    expect(signing.profile['createdAt']).toBeUndefined();
    expect(signing.profile['expiresAt']).toBeUndefined();
    expect(JSON.stringify(parsed.details).length).toBeLessThan(64 * 1024);
  });

  // Profile plists of every shape: devices of any type and number, dates anywhere, certificates
  // that are not certificates, entitlements of any value. Signed for real, so the CMS is genuine.
  const profileDict = fc.record({
    ProvisionedDevices: fc.oneof(fc.array(fc.string({ maxLength: 50 }), { maxLength: 400 }), fc.array(plistValue, { maxLength: 5 }), plistValue),
    CreationDate: fc.oneof(fc.date({ noInvalidDate: true }), plistValue),
    ExpirationDate: fc.oneof(fc.date({ noInvalidDate: true }), plistValue),
    TeamIdentifier: plistValue,
    DeveloperCertificates: fc.oneof(fc.array(fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)), { maxLength: 30 }), plistValue),
    Entitlements: fc.oneof(fc.dictionary(fc.string({ maxLength: 40 }), plistValue, { maxKeys: 300, noNullPrototype: true }), plistValue),
    ProvisionsAllDevices: plistValue,
    Platform: plistValue,
  }, { requiredKeys: [], noNullPrototype: true });

  it('when a profile has any shape of devices, dates, certificates and entitlements, then the package parses with bounded, JSON-safe signing details', async () => {
    const { certificate } = signedProfile('<plist/>');
    await fc.assert(
      fc.asyncProperty(profileDict, fc.boolean(), async (dict, realCertificate) => {
        const withCertificate = realCertificate ? { ...dict, DeveloperCertificates: [certificate] } : dict;
        const xml = buildPlist(withCertificate as Parameters<typeof buildPlist>[0]);
        // The CMS envelope is Apple's; the parser only needs the plist inside, so wrap it in noise.
        const profile = Buffer.concat([Buffer.from([0x30, 0x80, 0x06, 0x09]), Buffer.from(xml), Buffer.from([0, 0])]);
        const bytes = ipaWithProfile(profile);
        await checkPackageBytes(bytes);
        const parsed = await parsePackage(new BufferByteSource(bytes));
        const signing = parsed.details['signing'] as { certificates: unknown[]; profile?: { devices: unknown[]; entitlements: unknown[] } } | undefined;
        if (signing?.profile) {
          expect(signing.profile.devices.length).toBeLessThanOrEqual(200);
          expect(signing.profile.entitlements.length).toBeLessThanOrEqual(100);
        }
        if (signing) expect(signing.certificates.length).toBeLessThanOrEqual(20);
      }),
      runs(60),
    );
  });

  it('when an apk carries an APK Signing Block of any bytes, then the apk parses or is refused with a parse error, and its scheme list stays sane', async () => {
    const apk = storedZip(members.get('apk AndroidManifest.xml')!.layout);
    const magic = Buffer.from('APK Sig Block 42', 'latin1');
    const pair = fc.record({ id: fc.constantFrom(0x7109871a, 0xf05368c0, 0x1b93ad61, 0x42726577, 0), value: fc.uint8Array({ maxLength: 512 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(pair, { maxLength: 4 }), fc.integer({ min: -64, max: 64 }), async (pairs, sizeSkew) => {
        const body = Buffer.concat(pairs.map(({ id, value }) => {
          const head = Buffer.alloc(12);
          head.writeBigUInt64LE(BigInt(value.length + 4));
          head.writeUInt32LE(id >>> 0, 8);
          return Buffer.concat([head, Buffer.from(value)]);
        }));
        const size = BigInt(Math.max(0, body.length + 24 + sizeSkew));
        const sizeField = Buffer.alloc(8);
        sizeField.writeBigUInt64LE(size);
        const bytes = withBlockBeforeCentralDirectory(apk, Buffer.concat([sizeField, body, sizeField, magic]));
        await checkPackageBytes(bytes);
        const parsed = await parsePackage(new BufferByteSource(bytes)).catch(() => undefined);
        const schemes = (parsed?.details['signing'] as { schemes: string[] } | undefined)?.schemes ?? [];
        expect(schemes.every((s) => ['v1', 'v2', 'v3', 'v3.1'].includes(s))).toBe(true);
      }),
      runs(200),
    );
  });
});

describe('regressions the properties found', () => {
  const apkWith = (manifest: Buffer, resources: Buffer) =>
    storedZip([
      { name: 'AndroidManifest.xml', data: manifest },
      { name: 'resources.arsc', data: resources },
      { name: 'classes.dex', data: Buffer.from('dex\n035\0') },
    ]);
  const realMember = (name: string) => members.get('apk AndroidManifest.xml')!.layout.find((m) => m.name === name)!.data;

  // app-info-parser's binary-XML loop sets `cursor = chunk start + chunkSize`: size 0 spun forever
  // (synchronously, freezing the releases service that hosts the parsing workers).
  it('when a binary-XML chunk of AndroidManifest.xml declares size 0, then PackageParseError at once instead of an endless loop', async () => {
    const manifest = Buffer.from(realMember('AndroidManifest.xml'));
    manifest.writeUInt32LE(0, 8 + 4); // the string pool, first chunk after the XML header
    const started = Date.now();
    await expect(parsePackage(new BufferByteSource(apkWith(manifest, realMember('resources.arsc'))))).rejects.toThrow(/AndroidManifest\.xml.*declares 0 bytes/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  // A 16 MB CFBundleVersion parsed, and the reply overflowed the worker's NATS message: the
  // releases service died of the unhandled error. Absurdly long fields are now a parse error.
  it('when Info.plist has a multi-MB CFBundleVersion, then PackageParseError names the field', async () => {
    const plist = buildPlist({ CFBundleIdentifier: 'com.example.huge', CFBundleVersion: '9'.repeat(4 * 1024 * 1024) });
    await expect(parsePackage(new BufferByteSource(storedZip([{ name: 'Payload/Demo.app/Info.plist', data: plist }])))).rejects.toThrow(/buildVersion is 4194304 characters/);
  });

  // Its resource-table loop does the same with `offset = pos + size`: a second string pool of size
  // 0 is skipped without moving on. The table is now ignored (labels stay unresolved), promptly.
  it('when resources.arsc has a chunk that never advances, then the apk still parses, without its label, promptly', async () => {
    const table = Buffer.from(realMember('resources.arsc'));
    const firstChunk = table.readUInt16LE(2);
    const second = firstChunk + table.readUInt32LE(firstChunk + 4);
    table.writeUInt16LE(0x0001, second); // a second string pool...
    table.writeUInt32LE(0, second + 4); // ...of size 0
    const started = Date.now();
    const parsed = await parsePackage(new BufferByteSource(apkWith(realMember('AndroidManifest.xml'), table)));
    expect(parsed.bundleId).toBe('com.icyleaf.appinfodemo');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
