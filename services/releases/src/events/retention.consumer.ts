import type { EventHandler, EventType } from '@hangar/events';
import type { ReleasesRepository } from '../data/releases.repository';
import type { AppsClient } from '../domain/deps';
import { applyRetention, removeAllUnder } from '../domain/prune-releases';

/**
 * Retained builds (durable `releases-retention`): after `release.created`,
 * the scheme's channels keep their N newest releases. Running it again finds
 * nothing more to remove, so a redelivered event prunes nothing twice. An
 * apps service that cannot answer throws: the event comes back with backoff.
 */
export function retentionConsumer(releases: ReleasesRepository, apps: AppsClient, onRemoved: () => void): EventHandler<'release.created'> {
  return {
    durable: 'releases-retention',
    event: 'release.created',
    async handle(envelope) {
      return (await applyRetention(releases, apps, envelope.data.channel_id, onRemoved)) > 0 ? 'done' : 'skipped';
    },
  };
}

function ownerDeleted<T extends 'app.deleted' | 'scheme.deleted' | 'channel.deleted'>(
  event: T,
  scopeOf: (data: Parameters<EventHandler<T>['handle']>[0]['data']) => { appId?: number; schemeId?: number; channelId?: number },
  releases: ReleasesRepository,
  onRemoved: () => void,
): EventHandler<T> {
  return {
    durable: 'releases-owner',
    event,
    async handle(envelope) {
      return (await removeAllUnder(releases, scopeOf(envelope.data), onRemoved)) > 0 ? 'done' : 'skipped';
    },
  };
}

/**
 * PRODUCT §6 cascades (durable `releases-owner`): deleting an app, scheme or
 * channel removes every release under it, each through its own
 * `release.deleted`, so the files consumer removes their files.
 */
export function ownerDeletedConsumers(releases: ReleasesRepository, onRemoved: () => void): EventHandler<EventType>[] {
  return [
    ownerDeleted('app.deleted', (d) => ({ appId: d.app_id }), releases, onRemoved),
    ownerDeleted('scheme.deleted', (d) => ({ schemeId: d.scheme_id }), releases, onRemoved),
    ownerDeleted('channel.deleted', (d) => ({ channelId: d.channel_id }), releases, onRemoved),
  ] as unknown as EventHandler<EventType>[];
}
