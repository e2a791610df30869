import { plistArray, plistDict, plistString, readOptionalPlist, type PlistDict } from './plist-reader';
import { boundedIsoDate } from './signing/bounded-date';
import { profileSigning } from './signing/profile-summary';
import type { PackageSigning } from './signing/signing.types';
import type { ZipArchive } from './zip-reader';

export type IosReleaseType = 'AdHoc' | 'Enterprise' | 'Development' | 'AppStore';

export interface ProvisioningProfile {
  releaseType: IosReleaseType;
  /** JSON-safe summary for ParsedPackage.details. */
  summary: Record<string, unknown>;
  /** The profile in full (type as Xcode names it, devices, entitlements) and its certificates. */
  signing: PackageSigning;
}

// Real profiles are tens of KiB (a 100-device one about 20 KiB). A hostile one listing 100,000
// devices is about 6 MiB and still parses; past this its XML is not worth decoding at all.
export const MAX_PROFILE_BYTES = 16 * 1024 * 1024;

/** Reads the profile at `path` in the archive if there is one of a sane size. */
export async function readEmbeddedProfile(zip: ZipArchive, path: string): Promise<ProvisioningProfile | undefined> {
  const entry = zip.entries.find((item) => item.name === path);
  if (!entry || entry.uncompressedSize > MAX_PROFILE_BYTES) return undefined;
  return readMobileProvision(await zip.read(path));
}

/**
 * Reads an embedded.mobileprovision. The file is a CMS signature envelope whose payload is a plain
 * XML plist, so slicing out the XML is enough; the signature itself is not our concern here.
 */
export function readMobileProvision(buffer: Buffer): ProvisioningProfile | undefined {
  const text = buffer.toString('latin1');
  const start = text.indexOf('<?xml');
  const end = text.indexOf('</plist>', start);
  if (start < 0 || end < 0) return undefined;
  const profile = readOptionalPlist(buffer.subarray(start, end + '</plist>'.length));
  if (!profile) return undefined;
  const entitlements = plistDict(profile, 'Entitlements') ?? {};
  const devices = plistArray(profile, 'ProvisionedDevices');
  return {
    releaseType: releaseTypeOf(profile, entitlements, devices.length),
    summary: {
      name: plistString(profile, 'Name'),
      appIdName: plistString(profile, 'AppIDName'),
      uuid: plistString(profile, 'UUID'),
      teamName: plistString(profile, 'TeamName'),
      teamId: firstString(plistArray(profile, 'TeamIdentifier')),
      platforms: plistArray(profile, 'Platform').filter((item): item is string => typeof item === 'string'),
      devicesCount: devices.length,
      provisionsAllDevices: profile['ProvisionsAllDevices'] === true,
      createdAt: isoDate(profile['CreationDate']),
      expiresAt: isoDate(profile['ExpirationDate']),
    },
    signing: profileSigning(profile),
  };
}

// Zealot's precedence: any profile that lists devices counts as AdHoc, development profiles
// included (the iphone.ipa fixture, signed with a team development profile, is known as AdHoc).
function releaseTypeOf(profile: PlistDict, entitlements: PlistDict, deviceCount: number): IosReleaseType {
  if (deviceCount > 0) return 'AdHoc';
  if (profile['ProvisionsAllDevices'] === true) return 'Enterprise';
  if (entitlements['get-task-allow'] === true) return 'Development';
  return 'AppStore';
}

function firstString(values: unknown[]): string | undefined {
  const first = values[0];
  return typeof first === 'string' ? first : undefined;
}

function isoDate(value: unknown): string | undefined {
  return boundedIsoDate(value);
}
