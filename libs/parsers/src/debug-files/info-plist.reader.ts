import { childElements, decodeXmlText, parseXmlDocument } from './xml-document.reader';

export interface DsymBundleInfo {
  bundleId?: string;
  releaseVersion?: string;
  buildVersion?: string;
}

// dsymutil names the dSYM after the app it describes, with this prefix in front of the app's id.
const DSYM_BUNDLE_ID_PREFIX = 'com.apple.xcode.dsym.';

/**
 * The app's identity as recorded in a dSYM's Contents/Info.plist. dsymutil writes XML plists;
 * a binary or malformed one yields no information rather than a failure, because the upload form
 * can still supply the versions.
 */
export function readDsymBundleInfo(bytes: Buffer): DsymBundleInfo {
  const values = topLevelStrings(bytes);
  const identifier = values.get('CFBundleIdentifier');
  const info: DsymBundleInfo = {};
  if (identifier) {
    info.bundleId = identifier.startsWith(DSYM_BUNDLE_ID_PREFIX) ? identifier.slice(DSYM_BUNDLE_ID_PREFIX.length) : identifier;
  }
  const releaseVersion = values.get('CFBundleShortVersionString');
  if (releaseVersion) info.releaseVersion = releaseVersion;
  const buildVersion = values.get('CFBundleVersion');
  if (buildVersion) info.buildVersion = buildVersion;
  return info;
}

/** String values of the plist's root dictionary, keyed by their `<key>`. */
function topLevelStrings(bytes: Buffer): Map<string, string> {
  const values = new Map<string, string>();
  const root = parseXmlDocument(decodeXmlText(bytes))?.documentElement;
  if (!root || root.tagName !== 'plist') return values;
  const dict = childElements(root)[0];
  if (!dict || dict.tagName !== 'dict') return values;
  const items = childElements(dict);
  for (let i = 0; i + 1 < items.length; i += 2) {
    const key = items[i]!;
    const value = items[i + 1]!;
    if (key.tagName === 'key' && value.tagName === 'string') {
      values.set(key.textContent ?? '', (value.textContent ?? '').trim());
    }
  }
  return values;
}
