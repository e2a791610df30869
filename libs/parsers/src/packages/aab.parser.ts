import { attribute, childrenNamed, decodeProtoXml, resolveResource, type ProtoXmlElement } from './aapt-proto';
import { androidDeviceType, pngFallbacksFor, rankPngIcons } from './android-device';
import { firstPng, nativeAbis } from './apk.parser';
import { PackageParseError } from './package.errors';
import type { ParsedPackage } from './package.types';
import type { ZipArchive } from './zip-reader';
import { AAB_MANIFEST } from './zip-layout';

const MODULE = 'base/';

/** An Android App Bundle: aapt2's protobuf manifest and resource table inside the base module. */
export async function parseAab(zip: ZipArchive): Promise<ParsedPackage> {
  const manifest = decodeProtoXml(await zip.read(AAB_MANIFEST));
  if (!manifest || manifest.name !== 'manifest') throw new PackageParseError('aab: base/manifest/AndroidManifest.xml is not a proto XML manifest');
  const table = zip.has(`${MODULE}resources.pb`) ? await zip.read(`${MODULE}resources.pb`) : undefined;
  const resolve = (value: string | undefined): string[] => {
    if (!value) return [];
    if (!value.startsWith('@')) return [value];
    return table ? resolveResource(table, value) : [];
  };

  const bundleId = attribute(manifest, 'package', '')?.value;
  if (!bundleId) throw new PackageParseError('aab: manifest has no package name');
  const application = childrenNamed(manifest, 'application')[0];
  const usesSdk = childrenNamed(manifest, 'uses-sdk')[0];
  const screens = childrenNamed(manifest, 'supports-screens')[0];
  const features = childrenNamed(manifest, 'uses-feature').map((f) => attribute(f, 'name')?.value).filter(isString);

  const iconPaths = application
    ? [...resolve(reference(application, 'icon')), ...resolve(reference(application, 'roundIcon'))].map((path) => MODULE + path)
    : [];
  const minSdk = usesSdk && attribute(usesSdk, 'minSdkVersion')?.value;

  return {
    format: 'aab',
    platform: 'Android',
    deviceType: androidDeviceType({
      features,
      launcherCategories: application ? launcherCategories(application) : [],
      smallScreens: screens && attribute(screens, 'smallScreens')?.boolean,
      normalScreens: screens && attribute(screens, 'normalScreens')?.boolean,
    }),
    name: (application && resolve(reference(application, 'label'))[0]) ?? bundleId,
    bundleId,
    releaseVersion: attribute(manifest, 'versionName')?.value ?? '',
    buildVersion: attribute(manifest, 'versionCode')?.value ?? '',
    minOsVersion: minSdk || undefined,
    icon: await firstPng(zip, [...rankPngIcons(iconPaths), ...pngFallbacksFor(iconPaths, zip.names(), MODULE)]),
    details: {
      minSdkVersion: numberOf(minSdk),
      targetSdkVersion: numberOf(usesSdk && attribute(usesSdk, 'targetSdkVersion')?.value),
      permissions: childrenNamed(manifest, 'uses-permission').map((p) => attribute(p, 'name')?.value).filter(isString),
      features,
      architectures: nativeAbis(zip.names(), MODULE),
    },
  };
}

/** "@type/name" for a compiled reference, or the literal value. */
function reference(element: ProtoXmlElement, name: string): string | undefined {
  const item = attribute(element, name);
  if (!item) return undefined;
  return item.refName ? `@${item.refName}` : item.value;
}

function launcherCategories(application: ProtoXmlElement): string[] {
  return [...childrenNamed(application, 'activity'), ...childrenNamed(application, 'activity-alias')]
    .flatMap((activity) => childrenNamed(activity, 'intent-filter'))
    .flatMap((filter) => childrenNamed(filter, 'category'))
    .map((category) => attribute(category, 'name')?.value)
    .filter(isString);
}

function numberOf(value: string | undefined): number | undefined {
  const number = Number(value);
  return value && Number.isFinite(number) ? number : undefined;
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}
