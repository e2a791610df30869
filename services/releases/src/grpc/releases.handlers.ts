import type { apps, releases } from '@hangar/proto';
import type { ReleaseDocument } from '../data/release.model';
import { createRelease } from '../domain/create-release';
import type { ReleasesDeps } from '../domain/deps';
import { listBuildReleases } from '../domain/build-releases';
import { deleteRelease, getDownload, getRelease, updateRelease } from '../domain/manage-releases';
import { latestReleases, listVersions, versionExists } from '../domain/version-queries';

const pageOf = (page?: { page: number; perPage: number }) => ({
  page: Math.max(1, page?.page || 1),
  perPage: Math.min(100, Math.max(1, page?.perPage || 25)),
});

/** Thin edge: proto in, use case, proto out. Errors map in the gRPC middleware. */
export function releasesHandlers(deps: ReleasesDeps): releases.ReleasesServiceImplementation {
  return {
    async createRelease(req) {
      const { release, context } = await createRelease(deps, req);
      return toRelease(release, context);
    },
    async getRelease(req) {
      const { release, context } = await getRelease(deps, req.id);
      return toRelease(release, context);
    },
    async updateRelease(req) {
      const { release, context } = await updateRelease(deps, req);
      return toRelease(release, context);
    },
    async deleteRelease(req) {
      await deleteRelease(deps, req.actor, req.id);
      return {};
    },
    async listVersions(req) {
      const result = await listVersions(deps, req.channelKey, pageOf(req.page));
      return { releases: result.releases.map((r) => toRelease(r)), total: result.total, context: result.context };
    },
    async latestReleases(req) {
      const result = await latestReleases(deps, req, pageOf(req.page));
      return { releases: result.releases.map((r) => toRelease(r)), total: result.total, context: result.context };
    },
    async versionExists(req) {
      const { release, context } = await versionExists(deps, req);
      return toRelease(release, context);
    },
    async getDownload(req) {
      return getDownload(deps, req);
    },
    async listBuildReleases(req) {
      const builds = await listBuildReleases(deps, req.builds);
      return { builds: builds.map(({ build, releases }) => ({ build, releases: releases.map((r) => toRelease(r)) })) };
    },
  };
}

function toRelease(r: ReleaseDocument, context?: apps.ChannelContext): releases.Release {
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
    ...(context ? { context } : {}),
  };
}
