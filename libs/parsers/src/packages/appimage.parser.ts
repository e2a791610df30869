import { isPng } from './cgbi';
import { PackageParseError, UnknownPackageError } from './package.errors';
import type { ParsedPackage, ParseOptions } from './package.types';
import { labelled, type PositionalReader, type SourceReader } from './byte-source';
import { SquashFs, type SquashEntry } from './squashfs-reader';

const ELF_MACHINES: Record<number, string> = { 3: 'i386', 62: 'x86_64', 40: 'armhf', 183: 'aarch64' };

/**
 * A type-2 AppImage: an ELF runtime with a squashfs appended right after the ELF's last byte (the
 * end of its section header table, as the runtime itself computes it). The metadata is the root
 * .desktop entry (Name, X-AppImage-Version) and the icon it names or .DirIcon.
 */
export async function parseAppImage(source: SourceReader, options: Required<ParseOptions>): Promise<ParsedPackage> {
  return labelled(source, 'appimage', async (file) => {
    const { offset, architecture } = await elfEnd(file);
    const fs = await SquashFs.open(file, offset, options.maxEntrySize);
    const root = await fs.listRoot();
    const desktopEntry = root.find((entry) => entry.name.endsWith('.desktop'));
    if (!desktopEntry) throw new PackageParseError('appimage: no .desktop file at the root of the image');
    const desktop = parseDesktopEntry((await fs.readFile(desktopEntry, root)).toString('utf8'));
    const name = desktop.get('Name');
    const version = desktop.get('X-AppImage-Version');
    if (!name) throw new PackageParseError(`appimage: ${desktopEntry.name} has no Name`);
    if (!version) {
      throw new UnknownPackageError(`appimage: ${desktopEntry.name} has no X-AppImage-Version; give release_version and build_version`);
    }
    return {
      format: 'appimage' as const,
      platform: 'Linux' as const,
      deviceType: 'Linux',
      name,
      bundleId: desktopEntry.name.replace(/\.desktop$/, ''),
      releaseVersion: version,
      // AppImages carry a single version string; it serves as both.
      buildVersion: version,
      icon: await readIcon(fs, root, desktop.get('Icon')),
      details: {
        architecture,
        categories: desktop.get('Categories')?.split(';').filter(Boolean),
        comment: desktop.get('Comment'),
        exec: desktop.get('Exec'),
      },
    };
  });
}

async function elfEnd(file: PositionalReader): Promise<{ offset: number; architecture?: string }> {
  const ident = await file.read(0, 64);
  const is64 = ident[4] === 2;
  const little = ident[5] === 1;
  const u16 = (at: number): number => (little ? ident.readUInt16LE(at) : ident.readUInt16BE(at));
  const u32 = (at: number): number => (little ? ident.readUInt32LE(at) : ident.readUInt32BE(at));
  const u64 = (at: number): number => Number(little ? ident.readBigUInt64LE(at) : ident.readBigUInt64BE(at));
  const machine = u16(18);
  const shoff = is64 ? u64(40) : u32(32);
  const shentsize = is64 ? u16(58) : u16(46);
  const shnum = is64 ? u16(60) : u16(48);
  const offset = shoff + shentsize * shnum;
  if (offset <= 0 || offset >= file.size) throw new PackageParseError('appimage: no file system after the ELF runtime');
  return { offset, architecture: ELF_MACHINES[machine] };
}

/** The [Desktop Entry] group of a freedesktop .desktop file; untranslated keys only. */
export function parseDesktopEntry(text: string): Map<string, string> {
  const values = new Map<string, string>();
  let inEntry = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      inEntry = line === '[Desktop Entry]';
      continue;
    }
    const eq = line.indexOf('=');
    if (!inEntry || eq <= 0 || line.startsWith('#')) continue;
    const key = line.slice(0, eq).trim();
    if (!values.has(key)) values.set(key, line.slice(eq + 1).trim());
  }
  return values;
}

async function readIcon(fs: SquashFs, root: SquashEntry[], iconName: string | undefined): Promise<Buffer | undefined> {
  const candidates = [iconName && `${iconName}.png`, iconName, '.DirIcon'].filter((name): name is string => Boolean(name));
  for (const name of candidates) {
    const entry = root.find((item) => item.name === name);
    if (!entry) continue;
    try {
      const data = await fs.readFile(entry, root);
      if (isPng(data)) return data;
    } catch (error) {
      // An unreadable icon should not hide the app's name and version.
      if (!(error instanceof PackageParseError)) throw error;
    }
  }
  return undefined;
}
