import { machoArchitectures, MACHO_HEAD_BYTES } from '../formats/macho.reader';
import { normalizePng } from './cgbi';
import { readEmbeddedProfile } from './mobileprovision';
import type { ParsedPackage } from './package.types';
import { PackageParseError } from './package.errors';
import { plistArray, plistDict, plistString, readPlist, type PlistDict } from './plist-reader';
import type { ZipArchive } from './zip-reader';
import { findIpaAppDir } from './zip-layout';

// Icons are small; anything bigger than this is not worth holding in memory as an icon.
const MAX_ICON_BYTES = 4 * 1024 * 1024;

export async function parseIpa(zip: ZipArchive): Promise<ParsedPackage> {
  const names = zip.names();
  const appDir = findIpaAppDir(names);
  if (!appDir) throw new PackageParseError('ipa: no Payload/*.app/Info.plist');
  const info = readPlist(await zip.read(`${appDir}Info.plist`), 'ipa Info.plist');

  const bundleId = plistString(info, 'CFBundleIdentifier');
  if (!bundleId) throw new PackageParseError('ipa: Info.plist has no CFBundleIdentifier');

  const profile = await readEmbeddedProfile(zip, `${appDir}embedded.mobileprovision`);

  const executable = plistString(info, 'CFBundleExecutable');
  const architectures = executable && zip.has(appDir + executable)
    ? await machoArchitectures(await zip.readHead(appDir + executable, MACHO_HEAD_BYTES))
    : [];

  return {
    format: 'ipa',
    platform: 'iOS',
    deviceType: iosDeviceType(info),
    name: plistString(info, 'CFBundleDisplayName') ?? plistString(info, 'CFBundleName') ?? executable ?? bundleId,
    bundleId,
    releaseVersion: plistString(info, 'CFBundleShortVersionString') ?? '',
    buildVersion: plistString(info, 'CFBundleVersion') ?? '',
    minOsVersion: plistString(info, 'MinimumOSVersion'),
    releaseType: profile?.releaseType,
    icon: await findIcon(zip, appDir, info),
    details: {
      architectures,
      provisioning: profile?.summary,
      signing: profile?.signing,
      extensions: await readExtensions(zip, appDir, names),
      frameworks: frameworkNames(appDir, names),
    },
  };
}

function iosDeviceType(info: PlistDict): string {
  const families = new Set(plistArray(info, 'UIDeviceFamily').map(Number));
  if (families.has(1) && families.has(2)) return 'Universal';
  if (families.has(2)) return 'iPad';
  if (families.has(3)) return 'AppleTV';
  if (families.has(4)) return 'Watch';
  return 'iPhone';
}

/** Icon base names, as Info.plist lists them: "AppIcon60x60" stands for AppIcon60x60@2x.png etc. */
function iconBaseNames(info: PlistDict): string[] {
  const names: string[] = [];
  for (const key of ['CFBundleIcons', 'CFBundleIcons~ipad']) {
    const primary = plistDict(plistDict(info, key) ?? {}, 'CFBundlePrimaryIcon');
    if (primary) names.push(...plistArray(primary, 'CFBundleIconFiles').filter((n): n is string => typeof n === 'string'));
  }
  names.push(...plistArray(info, 'CFBundleIconFiles').filter((n): n is string => typeof n === 'string'));
  const single = plistString(info, 'CFBundleIconFile');
  if (single) names.push(single);
  return names.map((name) => name.replace(/\.png$/i, ''));
}

async function findIcon(zip: ZipArchive, appDir: string, info: PlistDict): Promise<Buffer | undefined> {
  const bases = iconBaseNames(info);
  const pngs = zip.entries.filter((entry) => {
    if (!entry.name.startsWith(appDir) || !/\.png$/i.test(entry.name)) return false;
    const file = entry.name.slice(appDir.length);
    return !file.includes('/') && entry.uncompressedSize <= MAX_ICON_BYTES;
  });
  let candidates = pngs.filter((entry) => bases.some((base) => entry.name.slice(appDir.length).startsWith(base)));
  if (candidates.length === 0) candidates = pngs.filter((entry) => /^(AppIcon|Icon)/i.test(entry.name.slice(appDir.length)));
  // The biggest file is the highest resolution; fall back to smaller ones if it cannot be restored.
  candidates.sort((a, b) => b.uncompressedSize - a.uncompressedSize);
  for (const candidate of candidates.slice(0, 5)) {
    const png = normalizePng(await zip.read(candidate.name));
    if (png) return png;
  }
  return undefined;
}

async function readExtensions(zip: ZipArchive, appDir: string, names: string[]): Promise<Array<{ bundleId?: string; name?: string }>> {
  const pattern = new RegExp(`^${escapeRegExp(appDir)}PlugIns/([^/]+\\.appex)/Info\\.plist$`);
  const extensions: Array<{ bundleId?: string; name?: string }> = [];
  for (const name of names.filter((n) => pattern.test(n))) {
    try {
      const plist = readPlist(await zip.read(name), 'ipa extension Info.plist');
      extensions.push({
        bundleId: plistString(plist, 'CFBundleIdentifier'),
        name: plistString(plist, 'CFBundleDisplayName') ?? plistString(plist, 'CFBundleName'),
      });
    } catch (error) {
      // A broken extension plist should not hide the app itself.
      if (!(error instanceof PackageParseError)) throw error;
    }
  }
  return extensions;
}

function frameworkNames(appDir: string, names: string[]): string[] {
  const pattern = new RegExp(`^${escapeRegExp(appDir)}Frameworks/([^/]+\\.framework)/`);
  const found = new Set<string>();
  for (const name of names) {
    const match = pattern.exec(name);
    if (match?.[1]) found.add(match[1]);
  }
  return [...found].sort();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
