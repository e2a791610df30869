import { machoArchitectures, MACHO_HEAD_BYTES } from '../formats/macho.reader';
import { labelled, type PositionalReader, type SourceReader } from './byte-source';
import { HfsPlusVolume, ROOT_FOLDER_ID, type CatalogEntry } from './hfsplus-reader';
import { largestIcnsPng } from './icns';
import { PackageParseError, UnknownPackageError } from './package.errors';
import type { ParsedPackage, ParseOptions } from './package.types';
import { macAppInfo } from './mac-app-info';
import { MAX_PROFILE_BYTES, readMobileProvision, type ProvisioningProfile } from './mobileprovision';
import { readPlist } from './plist-reader';
import { SECTOR, UdifImage } from './udif-reader';

const MAX_ICON_BYTES = 16 * 1024 * 1024;
// Folders at the root looked into for a nested .app (installers put the app one level down).
const MAX_NESTED_FOLDERS = 32;
const MAX_APM_ENTRIES = 64;
const APFS_GUID = '7C3457EF-0000-11AA-AA11-00306543ECAC';

/**
 * A UDIF disk image (.dmg): the koly trailer and blkx chunk tables give a random-access view of
 * the disk (`udif-reader.ts`); the HFS+ volume on it (`hfsplus-reader.ts`) holds the .app bundle,
 * read like a zipped one: Contents/Info.plist, the Mach-O head of the executable, the .icns icon.
 * APFS volumes and codecs without a maintained decoder (LZFSE, LZMA, bzip2, ADC) are refused
 * with UnknownPackageError, so an upload can still go through with explicit versions.
 */
export async function parseDmg(source: SourceReader, options: Required<ParseOptions>): Promise<ParsedPackage> {
  return labelled(source, 'dmg', async (file) => {
    const image = await UdifImage.open(file);
    const volume = await HfsPlusVolume.open(image, await findHfsVolume(image));
    const app = await findApp(volume);
    if (!app) throw new PackageParseError('dmg: no *.app/Contents/Info.plist on the volume (at the root or one folder down)');
    const info = readPlist(await volume.readFile(app.infoPlist, options.maxEntrySize), 'dmg Info.plist');

    const { fields, details, executable, iconFile } = macAppInfo(info, `dmg: ${app.path}/Contents/Info.plist`);
    const profile = await readProfile(volume, app.contents);
    return {
      format: 'dmg',
      ...fields,
      icon: await readIcon(volume, app.contents, iconFile),
      details: {
        appPath: app.path,
        architectures: executable ? await readArchitectures(volume, app.contents, executable) : [],
        ...details,
        ...(profile ? { provisioning: profile.summary, signing: profile.signing } : {}),
      },
    };
  });
}

/** Contents/embedded.provisionprofile, as in a zipped .app (app-zip.parser.ts). */
async function readProfile(volume: HfsPlusVolume, contents: CatalogEntry): Promise<ProvisioningProfile | undefined> {
  const entry = await volume.child(contents.id, 'embedded.provisionprofile');
  if (entry?.kind !== 'file' || entry.symlink) return undefined;
  try {
    return readMobileProvision(await volume.readFile(entry, MAX_PROFILE_BYTES));
  } catch (error) {
    // An unreadable or oversized profile should not hide the app's name and version.
    if (error instanceof PackageParseError || error instanceof UnknownPackageError) return undefined;
    throw error;
  }
}

/**
 * Where the HFS+ volume starts on the disk: the partition hdiutil named Apple_HFS/Apple_HFSX in
 * the blkx list, else a volume spanning the whole disk, else an Apple Partition Map entry.
 */
async function findHfsVolume(image: UdifImage): Promise<number> {
  const named = image.partitions.filter((partition) => /\bApple_HFSX?\b/.test(partition.name)).map((partition) => partition.firstSector * SECTOR);
  if (named.length === 0 && image.partitions.some((partition) => partition.name.includes('Apple_APFS') || partition.name.toUpperCase().includes(APFS_GUID))) {
    throw apfsRefused();
  }
  const candidates = [...named, 0, ...(await applePartitionMapVolumes(image))];
  let sawApfs = false;
  for (const base of new Set(candidates)) {
    const kind = await HfsPlusVolume.probe(image, base);
    if (kind === 'hfs+') return base;
    if (kind === 'apfs') sawApfs = true;
    if (kind === 'hfs') throw new UnknownPackageError('dmg: the volume is HFS (Mac OS Standard), which is not read; give release_version and build_version');
  }
  if (sawApfs) throw apfsRefused();
  throw new UnknownPackageError('dmg: no HFS+ volume in the image (only HFS+ and HFSX are read); give release_version and build_version');
}

function apfsRefused(): UnknownPackageError {
  return new UnknownPackageError('dmg: the image holds an APFS volume, which Hangar does not read (only HFS+); give release_version and build_version, or build the dmg with -fs HFS+');
}

/** Starts of Apple_HFS/Apple_HFSX partitions in an Apple Partition Map (block 0 'ER', entries 'PM'). */
async function applePartitionMapVolumes(disk: PositionalReader): Promise<number[]> {
  if (disk.size < 1024) return [];
  const ddr = await disk.read(0, 4);
  if (ddr.toString('latin1', 0, 2) !== 'ER') return [];
  const blockSize = ddr.readUInt16BE(2) || SECTOR;
  if (blockSize % SECTOR !== 0 || blockSize > 4096) return [];
  const starts: number[] = [];
  for (let index = 1; index <= MAX_APM_ENTRIES && (index + 1) * blockSize <= disk.size; index++) {
    const entry = await disk.read(index * blockSize, 80);
    if (entry.toString('latin1', 0, 2) !== 'PM') break;
    const type = entry.toString('latin1', 48, 80).replace(/\0.*$/s, '');
    if (type === 'Apple_HFS' || type === 'Apple_HFSX') starts.push(entry.readUInt32BE(8) * blockSize);
    if (index >= entry.readUInt32BE(4)) break;
  }
  return starts;
}

interface FoundApp {
  path: string;
  contents: CatalogEntry;
  infoPlist: CatalogEntry;
}

async function findApp(volume: HfsPlusVolume): Promise<FoundApp | undefined> {
  const root = await volume.list(ROOT_FOLDER_ID);
  for (const entry of root) {
    const app = await asApp(volume, entry, entry.name);
    if (app) return app;
  }
  const folders = root.filter((entry) => entry.kind === 'folder' && !/^[.\0]/.test(entry.name)).slice(0, MAX_NESTED_FOLDERS);
  for (const folder of folders) {
    for (const entry of await volume.list(folder.id)) {
      const app = await asApp(volume, entry, `${folder.name}/${entry.name}`);
      if (app) return app;
    }
  }
  return undefined;
}

async function asApp(volume: HfsPlusVolume, entry: CatalogEntry, path: string): Promise<FoundApp | undefined> {
  if (entry.kind !== 'folder' || !entry.name.toLowerCase().endsWith('.app')) return undefined;
  const contents = await volume.child(entry.id, 'Contents');
  if (contents?.kind !== 'folder') return undefined;
  const infoPlist = await volume.child(contents.id, 'Info.plist');
  return infoPlist?.kind === 'file' ? { path, contents, infoPlist } : undefined;
}

async function readArchitectures(volume: HfsPlusVolume, contents: CatalogEntry, executable: string): Promise<string[]> {
  const macos = await volume.child(contents.id, 'MacOS');
  const binary = macos?.kind === 'folder' ? await volume.child(macos.id, executable) : undefined;
  if (binary?.kind !== 'file' || binary.symlink) return [];
  return machoArchitectures(await volume.readHead(binary, MACHO_HEAD_BYTES));
}

async function readIcon(volume: HfsPlusVolume, contents: CatalogEntry, iconFile: string | undefined): Promise<Buffer | undefined> {
  if (!iconFile) return undefined;
  const resources = await volume.child(contents.id, 'Resources');
  if (resources?.kind !== 'folder') return undefined;
  // CFBundleIconFile may omit the extension.
  const entry = (await volume.child(resources.id, iconFile)) ?? (await volume.child(resources.id, `${iconFile}.icns`));
  if (entry?.kind !== 'file') return undefined;
  try {
    return largestIcnsPng(await volume.readFile(entry, MAX_ICON_BYTES));
  } catch (error) {
    // An unreadable icon should not hide the app's name and version.
    if (error instanceof PackageParseError || error instanceof UnknownPackageError) return undefined;
    throw error;
  }
}
