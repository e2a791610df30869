import type { apps, releases } from '@hangar/proto';
import { formatTimestamp } from '../http/timestamps';

/** Absolute URLs of a release's pages and files, on the public origin. */
export function releaseUrls(baseUrl: string, release: Pick<releases.Release, 'id' | 'platform'>) {
  const api = `${baseUrl}/api/releases/${release.id}`;
  const manifest = `${api}/manifest.plist`;
  return {
    icon_url: `${api}/icon`,
    release_url: `${baseUrl}/releases/${release.id}`,
    install_url: release.platform === 'iOS' ? `itms-services://?action=download-manifest&url=${encodeURIComponent(manifest)}` : `${api}/download`,
    qrcode_url: `${api}/qrcode`,
  };
}

function presentChangelog(entries: releases.ChangelogEntry[]) {
  // Only `message` is always present (seed); empty optional fields are left out.
  return entries.map((e) => ({
    message: e.message,
    ...(e.author ? { author: e.author } : {}),
    ...(e.email ? { email: e.email } : {}),
    ...(e.date ? { date: e.date } : {}),
  }));
}

export function presentChannelSummary(channel: apps.Channel) {
  return {
    slug: channel.slug,
    name: channel.name,
    device_type: channel.deviceType,
    bundle_id: channel.bundleId,
    git_url: channel.gitUrl ?? null,
    has_password: channel.hasPassword,
  };
}

/** The seed's Release shape, with app, scheme and channel when known. */
export function presentRelease(release: releases.Release, baseUrl: string, timeZone?: string, context = release.context) {
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
    changelog: presentChangelog(release.changelog),
    text_changelog: release.changelog.map((e) => `- ${e.message}`).join('\n'),
    custom_fields: release.customFields.map((f) => ({ name: f.name, value: f.value, ...(f.icon ? { icon: f.icon } : {}) })),
    created_at: formatTimestamp(release.createdAtMs, timeZone),
    ...(context
      ? {
          app: { id: context.app!.id, name: context.app!.name },
          scheme: { id: context.scheme!.id, name: context.scheme!.name },
          channel: presentChannelSummary(context.channel!),
        }
      : {}),
  };
}

/** The seed's "Version list (channel view)". */
export function presentVersionList(list: releases.ReleaseList, baseUrl: string, timeZone?: string) {
  const context = list.context!;
  return {
    id: context.channel!.id,
    app_name: context.app!.name,
    bundle_id: context.channel!.bundleId,
    git_url: context.channel!.gitUrl ?? null,
    app: { id: context.app!.id, name: context.app!.name },
    scheme: { id: context.scheme!.id, name: context.scheme!.name },
    channel: presentChannelSummary(context.channel!),
    releases: list.releases.map((r) => presentRelease(r, baseUrl, timeZone, context)),
  };
}
