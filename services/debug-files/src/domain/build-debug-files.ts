import { InvalidArgument } from '@hangar/errors';
import type { common } from '@hangar/proto';
import { findEach } from '@hangar/mongo';
import type { DebugFileDocument } from '../data/debug-file.model';
import type { DebugFilesDeps } from './deps';

/** A page of releases at most: the gateway asks once per page it answers. */
export const MAX_BUILDS = 100;

const buildKey = (b: Pick<common.BuildRef, 'channelId' | 'releaseVersion' | 'buildVersion'>) => JSON.stringify([b.channelId, b.releaseVersion, b.buildVersion]);

/**
 * The live debug files of each build, in the order asked. No caller check here: the gateway
 * asks only for builds whose release the caller was just allowed to read, and a debug file of
 * the same channel is readable by the same people (channel key or app membership).
 *
 * One equality query per distinct build (the (channelId, releaseVersion, buildVersion) index),
 * never `$in`/`$or`, which FerretDB serves from no index.
 */
export async function listBuildDebugFiles(deps: Pick<DebugFilesDeps, 'files'>, builds: common.BuildRef[]): Promise<{ build: common.BuildRef; files: DebugFileDocument[] }[]> {
  if (builds.length > MAX_BUILDS) throw InvalidArgument.field('builds', `at most ${MAX_BUILDS} builds per call`);
  const keys = builds.map(buildKey);
  const found = await findEach(keys, (key) => {
    const [channelId, releaseVersion, buildVersion] = JSON.parse(key) as [number, string, string];
    return deps.files.liveOfBuild(channelId, releaseVersion, buildVersion);
  });
  const byBuild = new Map<string, DebugFileDocument[]>();
  for (const file of found) {
    const key = buildKey(file);
    byBuild.set(key, [...(byBuild.get(key) ?? []), file]);
  }
  return builds.map((build, i) => ({ build, files: byBuild.get(keys[i]!) ?? [] }));
}
