// Where each zip-based package keeps its metadata. Shared by the detector and the parsers so
// "what makes an ipa" is written down once.

const IPA_INFO_PLIST = /^Payload\/([^/]+\.app)\/Info\.plist$/;
const MAC_INFO_PLIST = /^((?:[^/]+\/)*?[^/]+\.app)\/Contents\/Info\.plist$/;

export const AAB_MANIFEST = 'base/manifest/AndroidManifest.xml';
export const APK_MANIFEST = 'AndroidManifest.xml';

export type ZipPackageFormat = 'ipa' | 'apk' | 'aab' | 'app-zip';

/** The `Payload/X.app/` folder of an ipa, or undefined when the zip is not one. */
export function findIpaAppDir(names: readonly string[]): string | undefined {
  for (const name of names) {
    const match = IPA_INFO_PLIST.exec(name);
    if (match) return `Payload/${match[1]}/`;
  }
  return undefined;
}

/** The outermost `X.app/` bundle of a zipped macOS app (nested helper apps are deeper). */
export function findMacAppDir(names: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const name of names) {
    if (name.startsWith('__MACOSX/')) continue;
    const match = MAC_INFO_PLIST.exec(name);
    if (match?.[1] && (best === undefined || match[1].length < best.length - 1)) best = `${match[1]}/`;
  }
  return best;
}

export function detectZipPackage(names: readonly string[]): ZipPackageFormat | undefined {
  const set = new Set(names);
  if (findIpaAppDir(names)) return 'ipa';
  if (set.has(AAB_MANIFEST)) return 'aab';
  if (set.has(APK_MANIFEST) && (set.has('classes.dex') || set.has('resources.arsc'))) return 'apk';
  if (findMacAppDir(names)) return 'app-zip';
  return undefined;
}
