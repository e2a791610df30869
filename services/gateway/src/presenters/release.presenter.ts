import type { apps, debugFiles, releases } from '@hangar/proto';
import { debugFileLinks, releaseFields, releaseUrls } from '@hangar/release-shape';
import { formatTimestamp } from '../http/timestamps';

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

/**
 * The seed's Release shape, with app, scheme and channel when known, and the debug files of its
 * version and build (clients/build-links.ts fetches them for a whole answer at once; left out
 * when the debug-files service did not answer).
 */
export function presentRelease(release: releases.Release, files: debugFiles.DebugFile[] | undefined, baseUrl: string, timeZone?: string, context = release.context) {
  return {
    ...releaseFields(release, baseUrl, formatTimestamp(release.createdAtMs, timeZone)),
    ...(files ? { debug_files: debugFileLinks(files, baseUrl, context?.channel?.slug) } : {}),
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
export function presentVersionList(list: releases.ReleaseList, files: Map<number, debugFiles.DebugFile[]> | undefined, baseUrl: string, timeZone?: string) {
  const context = list.context!;
  return {
    id: context.channel!.id,
    app_name: context.app!.name,
    bundle_id: context.channel!.bundleId,
    git_url: context.channel!.gitUrl ?? null,
    app: { id: context.app!.id, name: context.app!.name },
    scheme: { id: context.scheme!.id, name: context.scheme!.name },
    channel: presentChannelSummary(context.channel!),
    releases: list.releases.map((r) => presentRelease(r, files && (files.get(r.id) ?? []), baseUrl, timeZone, context)),
  };
}

/** GET /api/releases/:id/stats. */
export function presentReleaseStats(stats: releases.ReleaseStats) {
  return { release_id: stats.releaseId, total: stats.total, unique: stats.unique, days: stats.days.map((d) => ({ date: d.date, total: d.total, unique: d.unique })) };
}

/** GET /api/apps/update_check: the answer, and the build to install with its URLs when there is one. */
export function presentUpdateCheck(answer: releases.UpdateCheck, baseUrl: string, timeZone?: string) {
  const release = answer.release;
  return {
    update_available: answer.updateAvailable,
    mandatory: answer.mandatory,
    // The build to install, without its debug files: an app asking whether to update needs none.
    release: release ? presentRelease(release, undefined, baseUrl, timeZone) : null,
    install_url: release ? releaseUrls(baseUrl, release).install_url : null,
    download_url: release ? `${baseUrl}/api/releases/${release.id}/download` : null,
  };
}
