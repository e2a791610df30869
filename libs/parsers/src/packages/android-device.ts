/** What decides an Android app's device type, gathered from either a binary-XML or a proto manifest. */
export interface AndroidTraits {
  features: string[];
  launcherCategories: string[];
  /** supports-screens flags as declared; undefined when not declared. */
  smallScreens?: boolean;
  normalScreens?: boolean;
}

export function androidDeviceType(traits: AndroidTraits): string {
  const features = new Set(traits.features);
  if (features.has('android.hardware.type.watch')) return 'Watch';
  if (features.has('android.hardware.type.automotive')) return 'Automotive';
  if (features.has('android.software.leanback') || features.has('android.software.leanback_only')) return 'TV';
  if (traits.launcherCategories.includes('android.intent.category.LEANBACK_LAUNCHER')) return 'TV';
  if (features.has('android.hardware.type.television')) return 'TV';
  // An app that opts out of both phone-sized screen classes only runs on tablets.
  if (traits.smallScreens === false && traits.normalScreens === false) return 'Tablet';
  return 'Phone';
}

const DENSITY_RANK: Array<[string, number]> = [
  ['xxxhdpi', 6],
  ['xxhdpi', 5],
  ['xhdpi', 4],
  ['hdpi', 3],
  ['tvdpi', 2.5],
  ['mdpi', 2],
  ['ldpi', 1],
];

/** Orders icon file paths so the densest PNG comes first; XML (adaptive) icons are dropped. */
export function rankPngIcons(paths: readonly string[]): string[] {
  const rank = (path: string): number => DENSITY_RANK.find(([name]) => path.includes(`-${name}`))?.[1] ?? 0;
  return [...new Set(paths)].filter((path) => /\.png$/i.test(path)).sort((a, b) => rank(b) - rank(a));
}

/**
 * Adaptive icons resolve to XML only; the PNG fallbacks for older devices usually live next to
 * them under the same name in density folders, so look those up in the archive.
 */
export function pngFallbacksFor(iconPaths: readonly string[], archiveNames: readonly string[], prefix = ''): string[] {
  const baseNames = new Set(
    iconPaths.map((path) => /\/([^/]+)\.xml$/i.exec(path)?.[1]).filter((name): name is string => Boolean(name)),
  );
  if (baseNames.size === 0) return [];
  const pattern = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}res/(?:mipmap|drawable)-[^/]+/([^/]+)\\.png$`, 'i');
  return rankPngIcons(archiveNames.filter((name) => baseNames.has(pattern.exec(name)?.[1] ?? '')));
}
