import type { EventHandler } from '@hangar/events';
import type { ObjectStorage } from '@hangar/storage';
import { type DebugFilesRepository, objectKeysOf } from '../data/debug-files.repository';

/**
 * After `debug_file.deleted`: remove the archive (and the members stored beside it), then the tombstone. A
 * storage failure throws, so the event is redelivered with backoff until it
 * succeeds — an archive is never forgotten. Deleting twice is harmless.
 */
export function debugFileArchiveConsumer(files: DebugFilesRepository, storage: ObjectStorage): EventHandler<'debug_file.deleted'> {
  return {
    durable: 'debug-files-archives',
    event: 'debug_file.deleted',
    async handle(envelope) {
      const file = await files.findAnyById(envelope.data.debug_file_id);
      if (!file?.deletedAt) return 'skipped';
      for (const key of objectKeysOf(file)) await storage.delete(key);
      await files.purge(file._id);
      return 'done';
    },
  };
}
