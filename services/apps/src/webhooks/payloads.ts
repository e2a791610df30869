import type { releases } from '@hangar/proto';

/**
 * Webhook bodies (docs/events.md "Webhooks"). Every body is
 * `{ event, delivered_at, event_id, occurred_at, app, ... }`; `event` and
 * `delivered_at` are added per attempt, the rest is frozen when the delivery
 * is made.
 */

/** ISO 8601 with milliseconds and a numeric UTC offset, as the API answers without a token. */
export const isoUtc = (ms: number | Date): string => new Date(ms).toISOString().replace('Z', '+00:00');

/** Absolute on PUBLIC_BASE_URL, else paths relative to the gateway's origin. */
export function releaseUrls(baseUrl: string | undefined, release: Pick<releases.Release, 'id' | 'platform'>) {
  const base = (baseUrl ?? '').replace(/\/+$/, '');
  const api = `${base}/api/releases/${release.id}`;
  return {
    icon_url: `${api}/icon`,
    release_url: `${base}/releases/${release.id}`,
    install_url: release.platform === 'iOS' ? `itms-services://?action=download-manifest&url=${encodeURIComponent(`${api}/manifest.plist`)}` : `${api}/download`,
    qrcode_url: `${api}/qrcode`,
  };
}

/** The API's Release fields (the seed's shape), timestamps in UTC. */
export function releaseFields(release: releases.Release, baseUrl: string | undefined) {
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
    changelog: release.changelog.map((e) => ({ message: e.message, ...(e.author ? { author: e.author } : {}), ...(e.email ? { email: e.email } : {}), ...(e.date ? { date: e.date } : {}) })),
    text_changelog: release.changelog.map((e) => `- ${e.message}`).join('\n'),
    custom_fields: release.customFields.map((f) => ({ name: f.name, value: f.value, ...(f.icon ? { icon: f.icon } : {}) })),
    created_at: isoUtc(release.createdAtMs),
  };
}

/** The full body as sent: `event` and `delivered_at` first, then the frozen payload. */
export function webhookBody(event: string, payloadJson: string, deliveredAt: Date): string {
  return JSON.stringify({ event, delivered_at: isoUtc(deliveredAt), ...(JSON.parse(payloadJson) as Record<string, unknown>) });
}
