import type { EventHandler } from '@hangar/events';
import type { ObjectStorage } from '@hangar/storage';
import type { ReleasesRepository } from '../data/releases.repository';

/**
 * After `release.deleted`: remove the package and icon, then the tombstone.
 * A storage failure throws, so the event is redelivered with backoff until it
 * succeeds — a file is never forgotten. Deleting twice is harmless.
 */
export function releaseFilesConsumer(releases: ReleasesRepository, storage: ObjectStorage): EventHandler<'release.deleted'> {
  return {
    durable: 'releases-files',
    event: 'release.deleted',
    async handle(envelope) {
      const release = await releases.findAnyById(envelope.data.release_id);
      if (!release?.deletedAt) return 'skipped';
      await storage.delete(release.objectKey);
      if (release.iconKey) await storage.delete(release.iconKey);
      await releases.purge(release._id);
      return 'done';
    },
  };
}
