import { plistString, readOptionalPlist } from '../packages/plist-reader';

export interface DsymBundleInfo {
  bundleId?: string;
  releaseVersion?: string;
  buildVersion?: string;
}

// dsymutil names the dSYM after the app it describes, with this prefix in front of the app's id.
const DSYM_BUNDLE_ID_PREFIX = 'com.apple.xcode.dsym.';

/**
 * The app's identity as recorded in a dSYM's Contents/Info.plist (dsymutil writes XML; binary is
 * read as well). A malformed one yields no information rather than a failure, because the upload
 * form can still supply the versions.
 */
export function readDsymBundleInfo(bytes: Buffer): DsymBundleInfo {
  const plist = readOptionalPlist(bytes) ?? {};
  const text = (key: string) => plistString(plist, key)?.trim() || undefined;
  const info: DsymBundleInfo = {};
  const identifier = text('CFBundleIdentifier');
  if (identifier) {
    info.bundleId = identifier.startsWith(DSYM_BUNDLE_ID_PREFIX) ? identifier.slice(DSYM_BUNDLE_ID_PREFIX.length) : identifier;
  }
  const releaseVersion = text('CFBundleShortVersionString');
  if (releaseVersion) info.releaseVersion = releaseVersion;
  const buildVersion = text('CFBundleVersion');
  if (buildVersion) info.buildVersion = buildVersion;
  return info;
}
