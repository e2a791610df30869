import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { buildHfsPlusDisk, MAC_APP, wrapAsDmg, writeMacApp } from '../../test/mac-disk-image';
import { applePartitionMapLayout, CHUNK_TYPE, writeUdif, type UdifOptions, type WrittenChunk } from '../../test/udif-writer';
import { detectPackageFormat, PackageParseError, parsePackage, UnknownPackageError } from './index';

// The HFS+ volumes come from xorriso (-hfsplus), the Info.plist from Python's plistlib, the icon
// from png2icns; the test-side UDIF writer is checked against dmg2img before anything relies on it.

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let workDir: string;
let rootDisk: Buffer;
let nestedDisk: Buffer;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'hangar-dmg-'));
  rootDisk = await buildDisk('root', {});
  nestedDisk = await buildDisk('nested', { folder: 'Apps' });
});

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

async function buildDisk(name: string, layout: { folder?: string }): Promise<Buffer> {
  const root = join(workDir, name, 'volume');
  const scratch = join(workDir, name);
  await mkdir(root, { recursive: true });
  await writeMacApp(root, scratch, layout);
  return buildHfsPlusDisk(root, join(scratch, 'disk.img'));
}

async function save(name: string, bytes: Buffer): Promise<string> {
  const path = join(workDir, name);
  await writeFile(path, bytes);
  return path;
}

/** The start sector of the xorriso image's Apple_HFS partition, from its partition map. */
function hfsPartition(disk: Buffer): { firstSector: number; sectors: number } {
  const partition = applePartitionMapLayout(disk).find((entry) => entry.name.includes('(Apple_HFS '));
  if (!partition) throw new Error('xorriso wrote no Apple_HFS partition');
  return partition;
}

/** Edits the chunks of the HFS+ partition only (where the volume header and catalog are). */
function inHfsPartition(edit: (chunks: WrittenChunk[]) => void): UdifOptions {
  return { transformChunks: (partition, chunks) => partition.name.includes('(Apple_HFS ') && edit(chunks) };
}

function expectFooApp(parsed: Awaited<ReturnType<typeof parsePackage>>): void {
  expect(parsed).toMatchObject({
    format: 'dmg',
    platform: 'macOS',
    deviceType: 'macOS',
    name: MAC_APP.name,
    bundleId: MAC_APP.bundleId,
    releaseVersion: MAC_APP.releaseVersion,
    buildVersion: MAC_APP.buildVersion,
    minOsVersion: MAC_APP.minOsVersion,
  });
  expect(parsed.details).toMatchObject({ category: 'public.app-category.developer-tools', architectures: [] });
  if (!parsed.icon) throw new Error('expected an icon from AppIcon.icns');
  expect(parsed.icon.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  const icon = PNG.sync.read(parsed.icon);
  expect([icon.width, icon.height]).toEqual([MAC_APP.iconSide, MAC_APP.iconSide]);
  expect([...icon.data.subarray(0, 4)]).toEqual([...MAC_APP.iconRgba]);
}

describe('test-side UDIF writer', () => {
  it.each([8, 32, 4096])('when a disk is wrapped with %i-sector chunks, then dmg2img converts the .dmg back to the very same bytes', async (chunkSectors) => {
    const types = new Set<number>();
    const dmg = wrapAsDmg(rootDisk, { chunkSectors, transformChunks: (_, chunks) => chunks.forEach((chunk) => types.add(chunk.type)) });
    const dmgPath = await save(`faithful-${chunkSectors}.dmg`, dmg);
    const imgPath = join(workDir, `faithful-${chunkSectors}.img`);
    execFileSync('dmg2img', ['-s', dmgPath, imgPath], { stdio: 'pipe' });
    expect((await readFile(imgPath)).equals(rootDisk)).toBe(true);
    expect([...types].sort()).toEqual([CHUNK_TYPE.zero, CHUNK_TYPE.raw, CHUNK_TYPE.zlib].sort());
  });
});

describe('dmg with an HFS+ volume', () => {
  it('when the .app sits at the root of the volume, then bundle id, versions, name, platform and icon are read', async () => {
    const path = await save('root.dmg', wrapAsDmg(rootDisk));
    expect(await detectPackageFormat(path)).toBe('dmg');
    const parsed = await parsePackage(path);
    expectFooApp(parsed);
    expect(parsed.details.appPath).toBe('Foo.app');
  });

  it('when the .app sits one folder down, then it is found there', async () => {
    const parsed = await parsePackage(await save('nested.dmg', wrapAsDmg(nestedDisk)));
    expectFooApp(parsed);
    expect(parsed.details.appPath).toBe('Apps/Foo.app');
  });

  it('when the blkx names carry no partition types, then the volume is found through the Apple Partition Map', async () => {
    const sectors = rootDisk.length / 512;
    const dmg = writeUdif(rootDisk, [{ name: 'whole disk', firstSector: 0, sectors }]);
    expectFooApp(await parsePackage(await save('apm.dmg', dmg)));
  });

  it('when the volume spans the whole disk without a partition map, then it is read from sector 0', async () => {
    const { firstSector } = hfsPartition(rootDisk);
    // xorriso's HFS+ allocation blocks run past its partition into the ISO area: keep all of it.
    const volume = rootDisk.subarray(firstSector * 512);
    const dmg = writeUdif(volume, [{ name: 'whole disk', firstSector: 0, sectors: volume.length / 512 }]);
    expectFooApp(await parsePackage(await save('bare.dmg', dmg)));
  });
});

describe('dmg that cannot be read', () => {
  async function apfsHead(): Promise<Buffer> {
    const path = join(workDir, 'apfs.img');
    execFileSync('truncate', ['-s', '256M', path]);
    execFileSync('mkapfs', [path], { stdio: 'pipe' });
    // Only the container superblock at the start matters; 1 MiB keeps the .dmg small.
    const handle = await open(path, 'r');
    try {
      const head = Buffer.alloc(1024 * 1024);
      await handle.read(head, 0, head.length, 0);
      return head;
    } finally {
      await handle.close();
    }
  }

  it.each([
    ['named Apple_APFS by hdiutil', 'disk image (Apple_APFS : 4)'],
    ['found by its NXSB superblock', 'whole disk'],
  ])('when the volume is APFS (%s), then UnknownPackageError says APFS is not read', async (_, name) => {
    const disk = await apfsHead();
    const dmg = writeUdif(disk, [{ name, firstSector: 0, sectors: disk.length / 512 }]);
    const error = await parsePackage(await save('apfs.dmg', dmg)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnknownPackageError);
    expect((error as Error).message).toMatch(/APFS/);
  });

  it('when the chunks are LZFSE-compressed, then UnknownPackageError names the codec', async () => {
    const dmg = wrapAsDmg(rootDisk, inHfsPartition((chunks) => chunks.forEach((chunk) => { if (chunk.type === CHUNK_TYPE.zlib) chunk.type = CHUNK_TYPE.lzfse; })));
    const error = await parsePackage(await save('lzfse.dmg', dmg)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnknownPackageError);
    expect((error as Error).message).toMatch(/LZFSE/);
  });

  it('when the trailer is cut off, then the file is no package Hangar knows', async () => {
    const dmg = wrapAsDmg(rootDisk);
    const path = await save('cut-trailer.dmg', dmg.subarray(0, dmg.length - 100));
    expect(await detectPackageFormat(path)).toBeUndefined();
    await expect(parsePackage(path)).rejects.toThrow(UnknownPackageError);
  });

  it('when the data fork is cut but the trailer kept, then PackageParseError says the property list runs past the data', async () => {
    const dmg = wrapAsDmg(rootDisk);
    const path = await save('cut-middle.dmg', Buffer.concat([dmg.subarray(0, dmg.length - 4096), dmg.subarray(dmg.length - 512)]));
    await expect(parsePackage(path)).rejects.toThrow(/dmg: property list .* runs past/);
  });

  it('when a chunk points past the end of the file, then PackageParseError', async () => {
    const dmg = wrapAsDmg(rootDisk, inHfsPartition((chunks) => {
      const chunk = chunks.find((candidate) => candidate.type !== CHUNK_TYPE.zero);
      if (chunk) chunk.offsetOverride = 1e12;
    }));
    await expect(parsePackage(await save('past-end.dmg', dmg))).rejects.toThrow(/dmg: chunk \d+ of .* points past the data fork/);
  });

  it('when the trailer declares an absurd number of sectors, then PackageParseError', async () => {
    const dmg = wrapAsDmg(rootDisk, { kolySectorCount: 2n ** 50n });
    await expect(parsePackage(await save('sectors.dmg', dmg))).rejects.toThrow(/dmg: the trailer declares \d+ sectors, above the/);
  });

  it('when a chunk declares an absurd number of sectors, then PackageParseError', async () => {
    const huge = 2 ** 40;
    const sectors = rootDisk.length / 512;
    const tooBig = writeUdif(rootDisk, [{ name: 'whole disk', firstSector: 0, sectors }], {
      transformChunks: (_, chunks) => {
        const chunk = chunks.find((candidate) => candidate.type === CHUNK_TYPE.zlib);
        if (chunk) chunk.sectors = huge;
      },
    });
    await expect(parsePackage(await save('chunk-sectors.dmg', tooBig))).rejects.toThrow(/dmg: chunk \d+ of "whole disk" .* lies outside its \d+-sector partition/);
  });

  it('when a zlib chunk inflates far past its declared size (a bomb), then PackageParseError once the declared size is exceeded', async () => {
    const bomb = deflateSync(Buffer.alloc(64 * 1024 * 1024));
    const dmg = wrapAsDmg(rootDisk, { chunkSectors: 8, ...inHfsPartition((chunks) => {
      // The chunk holding the volume header (sector 2 of the partition) is read first.
      const chunk = chunks.find((candidate) => candidate.sector <= 2 && candidate.sector + candidate.sectors > 2);
      if (!chunk) throw new Error('no chunk holds the volume header');
      chunk.type = CHUNK_TYPE.zlib;
      chunk.data = bomb;
    }) });
    await expect(parsePackage(await save('bomb.dmg', dmg))).rejects.toThrow(/dmg: the chunk at sector \d+ inflates past its declared 4096 bytes/);
  });

  it('when a zlib chunk holds garbage, then PackageParseError', async () => {
    const dmg = wrapAsDmg(rootDisk, inHfsPartition((chunks) => {
      for (const chunk of chunks) if (chunk.type === CHUNK_TYPE.zlib) chunk.data = Buffer.alloc(chunk.data.length, 0x5a);
    }));
    await expect(parsePackage(await save('garbage.dmg', dmg))).rejects.toThrow(/dmg: the chunk at sector \d+ is not valid zlib data/);
  });

  it('when the HFS+ catalog is damaged, then PackageParseError, not a crash', async () => {
    const { firstSector } = hfsPartition(rootDisk);
    const damaged = Buffer.from(rootDisk);
    // Catalog fork, first extent: start block at offset 272 + 16 of the volume header.
    const header = firstSector * 512 + 1024;
    damaged.writeUInt32BE(0x7fffffff, header + 272 + 16);
    await expect(parsePackage(await save('catalog.dmg', wrapAsDmg(damaged)))).rejects.toThrow(PackageParseError);
  });
});
