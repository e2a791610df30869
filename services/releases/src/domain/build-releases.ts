import { InvalidArgument } from '@hangar/errors';
import type { common } from '@hangar/proto';
import type { ReleaseDocument } from '../data/release.model';
import type { ReleasesDeps } from './deps';

/** A page of debug files at most: the gateway asks once per page it answers. */
export const MAX_BUILDS = 100;

/**
 * The live releases of each build, in the order asked, newest upload first: the releases a
 * debug file belongs to. Answered from each channel's cached live releases (channel-releases.ts),
 * so a page of debug files costs no query while its channels are unchanged. No caller check: the
 * gateway asks only for builds of debug files the caller was just allowed to read.
 */
export async function listBuildReleases(deps: Pick<ReleasesDeps, 'channelReleases'>, builds: common.BuildRef[]): Promise<{ build: common.BuildRef; releases: ReleaseDocument[] }[]> {
  if (builds.length > MAX_BUILDS) throw InvalidArgument.field('builds', `at most ${MAX_BUILDS} builds per call`);
  const channels = new Map<number, Promise<ReleaseDocument[]>>();
  const liveOf = (channelId: number) => {
    if (!channels.has(channelId)) channels.set(channelId, deps.channelReleases.live(channelId));
    return channels.get(channelId)!;
  };
  return Promise.all(
    builds.map(async (build) => ({
      build,
      releases: (await liveOf(build.channelId)).filter((r) => r.releaseVersion === build.releaseVersion && r.buildVersion === build.buildVersion),
    })),
  );
}
