import type { releases } from '@hangar/proto';
import { androidFields, parseMetadata, signingFields } from './signing-fields';

/**
 * The seed's Release shape, in one place for the two things that speak it: the
 * gateway's API answers and the apps service's webhook bodies. A field added
 * to one and not the other is exactly the drift this lib exists to prevent.
 */

/**
 * URLs of a release's pages and files. `baseUrl` is the public origin without
 * a trailing slash, or '' for paths relative to the gateway's origin.
 */
export function releaseUrls(baseUrl: string, release: Pick<releases.Release, 'id' | 'platform'>) {
  const api = `${baseUrl}/api/releases/${release.id}`;
  return {
    icon_url: `${api}/icon`,
    release_url: `${baseUrl}/releases/${release.id}`,
    // iOS installs through the itms-services scheme and the build's manifest.
    install_url: release.platform === 'iOS' ? `itms-services://?action=download-manifest&url=${encodeURIComponent(`${api}/manifest.plist`)}` : `${api}/download`,
    qrcode_url: `${api}/qrcode`,
  };
}

/**
 * Every field of a Release, `created_at` already formatted by the caller (the
 * API answers in the token user's time zone, webhooks in UTC).
 */
export function releaseFields(release: releases.Release, baseUrl: string, createdAt: string, now = new Date()) {
  const metadata = parseMetadata(release.metadataJson);
  return {
    id: release.id,
    version: release.version,
    app_name: release.appName,
    bundle_id: release.bundleId,
    release_version: release.releaseVersion,
    build_version: release.buildVersion,
    release_type: release.releaseType,
    source: release.source,
    branch: release.branch,
    git_commit: release.gitCommit,
    ci_url: release.ciUrl,
    size: release.size,
    platform: release.platform,
    device_type: release.deviceType,
    min_os_version: release.minOsVersion,
    ...releaseUrls(baseUrl, release),
    // Only `message` is always present (seed); empty optional fields are left out.
    changelog: release.changelog.map((e) => ({
      message: e.message,
      ...(e.author ? { author: e.author } : {}),
      ...(e.email ? { email: e.email } : {}),
      ...(e.date ? { date: e.date } : {}),
    })),
    text_changelog: release.changelog.map((e) => `- ${e.message}`).join('\n'),
    custom_fields: release.customFields.map((f) => ({ name: f.name, value: f.value, ...(f.icon ? { icon: f.icon } : {}) })),
    created_at: createdAt,
    // Added fields: who signed the build and, for Android, what it asks of the device.
    signing: signingFields(metadata, now),
    android: androidFields(metadata, release.platform),
    // Added to the seed's fields (additive): the package's SHA-256 as uploaded (null for builds
    // uploaded before it was recorded), whether older installs must update to it, and how
    // often it was downloaded or installed through Hangar.
    sha256: release.sha256 || null,
    mandatory: release.mandatory,
    download_count: release.downloadCount,
  };
}
