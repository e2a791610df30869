import { NotFound } from '@hangar/errors';
import { createEnvelope, stableUuid } from '@hangar/events';
import type { ReleaseDocument } from '../data/release.model';
import type { ReleasesRepository } from '../data/releases.repository';
import type { AppsClient } from './deps';

/**
 * Deletes made by the system rather than a user: retained builds and the
 * cascades of app / scheme / channel deletes. Each goes the normal way — the
 * release is tombstoned in the same write as its `release.deleted`, and the
 * files consumer then removes its files (retrying until storage answers) and
 * the tombstone. The event id is derived from the release id, so two
 * processes pruning the same release at once publish one event (the stream
 * drops the same id twice) and consumers see one.
 */
export async function removeRelease(releases: ReleasesRepository, release: Pick<ReleaseDocument, '_id' | 'appId' | 'schemeId' | 'channelId'>): Promise<boolean> {
  const event = {
    ...createEnvelope('release.deleted', { release_id: release._id, app_id: release.appId, scheme_id: release.schemeId, channel_id: release.channelId }, 'releases'),
    id: stableUuid(`release.deleted:${release._id}`),
  };
  return releases.markDeleted(release, event);
}

const BATCH = 100;

/** Every live release of an app, scheme or channel; answers how many went (0 the second time). */
export async function removeAllUnder(releases: ReleasesRepository, scope: { appId?: number; schemeId?: number; channelId?: number }, onRemoved: () => void): Promise<number> {
  let removed = 0;
  for (;;) {
    const batch = await releases.liveUnder(scope, BATCH);
    for (const release of batch) if (await removeRelease(releases, release)) removed += 1;
    if (batch.length > 0) onRemoved();
    if (batch.length < BATCH) return removed;
  }
}

/**
 * PRODUCT §6 retained builds, after a release of `channelId` was created:
 * when its scheme keeps N > 0 builds, every channel of the scheme keeps its N
 * newest uploads and the older ones are removed. A release whose channel is
 * already gone (created while its channel, scheme or app was being deleted) is
 * removed too: the cascade that ran before it could not see it.
 */
export async function applyRetention(releases: ReleasesRepository, apps: AppsClient, channelId: number, onRemoved: () => void): Promise<number> {
  let context;
  try {
    context = await apps.resolveChannel({ channelKey: '', channelId });
  } catch (err) {
    if (err instanceof NotFound) return removeAllUnder(releases, { channelId }, onRemoved);
    throw err;
  }
  const keep = context.scheme?.retainedBuilds ?? 0;
  const schemeId = context.scheme?.id;
  if (keep <= 0 || !schemeId) return 0;
  let removed = 0;
  for (const channel of await releases.channelsOfScheme(schemeId)) {
    for (const release of await releases.beyondNewest(channel, keep)) if (await removeRelease(releases, release)) removed += 1;
  }
  if (removed > 0) onRemoved();
  return removed;
}
