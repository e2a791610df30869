import { isPng, pngSize } from './cgbi';
import { PackageParseError, UnknownPackageError } from './package.errors';
import type { ParsedPackage, ParseOptions } from './package.types';
import { readPeResources } from './pe-reader';
import { labelled, type SourceReader } from './byte-source';
import { readVersionInfo } from './version-info';

const RT_ICON = 3;
const RT_VERSION = 16;

/** A Windows executable (often an installer), described by its VS_VERSIONINFO resource. */
export async function parseExe(source: SourceReader, options: Required<ParseOptions>): Promise<ParsedPackage> {
  const { architecture, versionData, icons } = await labelled(source, 'exe', async (file) => {
    const resources = await readPeResources(file, options.maxEntrySize);
    return { architecture: resources.architecture, versionData: resources.ofType(RT_VERSION)[0], icons: resources.ofType(RT_ICON) };
  });
  const info = versionData ? readVersionInfo(versionData) : undefined;
  if (!info) {
    // A valid executable, but nothing in it says what it is or which version: let the caller
    // fall back to explicit versions, as for any file we cannot describe.
    throw new UnknownPackageError('exe: the executable has no version resource (VS_VERSIONINFO) to read name and versions from');
  }
  const s = info.strings;
  const name = s['ProductName'] ?? s['FileDescription'] ?? s['InternalName'] ?? s['OriginalFilename'];
  const releaseVersion = s['ProductVersion'] ?? info.productVersion;
  const buildVersion = s['FileVersion'] ?? info.fileVersion;
  if (!name || !releaseVersion || !buildVersion) throw new PackageParseError('exe: version resource lacks a product name or version');

  return {
    format: 'exe',
    platform: 'Windows',
    deviceType: 'Windows',
    name,
    bundleId: s['ProductName'] ?? s['InternalName'] ?? name,
    releaseVersion,
    buildVersion,
    icon: largestPngIcon(icons),
    details: {
      architecture,
      companyName: s['CompanyName'],
      fileDescription: s['FileDescription'],
      originalFilename: s['OriginalFilename'],
      internalName: s['InternalName'],
      legalCopyright: s['LegalCopyright'],
      fixedFileVersion: info.fileVersion,
      fixedProductVersion: info.productVersion,
    },
  };
}

/** Modern Windows icons store the 256 px image as a PNG; older sizes are BMPs we skip. */
function largestPngIcon(icons: Buffer[]): Buffer | undefined {
  let best: { icon: Buffer; pixels: number } | undefined;
  for (const icon of icons) {
    if (!isPng(icon)) continue;
    const size = pngSize(icon);
    const pixels = size ? size.width * size.height : 0;
    if (!best || pixels > best.pixels) best = { icon, pixels };
  }
  return best ? Buffer.from(best.icon) : undefined;
}
