import { execFileSync } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { applePartitionMapLayout, writeUdif, type UdifOptions } from './udif-writer';

// A macOS app on an HFS+ volume made by real tools: Python's plistlib writes Info.plist, libicns'
// png2icns the icon, xorriso the HFS+ volume (its -hfsplus hybrid image, with an Apple Partition
// Map), and udif-writer wraps the disk as a .dmg.

export const MAC_APP = {
  bundleId: 'com.example.hangar.dmg',
  name: 'Foo',
  releaseVersion: '2.7.1',
  buildVersion: '314',
  minOsVersion: '12.0',
  iconSide: 128,
  iconRgba: [200, 40, 90, 255],
} as const;

export interface MacAppLayout {
  /** Folder the .app sits in, relative to the volume root ('' for the root). */
  folder?: string;
}

/** Writes Foo.app (Info.plist, MacOS/Foo, Resources/AppIcon.icns) under `root`; `scratch` holds temporary files. */
export async function writeMacApp(root: string, scratch: string, layout: MacAppLayout = {}): Promise<void> {
  const contents = join(root, layout.folder ?? '', 'Foo.app/Contents');
  await mkdir(join(contents, 'MacOS'), { recursive: true });
  await mkdir(join(contents, 'Resources'), { recursive: true });
  const info = {
    CFBundleIdentifier: MAC_APP.bundleId,
    CFBundleName: MAC_APP.name,
    CFBundleShortVersionString: MAC_APP.releaseVersion,
    CFBundleVersion: MAC_APP.buildVersion,
    CFBundleExecutable: 'Foo',
    CFBundleIconFile: 'AppIcon',
    LSMinimumSystemVersion: MAC_APP.minOsVersion,
    LSApplicationCategoryType: 'public.app-category.developer-tools',
  };
  execFileSync('python3', ['-c', 'import json,plistlib,sys; plistlib.dump(json.loads(sys.argv[1]), open(sys.argv[2], "wb"))', JSON.stringify(info), join(contents, 'Info.plist')]);
  await writeFile(join(contents, 'MacOS/Foo'), '#!/bin/sh\necho foo\n', { mode: 0o755 });
  const png = new PNG({ width: MAC_APP.iconSide, height: MAC_APP.iconSide });
  for (let i = 0; i < png.data.length; i += 4) png.data.set(MAC_APP.iconRgba, i);
  const pngPath = join(scratch, 'icon.png');
  await writeFile(pngPath, PNG.sync.write(png));
  execFileSync('png2icns', [join(contents, 'Resources/AppIcon.icns'), pngPath], { stdio: 'pipe' });
  // What a real dmg has next to the app: a link to /Applications and a hidden background folder.
  await symlink('/Applications', join(root, 'Applications'));
  await mkdir(join(root, '.background'));
  await writeFile(join(root, '.background/readme.txt'), 'drag Foo to Applications\n');
}

/** xorriso's hybrid image with an HFS+ volume holding `root`; returns the raw disk image. */
export async function buildHfsPlusDisk(root: string, out: string): Promise<Buffer> {
  execFileSync('xorrisofs', ['-hfsplus', '-V', 'FOO', '-quiet', '-o', out, root], { stdio: 'pipe' });
  return readFile(out);
}

/** The disk as a .dmg, one blkx entry per Apple Partition Map entry as hdiutil names them. */
export function wrapAsDmg(disk: Buffer, options?: UdifOptions): Buffer {
  return writeUdif(disk, applePartitionMapLayout(disk), options);
}
