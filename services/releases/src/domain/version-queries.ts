import { FieldErrors, InvalidArgument, NotFound } from '@hangar/errors';
import type { apps } from '@hangar/proto';
import type { ReleaseDocument } from '../data/release.model';
import type { ReleasesDeps } from './deps';
import { versionSortKey } from '@hangar/versions';
import type { BuildFilter } from './build-filter';

export interface Page {
  page: number;
  perPage: number;
}

export interface ChannelReleases {
  context: apps.ChannelContext;
  releases: ReleaseDocument[];
  total: number;
}

function requireKey(channelKey: string): void {
  if (!channelKey.trim()) throw InvalidArgument.field('channel_key', "can't be blank");
}

/** The channel's releases, newest upload first; those passing the filter when one is given. */
export async function listVersions(deps: ReleasesDeps, channelKey: string, { page, perPage }: Page, filter: BuildFilter = {}): Promise<ChannelReleases> {
  requireKey(channelKey);
  const context = await deps.apps.resolveChannel({ channelKey, channelId: 0 });
  const result = await deps.channelReleases.page(context.channel!.id, (page - 1) * perPage, perPage, filter);
  return { context, ...result };
}

/** Releases newer than the given (release_version, build_version), newest version first. */
export async function latestReleases(
  deps: ReleasesDeps,
  q: { channelKey: string; releaseVersion: string; buildVersion: string; bundleId: string },
  { page, perPage }: Page,
): Promise<ChannelReleases> {
  requireKey(q.channelKey);
  const entry: FieldErrors = {};
  if (!q.releaseVersion.trim()) entry.release_version = ["can't be blank"];
  if (!q.buildVersion.trim()) entry.build_version = ["can't be blank"];
  if (Object.keys(entry).length) throw new InvalidArgument('release_version and build_version are required', entry);
  const context = await deps.apps.resolveChannel({ channelKey: q.channelKey, channelId: 0 });
  const key = versionSortKey(q.releaseVersion, q.buildVersion);
  const result = await deps.channelReleases.newerThan(context.channel!.id, key, q.bundleId.trim() || undefined, (page - 1) * perPage, perPage);
  return { context, ...result };
}

/**
 * Exact match on bundle_id with release_version and build_version, or
 * bundle_id with git_commit (the seed's two valid combinations); any other
 * combination is 422.
 */
export async function versionExists(
  deps: ReleasesDeps,
  q: { channelKey: string; bundleId: string; releaseVersion: string; buildVersion: string; gitCommit: string },
): Promise<{ context: apps.ChannelContext; release: ReleaseDocument }> {
  requireKey(q.channelKey);
  const bundleId = q.bundleId.trim();
  const byVersions = q.releaseVersion.trim() !== '' && q.buildVersion.trim() !== '';
  const byCommit = q.gitCommit.trim() !== '';
  if (!bundleId || byVersions === byCommit || (!byCommit && (q.releaseVersion.trim() === '') !== (q.buildVersion.trim() === ''))) {
    throw new InvalidArgument('Give bundle_id with release_version and build_version, or bundle_id with git_commit', {
      ...(bundleId ? {} : { bundle_id: ["can't be blank"] }),
      query: ['bundle_id + release_version + build_version, or bundle_id + git_commit'],
    });
  }
  const context = await deps.apps.resolveChannel({ channelKey: q.channelKey, channelId: 0 });
  const match = byVersions
    ? { bundleId, releaseVersion: q.releaseVersion.trim(), buildVersion: q.buildVersion.trim() }
    : { bundleId, gitCommit: q.gitCommit.trim() };
  const release = await deps.channelReleases.findExact(context.channel!.id, match);
  if (!release) throw new NotFound('No release matches that version');
  return { context, release };
}
