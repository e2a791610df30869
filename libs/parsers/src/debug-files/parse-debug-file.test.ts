import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { DebugFileParseError, parseDebugFile, type DebugFileLimits, type ParsedDebugFile } from './index';
import { fixturesDir } from '@hangar/testing';

const FIXTURES = fixturesDir();
const SINGLE_DSYM = join(FIXTURES, 'dsyms/single_ios.dSYM.zip');
const MULTI_DSYM = join(FIXTURES, 'dsyms/multi_ios.dSYM.zip');
const FULL_MAPPING = join(FIXTURES, 'proguards/full_mapping.zip');
const SINGLE_MAPPING = join(FIXTURES, 'proguards/single_mapping.zip');
const EXPECTED = 'expected a zip of .dSYM bundles or a ProGuard mapping.txt';

let workDir: string;

beforeEach(() => {
  workDir = mkdtempSync(join(tmpdir(), 'hangar-debug-files-'));
});

afterEach(() => {
  rmSync(workDir, { recursive: true, force: true });
});

/** A copy of a fixture in this test's folder, as tests of other formats make their uploads there. */
function inWorkDir(fixture: string): string {
  const copy = join(workDir, basename(fixture));
  copyFileSync(fixture, copy);
  return copy;
}

/** Bytes of one member of a real archive, extracted with Info-ZIP's unzip. */
function extract(zipPath: string, member: string): Buffer {
  return execFileSync('unzip', ['-p', zipPath, member], { maxBuffer: 64 * 1024 * 1024 });
}

/**
 * Zips `files` (archive path -> content) with Info-ZIP's zip. `cwd` is relative to the staging
 * folder so names such as "../x" can be stored verbatim.
 */
function zipFiles(files: Record<string, Buffer | string>, options: { cwd?: string; level?: string } = {}): string {
  const staging = mkdtempSync(join(workDir, 'stage-'));
  const cwd = join(staging, options.cwd ?? '.');
  mkdirSync(cwd, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    const target = resolve(cwd, name);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  const out = join(mkdtempSync(join(workDir, 'zip-')), 'upload.zip');
  execFileSync('zip', ['-q', '-X', options.level ?? '-6', out, ...Object.keys(files)], { cwd });
  return out;
}

function dsymFiles(bundle: string, object: string, dwarf: Buffer, infoPlist?: Buffer): Record<string, Buffer> {
  const files: Record<string, Buffer> = { [`${bundle}/Contents/Resources/DWARF/${object}`]: dwarf };
  if (infoPlist) files[`${bundle}/Contents/Info.plist`] = infoPlist;
  return files;
}

function storableKeys(parsed: ParsedDebugFile): string[] {
  return parsed.entries.flatMap((entry) => Object.keys(entry.data)).filter((key) => key.includes('.') || key.startsWith('$'));
}

async function parseError(path: string, limits?: Partial<DebugFileLimits>): Promise<DebugFileParseError> {
  const error: unknown = await parseDebugFile(path, { limits }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DebugFileParseError);
  return error as DebugFileParseError;
}

describe('parseDebugFile on iOS dSYM archives', () => {
  it('when the zip holds one thin arm64 dSYM, then it reports that slice and the Info.plist identity', async () => {
    const parsed = await parseDebugFile(inWorkDir(SINGLE_DSYM));

    expect(parsed).toMatchObject({ kind: 'dsym', deviceType: 'ios', bundleId: 'com.icyleaf.iOS', releaseVersion: '1.0', buildVersion: '1' });
    expect(parsed.entries).toHaveLength(1);
    expect(parsed.entries[0]).toMatchObject({
      uuid: 'ea9bbf2d-bfdd-3ce0-85b2-1cbe7152fca5',
      type: 'arm64',
      object: 'iOS',
      size: extract(SINGLE_DSYM, 'ios.DSYM/Contents/Resources/DWARF/iOS').length,
    });
    expect(parsed.entries[0]!.data).toMatchObject({ dsym: 'ios.DSYM', bundle_id: 'com.icyleaf.iOS', build_version: '1' });
    expect(storableKeys(parsed)).toEqual([]);
  });

  it('when the zip holds a universal armv7+arm64 dSYM, then it reports both slices in header order', async () => {
    const parsed = await parseDebugFile(inWorkDir(MULTI_DSYM));
    const dwarfSize = extract(MULTI_DSYM, 'iOS.app.dSYM/Contents/Resources/DWARF/iOS').length;

    expect(parsed).toMatchObject({ kind: 'dsym', bundleId: 'com.icyleaf.iOS', releaseVersion: '1.0', buildVersion: '2' });
    expect(parsed.entries.map(({ type, uuid, object }) => ({ type, uuid, object }))).toEqual([
      { type: 'armv7', uuid: '26dfc15d-bdce-351f-b5de-6ee9f5dd6d85', object: 'iOS' },
      { type: 'arm64', uuid: '17f58291-dd25-3fc8-9417-ccbe8163d33e', object: 'iOS' },
    ]);
    for (const entry of parsed.entries) {
      expect(entry.size).toBeGreaterThan(0);
      expect((entry.data['offset'] as number) + entry.size).toBeLessThanOrEqual(dwarfSize);
    }
    expect(storableKeys(parsed)).toEqual([]);
  });

  it('when one zip holds two dSYM bundles, then it reports the slices of both and takes the identity from the first', async () => {
    const single = extract(SINGLE_DSYM, 'ios.DSYM/Contents/Resources/DWARF/iOS');
    const multi = extract(MULTI_DSYM, 'iOS.app.dSYM/Contents/Resources/DWARF/iOS');
    const upload = zipFiles({
      ...dsymFiles('Archive.xcarchive/dSYMs/App.app.dSYM', 'App', multi, extract(MULTI_DSYM, 'iOS.app.dSYM/Contents/Info.plist')),
      ...dsymFiles('Archive.xcarchive/dSYMs/Widget.appex.dSYM', 'Widget', single, extract(SINGLE_DSYM, 'ios.DSYM/Contents/Info.plist')),
    });

    const parsed = await parseDebugFile(upload);

    expect(parsed.buildVersion).toBe('2');
    expect(parsed.entries.map((entry) => [entry.object, entry.type, entry.data['build_version']])).toEqual([
      ['App', 'armv7', '2'],
      ['App', 'arm64', '2'],
      ['Widget', 'arm64', '1'],
    ]);
  });

  it('when macOS Finder added __MACOSX copies of the DWARF file, then they are ignored', async () => {
    const dwarf = extract(SINGLE_DSYM, 'ios.DSYM/Contents/Resources/DWARF/iOS');
    const upload = zipFiles({
      ...dsymFiles('App.dSYM', 'App', dwarf),
      '__MACOSX/App.dSYM/Contents/Resources/DWARF/._App': 'AppleDouble resource fork',
      'App.dSYM/Contents/Resources/DWARF/._App': 'AppleDouble resource fork',
    });

    const parsed = await parseDebugFile(upload);

    expect(parsed.entries.map((entry) => entry.object)).toEqual(['App']);
    expect(parsed.bundleId).toBeUndefined();
  });
});

describe('parseDebugFile on Android mapping archives', () => {
  it('when the zip holds mapping.txt, R.txt and a text AndroidManifest.xml, then it reports three files and the manifest identity', async () => {
    const parsed = await parseDebugFile(FULL_MAPPING);

    expect(parsed).toMatchObject({
      kind: 'proguard',
      deviceType: 'android',
      bundleId: 'com.icyleaf.appinfo',
      releaseVersion: '1.0',
      buildVersion: '1',
    });
    const byType = Object.fromEntries(parsed.entries.map((entry) => [entry.type, entry]));
    expect(Object.keys(byType).sort()).toEqual(['manifest', 'mapping', 'r_txt']);
    expect(byType['mapping']).toMatchObject({ object: 'mapping.txt', size: extract(FULL_MAPPING, 'mapping.txt').length });
    expect(byType['r_txt']).toMatchObject({ object: 'R.txt', size: extract(FULL_MAPPING, 'R.txt').length });
    expect(byType['manifest']).toMatchObject({ object: 'AndroidManifest.xml', size: extract(FULL_MAPPING, 'AndroidManifest.xml').length });
    // Known answer from Python's uuid module: uuid5(uuid5(NAMESPACE_DNS, 'guardsquare.com'), content).
    expect(new Set(parsed.entries.map((entry) => entry.uuid))).toEqual(new Set(['0a1f3400-8261-513d-88b7-2de2de6d4cae']));
    expect(storableKeys(parsed)).toEqual([]);
  });

  it('when the zip holds only mapping.txt, then it reports one mapping entry and no identity', async () => {
    const parsed = await parseDebugFile(SINGLE_MAPPING);

    expect(parsed.entries).toHaveLength(1);
    expect(parsed.entries[0]).toMatchObject({ type: 'mapping', object: 'mapping.txt' });
    expect(parsed.bundleId).toBeUndefined();
    expect(parsed.releaseVersion).toBeUndefined();
    expect(parsed.buildVersion).toBeUndefined();
  });

  it('when the same mapping content is zipped differently, then the id is the same', async () => {
    const mapping = extract(SINGLE_MAPPING, 'mapping.txt');
    const stored = zipFiles({ 'mapping.txt': mapping }, { level: '-0' });
    const nested = zipFiles({ 'app/build/outputs/mapping/release/mapping.txt': mapping }, { level: '-9' });

    const [a, b, fixture] = await Promise.all([parseDebugFile(stored), parseDebugFile(nested), parseDebugFile(SINGLE_MAPPING)]);

    expect(a.entries[0]!.uuid).toBe(fixture.entries[0]!.uuid);
    expect(b.entries[0]!.uuid).toBe(fixture.entries[0]!.uuid);
  });

  it('when one byte of the mapping changes, then the id changes', async () => {
    const mapping = extract(SINGLE_MAPPING, 'mapping.txt');
    const changed = Buffer.from(mapping);
    const middle = Math.floor(changed.length / 2);
    changed[middle] = changed[middle]! ^ 0x01;

    const original = await parseDebugFile(zipFiles({ 'mapping.txt': mapping }));
    const edited = await parseDebugFile(zipFiles({ 'mapping.txt': changed }));

    expect(edited.entries[0]!.uuid).not.toBe(original.entries[0]!.uuid);
    expect(edited.entries[0]!.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('when the AndroidManifest.xml is compiled binary XML, then it is listed without an identity', async () => {
    const upload = zipFiles({
      'mapping.txt': extract(SINGLE_MAPPING, 'mapping.txt'),
      'AndroidManifest.xml': extract(join(FIXTURES, 'apps/android.apk'), 'AndroidManifest.xml'),
    });

    const parsed = await parseDebugFile(upload);

    expect(parsed.entries.map((entry) => entry.type).sort()).toEqual(['manifest', 'mapping']);
    expect(parsed.bundleId).toBeUndefined();
    expect(parsed.buildVersion).toBeUndefined();
  });
});

describe('parseDebugFile rejections', () => {
  it('when the zip has neither dSYM DWARF files nor mapping.txt, then it says what was expected', async () => {
    const upload = zipFiles({ 'README.md': '# release notes', 'App.dSYM/Contents/Info.plist': '<plist/>' });

    const error = await parseError(upload);

    expect(error.message).toContain(EXPECTED);
  });

  it('when the file is not a zip, then it is rejected', async () => {
    const path = join(workDir, 'mapping.txt');
    writeFileSync(path, extract(SINGLE_MAPPING, 'mapping.txt'));

    const error = await parseError(path);

    expect(error.message).toContain(EXPECTED);
    expect(error.message).toContain('not a readable zip');
  });

  it('when the zip is cut short, then it is rejected', async () => {
    const whole = readFileSync(SINGLE_DSYM);
    const path = join(workDir, 'truncated.zip');
    writeFileSync(path, whole.subarray(0, Math.floor(whole.length / 2)));

    const error = await parseError(path);

    expect(error.message).toContain('not a readable zip');
  });

  it('when an entry name climbs out of the archive, then the whole archive is rejected', async () => {
    const upload = zipFiles(
      { 'mapping.txt': 'a -> b:\n', '../evil.txt': 'owned' },
      { cwd: 'inner' },
    );
    expect(execFileSync('unzip', ['-Z1', upload]).toString()).toContain('../evil.txt');

    const error = await parseError(upload);

    expect(error.message).toContain('../evil.txt');
  });

  it('when a thin DWARF file is cut inside its load commands, then it is rejected as truncated', async () => {
    const dwarf = extract(SINGLE_DSYM, 'ios.DSYM/Contents/Resources/DWARF/iOS');
    const upload = zipFiles(dsymFiles('App.dSYM', 'App', dwarf.subarray(0, 1024)));

    const error = await parseError(upload);

    expect(error.message).toMatch(/App\.dSYM\/Contents\/Resources\/DWARF\/App .*truncated/);
  });

  it('when a thin DWARF file keeps its load commands but loses its DWARF data, then it is rejected as truncated', async () => {
    const dwarf = extract(SINGLE_DSYM, 'ios.DSYM/Contents/Resources/DWARF/iOS');
    const upload = zipFiles(dsymFiles('App.dSYM', 'App', dwarf.subarray(0, Math.floor(dwarf.length / 2))));

    const error = await parseError(upload);

    expect(error.message).toContain('truncated: segment __DWARF');
  });

  it('when a universal DWARF file loses part of its last slice, then it is rejected as truncated', async () => {
    const dwarf = extract(MULTI_DSYM, 'iOS.app.dSYM/Contents/Resources/DWARF/iOS');
    const upload = zipFiles(dsymFiles('App.dSYM', 'App', dwarf.subarray(0, dwarf.length - 4096)));

    const error = await parseError(upload);

    expect(error.message).toMatch(/truncated: the arm64 slice/);
  });

  it('when the DWARF folder holds something that is not Mach-O, then it is rejected', async () => {
    const upload = zipFiles(dsymFiles('App.dSYM', 'App', extract(SINGLE_MAPPING, 'mapping.txt')));

    const error = await parseError(upload);

    expect(error.message).toContain('not a Mach-O file');
  });

  it('when the archive holds both a dSYM and a mapping.txt, then it is rejected', async () => {
    const upload = zipFiles({
      ...dsymFiles('App.dSYM', 'App', extract(SINGLE_DSYM, 'ios.DSYM/Contents/Resources/DWARF/iOS')),
      'mapping.txt': extract(SINGLE_MAPPING, 'mapping.txt'),
    });

    const error = await parseError(upload);

    expect(error.message).toContain('both dSYM bundles and a mapping.txt');
  });

  it('when an entry declares more bytes than the limit, then it is rejected before inflating', async () => {
    const error = await parseError(SINGLE_MAPPING, { maxEntryBytes: 1024 * 1024 });

    expect(error.message).toContain('mapping.txt declares');
  });

  it('when the archive lists more entries than the limit, then it is rejected', async () => {
    const error = await parseError(FULL_MAPPING, { maxEntries: 2 });

    expect(error.message).toContain('3 entries');
  });

  it('when a header understates how big the mapping is, then the extra bytes are caught', async () => {
    const bytes = readFileSync(zipFiles({ 'mapping.txt': extract(SINGLE_MAPPING, 'mapping.txt') }));
    // Shrink the uncompressed size in both the local and the central header, as a zip bomb would.
    for (const [signature, sizeOffset] of [[0x04034b50, 22], [0x02014b50, 24]] as const) {
      const marker = Buffer.alloc(4);
      marker.writeUInt32LE(signature);
      const at = bytes.indexOf(marker);
      expect(at).toBeGreaterThanOrEqual(0);
      bytes.writeUInt32LE(1000, at + sizeOffset);
    }
    const path = join(workDir, 'understated.zip');
    writeFileSync(path, bytes);

    const error = await parseError(path);

    expect(error.message).toContain('cannot read mapping.txt');
  });

  it('when the upload does not exist, then the I/O error passes through unchanged', async () => {
    const error: unknown = await parseDebugFile(join(workDir, 'missing.zip')).catch((caught: unknown) => caught);

    expect(error).not.toBeInstanceOf(DebugFileParseError);
    expect((error as NodeJS.ErrnoException).code).toBe('ENOENT');
  });
});
