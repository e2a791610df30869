import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { detectPackageFormat, PackageParseError, parsePackage, UnknownPackageError } from './index';

// A type-2 AppImage made the way appimagetool does it: an ELF runtime (here a tiny C program built
// with gcc) with the "AI\x02" magic written into its ELF identification padding, followed by an
// AppDir packed with mksquashfs.
const ICON_RGBA = [10, 200, 30, 255];

let workDir: string;
let runtime: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'hangar-appimage-'));
  await writeFile(join(workDir, 'runtime.c'), 'int main(void) { return 0; }\n');
  runtime = join(workDir, 'runtime');
  execFileSync('gcc', ['-o', runtime, join(workDir, 'runtime.c')]);
  execFileSync('sh', ['-c', `printf 'AI\\002' | dd of="${runtime}" bs=1 seek=8 count=3 conv=notrunc status=none`]);
});

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

async function buildAppImage(tag: string, mksquashfsArgs: string[], version: string | undefined): Promise<string> {
  const appDir = join(workDir, `AppDir-${tag}`);
  await mkdir(join(appDir, 'usr/bin'), { recursive: true });
  await writeFile(
    join(appDir, 'org.example.HangarDemo.desktop'),
    [
      '[Desktop Entry]',
      'Type=Application',
      'Name=Hangar Demo',
      'Name[de]=Hangar Vorführung',
      'Exec=hangar-demo',
      'Icon=hangar-demo',
      'Categories=Utility;',
      ...(version ? [`X-AppImage-Version=${version}`] : []),
      '',
    ].join('\n'),
  );
  const png = new PNG({ width: 64, height: 64 });
  for (let i = 0; i < png.data.length; i += 4) png.data.set(ICON_RGBA, i);
  await writeFile(join(appDir, 'hangar-demo.png'), PNG.sync.write(png));
  await symlink('hangar-demo.png', join(appDir, '.DirIcon'));
  await writeFile(join(appDir, 'AppRun'), '#!/bin/sh\nexec "$(dirname "$0")/usr/bin/hangar-demo"\n', { mode: 0o755 });
  // Several blocks of incompressible data so the image has real data blocks, not just fragments.
  await writeFile(join(appDir, 'usr/bin/hangar-demo'), execFileSync('head', ['-c', String(600 * 1024), '/dev/urandom']));

  const image = join(workDir, `fs-${tag}.squashfs`);
  execFileSync('mksquashfs', [appDir, image, '-root-owned', '-noappend', '-quiet', ...mksquashfsArgs], { stdio: 'pipe' });
  const out = join(workDir, `${tag}.upload`);
  execFileSync('sh', ['-c', `cat "${runtime}" "${image}" > "${out}"`]);
  return out;
}

describe('AppImage', () => {
  it.each([
    ['gzip', ['-comp', 'gzip']],
    ['xz', ['-comp', 'xz']],
    ['zstd-no-fragments', ['-comp', 'zstd', '-no-fragments']],
  ])('when mksquashfs packs the AppDir with %s, then name, version, id and icon come from the desktop entry', async (tag, args) => {
    const path = await buildAppImage(tag, args, '1.8.0');
    expect(await detectPackageFormat(path)).toBe('appimage');
    const parsed = await parsePackage(path);
    expect(parsed).toMatchObject({
      format: 'appimage',
      platform: 'Linux',
      deviceType: 'Linux',
      name: 'Hangar Demo',
      bundleId: 'org.example.HangarDemo',
      releaseVersion: '1.8.0',
      buildVersion: '1.8.0',
    });
    expect(parsed.details).toMatchObject({ categories: ['Utility'] });
    if (!parsed.icon) throw new Error('expected the AppDir icon');
    const icon = PNG.sync.read(parsed.icon);
    expect([icon.width, ...icon.data.subarray(0, 4)]).toEqual([64, ...ICON_RGBA]);
  });

  it('when the desktop entry has no X-AppImage-Version, then UnknownPackageError so explicit versions can be used', async () => {
    await expect(parsePackage(await buildAppImage('unversioned', [], undefined))).rejects.toThrow(UnknownPackageError);
  });

  it('when the appended file system is cut off, then PackageParseError', async () => {
    const path = await buildAppImage('truncated', [], '1.0');
    const cut = join(workDir, 'cut.upload');
    execFileSync('sh', ['-c', `head -c $(( $(stat -c %s "${path}") - 4096 )) "${path}" > "${cut}"`]);
    await expect(parsePackage(cut)).rejects.toThrow(PackageParseError);
  });

  it('when an ELF has no AppImage magic, then it is not taken for an AppImage', async () => {
    expect(await detectPackageFormat('/bin/true')).toBeUndefined();
  });
});
