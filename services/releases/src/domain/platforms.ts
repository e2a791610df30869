import type { PackageFormat, Platform } from '@hangar/parsers';

/** Channel device types (lowercase, as the API accepts them) and their platform labels. */
export const PLATFORM_OF_DEVICE_TYPE: Record<string, Platform> = {
  ios: 'iOS',
  android: 'Android',
  macos: 'macOS',
  windows: 'Windows',
  linux: 'Linux',
};

export const deviceTypeOf = (platform: Platform): string => platform.toLowerCase();

export const EXTENSION_OF_FORMAT: Record<PackageFormat, string> = {
  ipa: 'ipa',
  apk: 'apk',
  aab: 'aab',
  'app-zip': 'zip',
  dmg: 'dmg',
  exe: 'exe',
  msi: 'msi',
  deb: 'deb',
  rpm: 'rpm',
  appimage: 'AppImage',
};

/** The extension of a file we could not read: from its name, if it is a sane one. */
export function extensionFromFileName(fileName: string): string {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(fileName);
  return match ? match[1]! : 'bin';
}
