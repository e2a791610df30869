import { DeadlineExceeded, Unavailable } from '@hangar/errors';
import type { common, debugFiles, releases } from '@hangar/proto';
import type { ServiceClients } from './service-clients';

/**
 * Releases and debug files of the same build (channel, release version, build version), linked
 * where the gateway composes its answers: the two services never read each other's collections.
 * One call per answer, whatever the page size, and none for an empty page.
 */

const buildKey = (b: common.BuildRef) => JSON.stringify([b.channelId, b.releaseVersion, b.buildVersion]);
const buildOf = (x: { channelId: number; releaseVersion: string; buildVersion: string }): common.BuildRef => ({
  channelId: x.channelId,
  releaseVersion: x.releaseVersion,
  buildVersion: x.buildVersion,
});

/** Distinct builds of `items`, in first-seen order: a page of one build asks once. */
function distinctBuilds(items: { channelId: number; releaseVersion: string; buildVersion: string }[]): common.BuildRef[] {
  const seen = new Map<string, common.BuildRef>();
  for (const item of items) seen.set(buildKey(buildOf(item)), buildOf(item));
  return [...seen.values()];
}

/** Each release's debug files (by release id). */
export async function debugFilesOfReleases(clients: Pick<ServiceClients, 'debugFiles'>, list: releases.Release[]): Promise<Map<number, debugFiles.DebugFile[]>> {
  const builds = distinctBuilds(list);
  if (builds.length === 0) return new Map();
  const answer = await clients.debugFiles.listBuildDebugFiles({ builds });
  const byBuild = new Map(answer.builds.map((b) => [buildKey(b.build!), b.debugFiles]));
  return new Map(list.map((r) => [r.id, byBuild.get(buildKey(buildOf(r))) ?? []]));
}

/** Each debug file's releases (by debug file id). */
export async function releasesOfDebugFiles(clients: Pick<ServiceClients, 'releases'>, files: debugFiles.DebugFile[]): Promise<Map<number, releases.Release[]>> {
  const builds = distinctBuilds(files);
  if (builds.length === 0) return new Map();
  const answer = await clients.releases.listBuildReleases({ builds });
  const byBuild = new Map(answer.builds.map((b) => [buildKey(b.build!), b.releases]));
  return new Map(files.map((f) => [f.id, byBuild.get(buildKey(buildOf(f))) ?? []]));
}

/**
 * The links are extras on answers that must not depend on the other service: with it down (or
 * past its deadline) the field is left out rather than the upload failing (the client would
 * repeat it) or `latest` / `version_exist` — what CI and the fastlane plugin call — going 503.
 * Any other error is a bug and goes on.
 */
export async function linksIfAvailable<T>(fetch: Promise<Map<number, T[]>>): Promise<Map<number, T[]> | undefined> {
  try {
    return await fetch;
  } catch (err) {
    if (err instanceof Unavailable || err instanceof DeadlineExceeded) return undefined;
    throw err;
  }
}
