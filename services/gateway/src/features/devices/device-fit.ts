import type { releases } from '@hangar/proto';
import { parseMetadata, signingFields, type ProfileFields } from '@hangar/release-shape';

/**
 * Whether a build installs on a device, as far as its provisioning profile tells: `in` (the
 * profile lists the UDID), `out` (it does not: iOS will refuse the install), `unknown` (the profile
 * lists more devices than Hangar kept, and not this one among those kept). Only ad hoc and
 * development builds name their devices; an enterprise build installs anywhere, an App Store build
 * nowhere but through the store, and other platforms have no list: those are `null`.
 */
export type DeviceFit = 'in' | 'out' | 'unknown';

export interface ListedProfile {
  udids: Set<string>;
  truncated: boolean;
}

/** The build's device list, or null when the build does not restrict installs by device. */
export function listedProfile(release: Pick<releases.Release, 'platform' | 'metadataJson'>): ListedProfile | null {
  if (release.platform !== 'iOS') return null;
  const profile: ProfileFields | null | undefined = signingFields(parseMetadata(release.metadataJson), new Date())?.profile;
  if (!profile || profile.provisions_all_devices || (profile.type !== 'ad_hoc' && profile.type !== 'development')) return null;
  return { udids: new Set(profile.devices.map((udid) => udid.toLowerCase())), truncated: profile.devices_truncated };
}

export function deviceFit(profile: ListedProfile, udid: string): DeviceFit {
  if (profile.udids.has(udid.toLowerCase())) return 'in';
  return profile.truncated ? 'unknown' : 'out';
}

/** The devices a build's profile certainly leaves out (none for a build that does not restrict by device). */
export function devicesLeftOut<D extends { udid: string }>(profile: ListedProfile | null, devices: readonly D[]): D[] {
  return profile ? devices.filter((d) => deviceFit(profile, d.udid) === 'out') : [];
}

/**
 * Apple's device list file for Certificates, Identifiers & Profiles → Devices → Register Multiple
 * Devices: a header, then a tab-separated line per device (the name at most 50 characters).
 */
export function appleDeviceList(devices: readonly { udid: string; name: string }[]): string {
  const lines = devices.map((d) => `${d.udid}\t${d.name.replace(/[\t\r\n]/g, ' ').slice(0, 50)}\tios`);
  return ['Device ID\tDevice Name\tDevice Platform', ...lines].join('\n') + '\n';
}
