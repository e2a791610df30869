import { NotFound, Unauthenticated } from '@hangar/errors';
import type { releases } from '@hangar/proto';
import type { Actor, ReleasesDeps } from './deps';

/**
 * A release's downloads and installs per UTC day, for the app's collaborators
 * (member and up: whoever may read the app may read its builds' counts).
 */
export async function releaseStats(deps: ReleasesDeps, actor: Actor | undefined, releaseId: number): Promise<releases.ReleaseStats> {
  if (!actor?.userId) throw new Unauthenticated();
  const release = await deps.channelReleases.byId(releaseId);
  if (!release) throw new NotFound(`Release ${releaseId} not found`);
  await deps.apps.checkPermission({ actor, appId: release.appId, action: 'releases.read' });
  const days = (await deps.downloadStats.daysOfRelease(releaseId)).sort((a, b) => a.day.localeCompare(b.day));
  return {
    releaseId,
    total: days.reduce((sum, d) => sum + d.total, 0),
    unique: days.reduce((sum, d) => sum + d.unique, 0),
    days: days.map((d) => ({ date: d.day, total: d.total, unique: d.unique })),
  };
}
