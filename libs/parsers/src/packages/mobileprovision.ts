import { parse as parseXml } from 'plist';
import { isDict, plistArray, plistDict, plistString, type PlistDict } from './plist-reader';

export type IosReleaseType = 'AdHoc' | 'Enterprise' | 'Development' | 'AppStore';

export interface ProvisioningProfile {
  releaseType: IosReleaseType;
  /** JSON-safe summary for ParsedPackage.details. */
  summary: Record<string, unknown>;
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
  let profile: unknown;
  try {
    profile = parseXml(buffer.subarray(start, end + '</plist>'.length).toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isDict(profile)) return undefined;
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
  return value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : undefined;
}
