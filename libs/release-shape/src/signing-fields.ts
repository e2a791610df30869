/**
 * The signing and Android details of a release, from its parsed metadata
 * (`metadata_json`, written by @hangar/parsers: `details.signing`,
 * `details.minSdkVersion`, …), in the API's snake_case. Read defensively:
 * metadata stored before these fields existed, or of another format, gives
 * nulls, never a throw. `expired` is judged at `now`, so an answer is current
 * when it is made, not when the build was uploaded.
 */

type Json = Record<string, unknown>;

export interface CertificateFields {
  subject: string;
  common_name: string | null;
  sha256: string;
  not_before: string | null;
  expires_at: string | null;
  expired: boolean;
}

export interface ProfileFields {
  type: string;
  name: string | null;
  uuid: string | null;
  app_id_name: string | null;
  team: { name: string | null; id: string | null };
  platforms: string[];
  created_at: string | null;
  expires_at: string | null;
  expired: boolean;
  devices_count: number;
  devices: string[];
  devices_truncated: boolean;
  provisions_all_devices: boolean;
  entitlements: Record<string, unknown>;
  entitlements_truncated: boolean;
}

export interface SigningFields {
  schemes: string[];
  certificates: CertificateFields[];
  certificates_truncated: boolean;
  profile: ProfileFields | null;
}

export interface AndroidFields {
  min_sdk_version: number | null;
  target_sdk_version: number | null;
  permissions: string[];
  native_abis: string[];
}

export function parseMetadata(metadataJson: string | undefined): Json {
  try {
    const value: unknown = JSON.parse(metadataJson || '{}');
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

export function signingFields(metadata: Json, now: Date): SigningFields | null {
  const signing = metadata['signing'];
  if (!isObject(signing)) return null;
  const profile = signing['profile'];
  return {
    schemes: strings(signing['schemes']),
    certificates: objects(signing['certificates']).map((c) => certificateFields(c, now)),
    certificates_truncated: signing['certificatesTruncated'] === true,
    profile: isObject(profile) ? profileFields(profile, now) : null,
  };
}

export function androidFields(metadata: Json, platform: string): AndroidFields | null {
  if (platform !== 'Android') return null;
  return {
    min_sdk_version: integer(metadata['minSdkVersion']),
    target_sdk_version: integer(metadata['targetSdkVersion']),
    permissions: strings(metadata['permissions']),
    native_abis: strings(metadata['architectures']),
  };
}

function certificateFields(c: Json, now: Date): CertificateFields {
  const expiresAt = text(c['expiresAt']);
  return {
    subject: text(c['subject']) ?? '',
    common_name: text(c['commonName']),
    sha256: text(c['sha256']) ?? '',
    not_before: text(c['notBefore']),
    expires_at: expiresAt,
    expired: isPast(expiresAt, now),
  };
}

function profileFields(p: Json, now: Date): ProfileFields {
  const team = isObject(p['team']) ? p['team'] : {};
  const expiresAt = text(p['expiresAt']);
  return {
    type: text(p['type']) ?? 'app_store',
    name: text(p['name']),
    uuid: text(p['uuid']),
    app_id_name: text(p['appIdName']),
    team: { name: text(team['name']), id: text(team['id']) },
    platforms: strings(p['platforms']),
    created_at: text(p['createdAt']),
    expires_at: expiresAt,
    expired: isPast(expiresAt, now),
    devices_count: integer(p['devicesCount']) ?? 0,
    devices: strings(p['devices']),
    devices_truncated: p['devicesTruncated'] === true,
    provisions_all_devices: p['provisionsAllDevices'] === true,
    // Stored as {key, JSON value} pairs (dotted keys cannot be MongoDB field names); an object here.
    entitlements: Object.fromEntries(objects(p['entitlements']).flatMap((e) => (typeof e['key'] === 'string' ? [[e['key'], jsonValue(e['value'])]] : []))),
    entitlements_truncated: p['entitlementsTruncated'] === true,
  };
}

function isPast(iso: string | null, now: Date): boolean {
  return iso !== null && Date.parse(iso) < now.getTime();
}

function jsonValue(value: unknown): unknown {
  if (typeof value !== 'string') return null;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objects(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function integer(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}
