import type { apps, releases } from '@hangar/proto';
import { releaseFields } from '@hangar/release-shape';
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

/** The seed's Release shape, with app, scheme and channel when known. */
export function presentRelease(release: releases.Release, baseUrl: string, timeZone?: string, context = release.context) {
  return {
    ...releaseFields(release, baseUrl, formatTimestamp(release.createdAtMs, timeZone)),
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
