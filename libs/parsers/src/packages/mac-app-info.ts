import { PackageParseError } from './package.errors';
import type { ParsedPackage } from './package.types';
import { type PlistDict, plistString } from './plist-reader';

/**
 * What a macOS app bundle's Info.plist says, read the same way whatever
 * carries the bundle (a zip or a disk image): the package fields, the
 * details, and the names of the executable and icon the caller reads next.
 * `where` names the Info.plist in the error when it has no bundle id.
 */
export function macAppInfo(info: PlistDict, where: string) {
  const bundleId = plistString(info, 'CFBundleIdentifier');
  if (!bundleId) throw new PackageParseError(`${where} has no CFBundleIdentifier`);
  const executable = plistString(info, 'CFBundleExecutable');
  const fields: Pick<ParsedPackage, 'platform' | 'deviceType' | 'name' | 'bundleId' | 'releaseVersion' | 'buildVersion' | 'minOsVersion'> = {
    platform: 'macOS',
    deviceType: 'macOS',
    name: plistString(info, 'CFBundleDisplayName') ?? plistString(info, 'CFBundleName') ?? executable ?? bundleId,
    bundleId,
    releaseVersion: plistString(info, 'CFBundleShortVersionString') ?? '',
    buildVersion: plistString(info, 'CFBundleVersion') ?? '',
    minOsVersion: plistString(info, 'LSMinimumSystemVersion'),
  };
  return {
    fields,
    details: { category: plistString(info, 'LSApplicationCategoryType'), copyright: plistString(info, 'NSHumanReadableCopyright') },
    executable,
    iconFile: plistString(info, 'CFBundleIconFile'),
  };
}
