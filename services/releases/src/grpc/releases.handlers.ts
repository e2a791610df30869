import type { apps, releases } from '@hangar/proto';
import type { ReleaseDocument } from '../data/release.model';
import { createRelease } from '../domain/create-release';
import type { ReleasesDeps } from '../domain/deps';
import { listBuildReleases } from '../domain/build-releases';
import { deleteRelease, getDownload, getRelease, updateRelease } from '../domain/manage-releases';
import { createTeardown, getTeardown, toTeardown, type TeardownDeps } from '../domain/teardown';
import { releaseStats } from '../domain/release-stats';
import { checkForUpdate } from '../domain/update-check';
import { latestReleases, listVersions, versionExists } from '../domain/version-queries';
import { readBuildFilter } from '../domain/build-filter';

const pageOf = (page?: { page: number; perPage: number }) => ({
  page: Math.max(1, page?.page || 1),
  perPage: Math.min(100, Math.max(1, page?.perPage || 25)),
});

/** Thin edge: proto in, use case, proto out. Errors map in the gRPC middleware. */
export function releasesHandlers(deps: ReleasesDeps, teardownDeps: TeardownDeps): releases.ReleasesServiceImplementation {
  const counts = (channelId: number) => deps.downloadCounts.of(channelId);
  return {
    async createRelease(req) {
      const { release, context } = await createRelease(deps, req);
      return toRelease(release, context, await counts(release.channelId));
    },
    async getRelease(req) {
      const { release, context } = await getRelease(deps, req.id);
      return toRelease(release, context, await counts(release.channelId));
    },
    async updateRelease(req) {
      const { release, context } = await updateRelease(deps, req);
      return toRelease(release, context, await counts(release.channelId));
    },
    async deleteRelease(req) {
      await deleteRelease(deps, req.actor, req.id);
      return {};
    },
    async listVersions(req) {
      const result = await listVersions(deps, req.channelKey, pageOf(req.page), readBuildFilter(req.filter));
      const downloads = await counts(result.context.channel!.id);
      return { releases: result.releases.map((r) => toRelease(r, undefined, downloads)), total: result.total, context: result.context };
    },
    async latestReleases(req) {
      const result = await latestReleases(deps, req, pageOf(req.page));
      const downloads = await counts(result.context.channel!.id);
      return { releases: result.releases.map((r) => toRelease(r, undefined, downloads)), total: result.total, context: result.context };
    },
    async versionExists(req) {
      const { release, context } = await versionExists(deps, req);
      return toRelease(release, context, await counts(release.channelId));
    },
    async getDownload(req) {
      return getDownload(deps, req);
    },
    async createTeardown(req) {
      return toTeardown(await createTeardown(teardownDeps, req));
    },
    async getTeardown(req) {
      return toTeardown(await getTeardown(teardownDeps, req));
    },
    async getReleaseStats(req) {
      return releaseStats(deps, req.actor, req.releaseId);
    },
    async checkForUpdate(req) {
      const answer = await checkForUpdate(deps, req);
      return {
        updateAvailable: answer.release !== undefined,
        mandatory: answer.mandatory,
        ...(answer.release ? { release: toRelease(answer.release, answer.context, await counts(answer.release.channelId)) } : {}),
        context: answer.context,
        hashMatched: answer.hashMatched,
      };
    },
    async listBuildReleases(req) {
      const builds = await listBuildReleases(deps, req.builds);
      return { builds: builds.map(({ build, releases }) => ({ build, releases: releases.map((r) => toRelease(r)) })) };
    },
  };
}

function toRelease(r: ReleaseDocument, context?: apps.ChannelContext, downloads?: Map<number, number>): releases.Release {
  return {
    id: r._id,
    version: r.version,
    appId: r.appId,
    schemeId: r.schemeId,
    channelId: r.channelId,
    appName: r.appName,
    bundleId: r.bundleId,
    releaseVersion: r.releaseVersion,
    buildVersion: r.buildVersion,
    source: r.source,
    branch: r.branch,
    gitCommit: r.gitCommit,
    ciUrl: r.ciUrl,
    size: r.size,
    platform: r.platform,
    deviceType: r.deviceType,
    releaseType: r.releaseType,
    minOsVersion: r.minOsVersion,
    changelog: r.changelog.map((c) => ({ message: c.message, author: c.author ?? '', email: c.email ?? '', date: c.date ?? '' })),
    customFields: r.customFields.map((f) => ({ name: f.name, value: f.value, icon: f.icon ?? '' })),
    hasIcon: Boolean(r.iconKey),
    fileExtension: r.fileExtension,
    createdAtMs: r.createdAt.getTime(),
    metadataJson: r.metadataJson,
    sha256: r.sha256 ?? '',
    mandatory: r.mandatory ?? false,
    downloadCount: downloads?.get(r._id) ?? 0,
    ...(context ? { context } : {}),
  };
}
