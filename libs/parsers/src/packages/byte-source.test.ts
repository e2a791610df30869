import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, open, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectPackageFormat, PackageParseError, parsePackage, RandomAccessFile, type ByteSource } from './index';
import { fixturesDir } from '@hangar/testing';

const APPS = join(fixturesDir(), 'apps');
const FIXTURES = ['android.apk', 'wear.apk', 'tv.apk', 'iphone.ipa', 'ipad.ipa', 'embedded.ipa'];
const MiB = 1024 * 1024;
const FILLER = 200 * MiB;

/** A ByteSource over a local file that counts what the parser asked for. */
class CountingSource implements ByteSource {
  bytesRead = 0;
  reads = 0;
  closed = 0;
  private constructor(private readonly file: RandomAccessFile) {}

  static async open(path: string): Promise<CountingSource> {
    return new CountingSource(await RandomAccessFile.open(path, 'test'));
  }

  get size(): number {
    return this.file.size;
  }

  async read(offset: number, length: number): Promise<Buffer> {
    this.reads += 1;
    this.bytesRead += length;
    return this.file.read(offset, length);
  }

  async close(): Promise<void> {
    this.closed += 1;
    await this.file.close();
  }
}

let workDir: string;
let bigApk: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'hangar-byte-source-'));
  // The real android.apk with a 200 MB stored (uncompressed) member appended by zip(1): the
  // manifest, resources and icon stay where they were, the archive becomes ~68x larger.
  bigApk = join(workDir, 'big.apk');
  await copyFile(join(APPS, 'android.apk'), bigApk);
  const filler = join(workDir, 'assets', 'filler.bin');
  await mkdir(join(workDir, 'assets'));
  const handle = await open(filler, 'w');
  const zeros = Buffer.alloc(8 * MiB);
  for (let written = 0; written < FILLER; written += zeros.length) await handle.write(zeros);
  await handle.close();
  execFileSync('zip', ['-0', '-q', bigApk, 'assets/filler.bin'], { cwd: workDir, stdio: 'pipe' });
  await rm(filler);
});

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

describe('parsing from a ByteSource', () => {
  it.each(FIXTURES)('when %s is read through a ByteSource, then the result is the one from its path and the source is closed', async (file) => {
    const path = join(APPS, file);
    const fromPath = await parsePackage(path);

    const source = await CountingSource.open(path);
    const fromSource = await parsePackage(source);

    expect(fromSource).toEqual(fromPath);
    expect(source.closed).toBeGreaterThanOrEqual(1);
    expect(source.bytesRead).toBeGreaterThan(0);

    const detecting = await CountingSource.open(path);
    expect(await detectPackageFormat(detecting)).toBe(await detectPackageFormat(path));
    expect(detecting.closed).toBeGreaterThanOrEqual(1);
  });

  it('when an apk of 3 MB is parsed, then well under its size is read', async () => {
    const path = join(APPS, 'android.apk');
    const source = await CountingSource.open(path);
    await parsePackage(source);
    expect(source.bytesRead).toBeLessThan((await stat(path)).size);
  });

  it('when a non-zip package (deb) is read through a ByteSource, then the result is the one from its path', async () => {
    const root = join(workDir, 'deb');
    await mkdir(join(root, 'DEBIAN'), { recursive: true });
    await writeFile(
      join(root, 'DEBIAN/control'),
      ['Package: hangar-source-demo', 'Version: 1.2-3', 'Architecture: amd64', 'Maintainer: Hangar <hangar@example.com>', 'Description: demo', ''].join('\n'),
    );
    const deb = join(workDir, 'demo.deb');
    execFileSync('dpkg-deb', ['--root-owner-group', '--build', root, deb], { stdio: 'pipe' });

    const source = await CountingSource.open(deb);
    const parsed = await parsePackage(source);

    expect(parsed).toEqual(await parsePackage(deb));
    expect(parsed).toMatchObject({ format: 'deb', bundleId: 'hangar-source-demo', releaseVersion: '1.2', buildVersion: '3' });
    expect(source.closed).toBeGreaterThanOrEqual(1);
  });
});

describe('a large apk', () => {
  it('when a 200 MB apk is parsed, then it reads a few MiB at most and gives what the 3 MB apk gives', async () => {
    const smallSource = await CountingSource.open(join(APPS, 'android.apk'));
    const small = await parsePackage(smallSource);
    const source = await CountingSource.open(bigApk);
    expect(source.size).toBeGreaterThan(FILLER);

    const big = await parsePackage(source);

    // zip(1) rewrote the archive to add the filler, which drops the APK Signing Block before the
    // central directory (as any re-zip does: the v2 signature would no longer hold); v1 stays.
    const smallSigning = small.details['signing'] as { schemes: string[] };
    expect(smallSigning.schemes).toEqual(['v1', 'v2']);
    expect(big).toEqual({ ...small, details: { ...small.details, signing: { ...smallSigning, schemes: ['v1'] } } });
    expect(source.bytesRead).toBeLessThan(8 * MiB);
    // The same central directory walk and members as the small apk, plus the filler's one record.
    expect(source.bytesRead - smallSource.bytesRead).toBeLessThan(64 * 1024);
    expect(source.reads - smallSource.reads).toBeLessThan(10);
  });

  it('when a 200 MB apk is parsed from its path, then it reads a few MiB of it, as from a source', async () => {
    // Counted, not timed: a path is opened as a RandomAccessFile, so its reads are the bytes the
    // parser asked the disk for. A timed comparison failed on a loaded CI machine.
    const asked: number[] = [];
    const originalRead = RandomAccessFile.prototype.read;
    const read = jest.spyOn(RandomAccessFile.prototype, 'read').mockImplementation(function (this: RandomAccessFile, offset: number, length: number) {
      asked.push(length);
      return originalRead.call(this, offset, length);
    });
    try {
      await parsePackage(bigApk);
    } finally {
      read.mockRestore();
    }
    const total = asked.reduce((sum, length) => sum + length, 0);
    expect(asked.length).toBeGreaterThan(0);
    expect(total).toBeLessThan(8 * MiB);
  });
});

describe('when the source itself fails', () => {
  it('then its error passes through as it is (not a parse error) and the source is still closed', async () => {
    const file = await RandomAccessFile.open(join(APPS, 'android.apk'), 'test');
    const outage = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    let reads = 0;
    let closed = false;
    const failing: ByteSource = {
      size: file.size,
      read: async (offset, length) => {
        reads += 1;
        if (reads > 3) throw outage;
        return file.read(offset, length);
      },
      close: async () => {
        closed = true;
        await file.close();
      },
    };

    const error = await parsePackage(failing).catch((caught: unknown) => caught);

    expect(error).toBe(outage);
    expect(error).not.toBeInstanceOf(PackageParseError);
    expect(closed).toBe(true);
  });

  it('then a failure while a member is streamed passes through too', async () => {
    const file = await RandomAccessFile.open(join(APPS, 'android.apk'), 'test');
    const outage = Object.assign(new Error('read ETIMEDOUT'), { code: 'ETIMEDOUT' });
    const failing: ByteSource = {
      size: file.size,
      // The central directory sits at the end: fail only once a member's data is read.
      read: async (offset, length) => {
        if (offset < file.size - 256 * 1024 && length > 1024) throw outage;
        return file.read(offset, length);
      },
      close: () => file.close(),
    };

    await expect(parsePackage(failing)).rejects.toBe(outage);
  });
});
