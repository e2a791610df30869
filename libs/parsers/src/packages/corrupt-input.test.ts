import { execFileSync } from 'node:child_process';
import { copyFile, mkdtemp, open, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectPackageFormat, PackageParseError, parsePackage, UnknownPackageError } from './index';
import { fixturesDir } from '@hangar/testing';

const APPS = join(fixturesDir(), 'apps');

let workDir: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'hangar-corrupt-'));
});

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

/** Builds a zip with Python's zipfile, which (unlike zip(1)) keeps hostile names as given. */
function pythonZip(target: string, members: Array<{ name: string; zeros?: number; text?: string }>): void {
  const script = [
    'import sys, json, zipfile',
    'members = json.loads(sys.argv[2])',
    'with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:',
    '    for m in members:',
    '        z.writestr(zipfile.ZipInfo(m["name"]), m.get("text", "").encode() or bytes(m.get("zeros", 0)), zipfile.ZIP_DEFLATED)',
  ].join('\n');
  execFileSync('python3', ['-c', script, target, JSON.stringify(members)]);
}

async function truncatedCopy(file: string): Promise<string> {
  const target = join(workDir, `truncated-${file}`);
  await copyFile(join(APPS, file), target);
  const { size } = await stat(target);
  await truncate(target, Math.floor(size / 2));
  return target;
}

describe('corrupt and hostile input', () => {
  it.each(['iphone.ipa', 'android.apk'])('when %s is cut in half, then a PackageParseError says the archive is broken', async (file) => {
    const path = await truncatedCopy(file);
    await expect(parsePackage(path)).rejects.toThrow(PackageParseError);
    await expect(parsePackage(path)).rejects.toThrow(/corrupt or truncated/);
  });

  it('when a zip entry declares more than the size limit, then it is refused before inflating', async () => {
    const path = join(workDir, 'bomb.apk');
    // 100 MiB of zeros deflates to about 100 KiB: a classic bomb shape, above the 64 MiB default.
    pythonZip(path, [{ name: 'AndroidManifest.xml', zeros: 100 * 1024 * 1024 }, { name: 'classes.dex', text: 'dex' }]);
    const before = process.memoryUsage().rss;
    await expect(parsePackage(path)).rejects.toThrow(/AndroidManifest\.xml.*above the 67108864-byte limit/);
    expect(process.memoryUsage().rss - before).toBeLessThan(50 * 1024 * 1024);
  });

  it('when a caller lowers maxEntrySize, then a real package with a bigger entry is refused', async () => {
    await expect(parsePackage(join(APPS, 'android.apk'), { maxEntrySize: 1024 })).rejects.toThrow(PackageParseError);
  });

  it('when an entry lies about its size in the central directory, then inflating stops with a PackageParseError', async () => {
    const path = join(workDir, 'liar.apk');
    pythonZip(path, [{ name: 'AndroidManifest.xml', zeros: 4 * 1024 * 1024 }, { name: 'classes.dex', text: 'dex' }]);
    // Patch the manifest's uncompressed size in the central directory record to a tiny value.
    const data = await readFile(path);
    const central = data.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    data.writeUInt32LE(100, central + 24);
    const local = data.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    data.writeUInt32LE(100, local + 22);
    await writeFile(path, data);
    await expect(parsePackage(path)).rejects.toThrow(PackageParseError);
  });

  it('when an entry name climbs out with ../, then the archive is refused as a path traversal', async () => {
    const path = join(workDir, 'traversal.ipa');
    pythonZip(path, [
      { name: 'Payload/Evil.app/Info.plist', text: '<plist><dict/></plist>' },
      { name: 'Payload/Evil.app/../../../etc/passwd', text: 'x' },
    ]);
    await expect(parsePackage(path)).rejects.toThrow(/invalid relative path/);
    await expect(detectPackageFormat(path)).rejects.toThrow(PackageParseError);
  });

  it('when the bytes are no known format, then UnknownPackageError and detection says undefined', async () => {
    const path = join(workDir, 'noise.ipa');
    await writeFile(path, Buffer.from('this is plain text pretending to be an ipa by its name\n'.repeat(20)));
    expect(await detectPackageFormat(path)).toBeUndefined();
    await expect(parsePackage(path)).rejects.toThrow(UnknownPackageError);
  });

  it('when the file is empty, then UnknownPackageError', async () => {
    const path = join(workDir, 'empty.apk');
    await writeFile(path, '');
    await expect(parsePackage(path)).rejects.toThrow(UnknownPackageError);
  });

  it('when a valid zip holds no app layout, then UnknownPackageError', async () => {
    const path = join(workDir, 'docs.zip');
    pythonZip(path, [{ name: 'README.txt', text: 'hello' }]);
    expect(await detectPackageFormat(path)).toBeUndefined();
    await expect(parsePackage(path)).rejects.toThrow(UnknownPackageError);
  });

  it('when an ipa has a broken Info.plist, then PackageParseError names the plist', async () => {
    const path = join(workDir, 'badplist.ipa');
    pythonZip(path, [{ name: 'Payload/Bad.app/Info.plist', text: 'bplist00 garbage' }]);
    await expect(parsePackage(path)).rejects.toThrow(/Info\.plist/);
    await expect(parsePackage(path)).rejects.toThrow(PackageParseError);
  });

  it('when the zip magic is followed by garbage, then PackageParseError rather than a crash', async () => {
    const path = join(workDir, 'garbage.zip');
    const handle = await open(path, 'w');
    await handle.write(Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(4096, 0x41)]));
    await handle.close();
    await expect(parsePackage(path)).rejects.toThrow(PackageParseError);
  });
});
