import { isDict, plistArray, plistDict, plistString, type PlistDict } from '../plist-reader';
import { boundedIsoDate } from './bounded-date';
import { summarizeCertificate } from './certificate-summary';
import {
  MAX_CERTIFICATES, MAX_ENTITLEMENT_VALUE_CHARS, MAX_ENTITLEMENTS, MAX_LISTED_DEVICES,
  type PackageSigning, type ProfileSummary, type ProfileType,
} from './signing.types';

/** The signing view of a provisioning profile's plist: the profile itself and its developer certificates. */
export function profileSigning(profile: PlistDict): PackageSigning {
  const certificates = plistArray(profile, 'DeveloperCertificates').filter(Buffer.isBuffer);
  return {
    schemes: [],
    certificates: certificates.slice(0, MAX_CERTIFICATES).map(summarizeCertificate).filter((c) => c !== undefined),
    certificatesTruncated: certificates.length > MAX_CERTIFICATES,
    profile: profileSummary(profile),
  };
}

function profileSummary(profile: PlistDict): ProfileSummary {
  const entitlements = plistDict(profile, 'Entitlements') ?? {};
  const devices = plistArray(profile, 'ProvisionedDevices').filter((d): d is string => typeof d === 'string');
  const platforms = plistArray(profile, 'Platform').filter((p): p is string => typeof p === 'string').slice(0, 8);
  const entries = Object.entries(entitlements);
  return {
    type: profileType(profile, entitlements, devices.length, platforms),
    ...text(profile, 'Name', 'name'),
    ...text(profile, 'UUID', 'uuid'),
    ...text(profile, 'AppIDName', 'appIdName'),
    team: { ...text(profile, 'TeamName', 'name'), ...firstText(plistArray(profile, 'TeamIdentifier'), 'id') },
    platforms,
    ...date(profile['CreationDate'], 'createdAt'),
    ...date(profile['ExpirationDate'], 'expiresAt'),
    devicesCount: devices.length,
    devices: devices.slice(0, MAX_LISTED_DEVICES).map((d) => d.slice(0, 64)),
    devicesTruncated: devices.length > MAX_LISTED_DEVICES,
    provisionsAllDevices: profile['ProvisionsAllDevices'] === true,
    entitlements: entries.slice(0, MAX_ENTITLEMENTS).map(([key, value]) => ({ key: key.slice(0, 256), value: entitlementValue(value) })),
    entitlementsTruncated: entries.length > MAX_ENTITLEMENTS,
  };
}

/**
 * As Xcode names profiles: all devices → enterprise (in-house); a device list with debugging
 * allowed → development; a device list without → ad hoc; no devices → App Store. macOS has no ad
 * hoc distribution and its development profiles carry no get-task-allow, so a macOS device list
 * means development. (The release's `release_type` keeps Zealot's precedence, ipa.parser.ts.)
 */
function profileType(profile: PlistDict, entitlements: PlistDict, deviceCount: number, platforms: string[]): ProfileType {
  if (profile['ProvisionsAllDevices'] === true) return 'enterprise';
  if (deviceCount === 0) return 'app_store';
  const debuggable = entitlements['get-task-allow'] === true || entitlements['com.apple.security.get-task-allow'] === true;
  if (debuggable || (platforms.includes('OSX') && !platforms.includes('iOS'))) return 'development';
  return 'ad_hoc';
}

function entitlementValue(value: unknown): string {
  const json = JSON.stringify(plainValue(value, 0)) ?? 'null';
  return json.length > MAX_ENTITLEMENT_VALUE_CHARS ? JSON.stringify(`${json.slice(0, MAX_ENTITLEMENT_VALUE_CHARS)}…`) : json;
}

/** Plist values as JSON: data as base64, dates as ISO text, nesting bounded. */
function plainValue(value: unknown, depth: number): unknown {
  if (depth > 8) return null;
  if (Buffer.isBuffer(value)) return value.subarray(0, 1024).toString('base64');
  if (value instanceof Date) return boundedIsoDate(value) ?? null;
  if (Array.isArray(value)) return value.slice(0, 100).map((item) => plainValue(item, depth + 1));
  if (isDict(value)) return Object.fromEntries(Object.entries(value).slice(0, 100).map(([k, v]) => [k, plainValue(v, depth + 1)]));
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  return typeof value === 'string' || typeof value === 'boolean' ? value : null;
}

function text<K extends string>(dict: PlistDict, plistKey: string, key: K): Partial<Record<K, string>> {
  const value = plistString(dict, plistKey);
  return value === undefined ? {} : ({ [key]: value.slice(0, 512) } as Record<K, string>);
}

function firstText<K extends string>(values: unknown[], key: K): Partial<Record<K, string>> {
  const first = values[0];
  return typeof first === 'string' ? ({ [key]: first.slice(0, 64) } as Record<K, string>) : {};
}

function date<K extends string>(value: unknown, key: K): Partial<Record<K, string>> {
  const iso = boundedIsoDate(value);
  return iso ? ({ [key]: iso } as Record<K, string>) : {};
}
