import type { EventHandler, EventType } from '@hangar/events';
import type { ObjectStorage } from '@hangar/storage';
import { type DebugFilesRepository, type Scope, objectKeysOf } from '../data/debug-files.repository';

const BATCH = 100;

/**
 * Removes every debug file under a scope: each archive (and its stored members) first, then its
 * record, so a crash or a storage outage in between leaves records that the
 * redelivered event finds again. Running twice finds nothing the second time.
 */
async function removeAllUnder(files: DebugFilesRepository, storage: ObjectStorage, scope: Scope): Promise<number> {
  let removed = 0;
  for (;;) {
    const batch = await files.batchUnder(scope, BATCH);
    for (const file of batch) {
      for (const key of objectKeysOf(file)) await storage.delete(key);
      await files.remove(file._id);
      removed += 1;
    }
    if (batch.length < BATCH) return removed;
  }
}

function ownerDeleted<T extends 'app.deleted' | 'scheme.deleted' | 'channel.deleted'>(
  event: T,
  scopeOf: (data: Parameters<EventHandler<T>['handle']>[0]['data']) => Scope,
  files: DebugFilesRepository,
  storage: ObjectStorage,
): EventHandler<T> {
  return {
    durable: 'debug-files-owner',
    event,
    async handle(envelope) {
      return (await removeAllUnder(files, storage, scopeOf(envelope.data))) > 0 ? 'done' : 'skipped';
    },
  };
}

/** PRODUCT §6: deleting an app, a scheme or a channel removes its debug files, archives included. */
export function ownerDeletedConsumers(files: DebugFilesRepository, storage: ObjectStorage): EventHandler<EventType>[] {
  return [
    ownerDeleted('app.deleted', (d) => ({ appId: d.app_id }), files, storage),
    ownerDeleted('scheme.deleted', (d) => ({ schemeId: d.scheme_id }), files, storage),
    ownerDeleted('channel.deleted', (d) => ({ channelId: d.channel_id }), files, storage),
  ] as unknown as EventHandler<EventType>[];
}
