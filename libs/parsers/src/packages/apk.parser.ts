import ManifestParser from 'app-info-parser/src/xml-parser/manifest';
import ResourceFinder from 'app-info-parser/src/resource-finder';
import { mapInfoResource } from 'app-info-parser/src/utils';
import './binary-xml-strings';
import { androidDeviceType, pngFallbacksFor, rankPngIcons } from './android-device';
import { isPng } from './cgbi';
import { isCpuBudgetExceeded, runWithCpuBudget } from './cpu-budget';
import { PackageParseError } from './package.errors';
import type { ParsedPackage } from './package.types';
import type { SourceReader } from './byte-source';
import { readApkSigning } from './signing/apk-signing';
import type { ZipArchive } from './zip-reader';
import { APK_MANIFEST } from './zip-layout';

type Json = Record<string, unknown>;

export async function parseApk(zip: ZipArchive, file: SourceReader): Promise<ParsedPackage> {
  const manifest = decodeManifest(await zip.read(APK_MANIFEST));
  const resources = zip.has('resources.arsc') ? decodeResources(await zip.read('resources.arsc')) : undefined;
  // Attribute values like "resourceId:0x7f0e0028" become the list of that resource's values.
  const info = resources ? mapInfoResource(manifest, resources) : manifest;

  const bundleId = asString(info['package']);
  if (!bundleId) throw new PackageParseError('apk: AndroidManifest.xml has no package name');
  const application = asObject(info['application']);
  const usesSdk = asObject(info['usesSdk']);
  const supportsScreens = asObject(info['supportsScreens']);

  const iconPaths = [...asStrings(application['icon']), ...asStrings(application['roundIcon'])];
  const names = zip.names();
  const iconCandidates = [...rankPngIcons(iconPaths), ...pngFallbacksFor(iconPaths, names)];

  return {
    format: 'apk',
    platform: 'Android',
    deviceType: androidDeviceType({
      features: asObjects(info['usesFeatures']).map((feature) => asString(feature['name'])).filter(isString),
      launcherCategories: asObjects(application['activities'])
        .flatMap((activity) => asObjects(activity['intentFilters']))
        .flatMap((filter) => asObjects(filter['categories']))
        .map((category) => asString(category['name']))
        .filter(isString),
      smallScreens: asBoolean(supportsScreens['smallScreens']),
      normalScreens: asBoolean(supportsScreens['normalScreens']),
    }),
    name: asStrings(application['label'])[0] ?? bundleId,
    bundleId,
    releaseVersion: asString(info['versionName']) ?? '',
    buildVersion: asString(info['versionCode']) ?? '',
    minOsVersion: asString(usesSdk['minSdkVersion']),
    icon: await firstPng(zip, iconCandidates),
    details: {
      minSdkVersion: asNumber(usesSdk['minSdkVersion']),
      targetSdkVersion: asNumber(usesSdk['targetSdkVersion']),
      compileSdkVersion: asNumber(info['compileSdkVersion']),
      debuggable: application['debuggable'] === true,
      permissions: asObjects(info['usesPermissions']).map((p) => asString(p['name'])).filter(isString),
      features: asObjects(info['usesFeatures']).map((f) => asString(f['name'])).filter(isString),
      architectures: nativeAbis(names),
      signing: await readApkSigning(zip, file),
    },
  };
}

// Far above what these decoders need for real files (milliseconds; ~100 ms for a large
// resources.arsc), so only a looping decoder ever reaches it (see cpu-budget.ts).
const DECODE_BUDGET_MS = 5_000;

function decodeManifest(buffer: Buffer): Json {
  // The decoder jumps to `chunk start + chunkSize` after every chunk; a size below the 8-byte
  // chunk header never moves it forward (size 0 loops forever on the same chunk, logging
  // "Cursor is off" each time). Refused up front, with the CPU budget as the backstop.
  for (let cursor = 8; cursor + 8 <= buffer.length; ) {
    const chunkSize = buffer.readUInt32LE(cursor + 4);
    if (chunkSize < 8) throw new PackageParseError(`apk: unreadable AndroidManifest.xml (chunk at ${cursor} declares ${chunkSize} bytes)`);
    cursor += chunkSize;
  }
  try {
    return runWithCpuBudget(
      () => new ManifestParser(buffer, { ignore: ['application.service', 'application.receiver', 'application.provider', 'permission-group'] }).parse(),
      DECODE_BUDGET_MS,
    );
  } catch (error) {
    const reason = isCpuBudgetExceeded(error) ? 'decoding did not finish: malformed chunk structure' : error instanceof Error ? error.message : String(error);
    throw new PackageParseError(`apk: unreadable AndroidManifest.xml (${reason})`, { cause: error });
  }
}

function decodeResources(buffer: Buffer): Record<string, unknown[]> | undefined {
  // Same walk as the decoder's top-level loop (`offset = pos + size`): a chunk that does not move
  // it forward, or runs past the table, makes the table unusable rather than an endless loop.
  if (buffer.length < 12) return undefined;
  for (let pos = buffer.readUInt16LE(2); pos + 8 <= buffer.length; ) {
    const size = buffer.readInt32LE(pos + 4);
    if (size < 8 || pos + size > buffer.length) return undefined;
    pos += size;
  }
  try {
    // Its chunk loops follow sizes from the file too (a second string pool or a type chunk with
    // a negative size never advances); the budget stops such a table like any other bad one.
    return runWithCpuBudget(() => new ResourceFinder().processResourceTable(buffer), DECODE_BUDGET_MS);
  } catch {
    // Without resources we still have ids and versions; labels and icons just stay unresolved.
    return undefined;
  }
}

export async function firstPng(zip: ZipArchive, candidates: readonly string[]): Promise<Buffer | undefined> {
  for (const name of candidates.slice(0, 5)) {
    if (!zip.has(name)) continue;
    const data = await zip.read(name);
    if (isPng(data)) return data;
  }
  return undefined;
}

export function nativeAbis(names: readonly string[], prefix = ''): string[] {
  const abis = new Set<string>();
  for (const name of names) {
    if (!name.startsWith(`${prefix}lib/`)) continue;
    const abi = name.slice(prefix.length + 4).split('/')[0];
    if (abi && name.endsWith('.so')) abis.add(abi);
  }
  return [...abis].sort();
}

function asObject(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

function asObjects(value: unknown): Json[] {
  return Array.isArray(value) ? value.map(asObject) : [];
}

function asString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return asString(value[0]);
  return undefined;
}

function asStrings(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter(isString);
  return typeof value === 'string' && !value.startsWith('resourceId:') ? [value] : [];
}

function asNumber(value: unknown): number | undefined {
  const number = typeof value === 'number' ? value : Number(asString(value));
  return Number.isFinite(number) ? number : undefined;
}

function asBoolean(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}
