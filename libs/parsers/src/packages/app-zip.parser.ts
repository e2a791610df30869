import { machoArchitectures, MACHO_HEAD_BYTES } from '../formats/macho.reader';
import { largestIcnsPng } from './icns';
import { PackageParseError } from './package.errors';
import type { ParsedPackage } from './package.types';
import { macAppInfo } from './mac-app-info';
import { readEmbeddedProfile } from './mobileprovision';
import { readPlist } from './plist-reader';
import type { ZipArchive } from './zip-reader';
import { findMacAppDir } from './zip-layout';

const MAX_ICON_BYTES = 16 * 1024 * 1024;

/** A zipped macOS .app bundle (what `ditto -c -k --keepParent` or Finder's Compress makes). */
export async function parseAppZip(zip: ZipArchive): Promise<ParsedPackage> {
  const appDir = findMacAppDir(zip.names());
  if (!appDir) throw new PackageParseError('app-zip: no *.app/Contents/Info.plist');
  const contents = `${appDir}Contents/`;
  const info = readPlist(await zip.read(`${contents}Info.plist`), 'app-zip Info.plist');

  const { fields, details, executable, iconFile } = macAppInfo(info, 'app-zip: Info.plist');
  const executablePath = executable ? `${contents}MacOS/${executable}` : undefined;
  const architectures = executablePath && zip.has(executablePath)
    ? await machoArchitectures(await zip.readHead(executablePath, MACHO_HEAD_BYTES))
    : [];

  // Mac App Store and development builds embed their profile here; Developer ID builds often have none.
  const profile = await readEmbeddedProfile(zip, `${contents}embedded.provisionprofile`);

  return {
    format: 'app-zip',
    ...fields,
    icon: await readIcon(zip, contents, iconFile),
    details: { architectures, ...details, ...(profile ? { provisioning: profile.summary, signing: profile.signing } : {}) },
  };
}

async function readIcon(zip: ZipArchive, contents: string, iconFile: string | undefined): Promise<Buffer | undefined> {
  if (!iconFile) return undefined;
  // CFBundleIconFile may omit the extension.
  const base = `${contents}Resources/${iconFile}`;
  const path = [base, `${base}.icns`].find((candidate) => zip.has(candidate));
  if (!path) return undefined;
  const entry = zip.entries.find((item) => item.name === path);
  if (!entry || entry.uncompressedSize > MAX_ICON_BYTES) return undefined;
  return largestIcnsPng(await zip.read(path));
}
