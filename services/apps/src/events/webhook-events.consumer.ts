import { NotFound } from '@hangar/errors';
import type { Envelope, EventHandler, EventType } from '@hangar/events';
import type { ServiceClient } from '@hangar/grpc';
import type { Logger } from '@hangar/logger';
import type { releases } from '@hangar/proto';
import type { AppsDeps } from '../domain/apps-deps';
import { WEBHOOK_EVENTS } from '../domain/manage-webhooks';
import type { WebhookDocument } from '../data/webhook.model';
import { isoUtc, webhookRelease } from '../webhooks/payloads';
import { stableUuid } from '../webhooks/stable-id';

export type ReleasesClient = ServiceClient<typeof releases.ReleasesServiceDefinition>;

export interface WebhookEventsOptions {
  releases: ReleasesClient;
  publicBaseUrl?: string;
  maxAttempts: number;
  logger: Logger;
}

const subscribed = (webhook: WebhookDocument, event: string) => webhook.events.length === 0 || webhook.events.includes(event);

/**
 * Turns an app's events into deliveries for its webhooks (one durable per
 * event type, `apps-webhooks-<event>`). A delivery's id is derived from
 * (webhook, event id) and its insert is refused a second time, so a
 * redelivered event makes nothing twice; the dispatcher then sends them.
 * `release.created` is sent only when the release's scheme has
 * `new_build_callout` on, with the release as the API shows it (read from the
 * releases service). `app.deleted` is the app's webhooks' last event: they
 * are removed once its deliveries are made.
 */
export function webhookEventConsumers(deps: AppsDeps, options: WebhookEventsOptions): EventHandler<EventType>[] {
  return WEBHOOK_EVENTS.map(
    (event) =>
      ({
        durable: 'apps-webhooks',
        event,
        handle: (envelope: Envelope) => handle(deps, options, envelope),
      }) as EventHandler<EventType>,
  );
}

async function handle(deps: AppsDeps, options: WebhookEventsOptions, envelope: Envelope): Promise<'done' | 'skipped'> {
  const data = envelope.data as { app_id: number; scheme_id?: number; channel_id?: number; release_id?: number };
  const webhooks = (await deps.hooks.webhooks.listByApp(data.app_id)).filter((w) => subscribed(w, envelope.type));
  let made = 0;
  if (webhooks.length > 0) {
    const payload = await payloadOf(deps, options, envelope);
    if (payload) {
      const payloadJson = JSON.stringify(payload);
      for (const webhook of webhooks) {
        const created = await deps.hooks.deliveries.create({
          _id: stableUuid(`webhook-delivery:${webhook._id}:${envelope.id}`),
          webhookId: webhook._id,
          appId: data.app_id,
          event: envelope.type,
          eventId: envelope.id,
          payloadJson,
          url: webhook.url,
          secretEnc: webhook.secretEnc,
          state: 'pending',
          maxAttempts: options.maxAttempts,
          nextAttemptAt: new Date(),
        });
        if (created) made += 1;
      }
      if (made > 0) deps.hooks.dispatcher.poke();
    }
  }
  if (envelope.type === 'app.deleted') {
    // After the deliveries above exist (they keep their own URL and secret).
    const removed = await deps.hooks.webhooks.removeAllOfApp(data.app_id);
    return made + removed > 0 ? 'done' : 'skipped';
  }
  return made > 0 ? 'done' : 'skipped';
}

/** The body without `event` and `delivered_at`; undefined when nothing is to be sent. */
async function payloadOf(deps: AppsDeps, options: WebhookEventsOptions, envelope: Envelope): Promise<Record<string, unknown> | undefined> {
  const data = envelope.data as { app_id: number; scheme_id?: number; channel_id?: number; release_id?: number };
  const common = { event_id: envelope.id, occurred_at: isoUtc(Date.parse(envelope.occurredAt)) };
  if (envelope.type === 'app.deleted') {
    // The app's record is gone with the event; its id is what subscribers keep.
    return { ...common, app: { id: data.app_id, name: null }, data: envelope.data };
  }
  const app = await deps.apps.findById(data.app_id);
  if (!app) return undefined; // deleted since: its app.deleted covers it
  if (envelope.type !== 'release.created') return { ...common, app: { id: app._id, name: app.name }, data: envelope.data };

  const scheme = await deps.schemes.findById(data.scheme_id!);
  if (!scheme?.newBuildCallout) return undefined;
  const channel = await deps.channels.findById(data.channel_id!);
  if (!channel) return undefined;
  let release: releases.Release;
  try {
    release = await options.releases.getRelease({ id: data.release_id! });
  } catch (err) {
    if (err instanceof NotFound) {
      options.logger.info({ eventId: envelope.id, releaseId: data.release_id }, 'release gone before its new-build callout; nothing sent');
      return undefined;
    }
    throw err; // releases unavailable: the event comes back later
  }
  return {
    ...common,
    app: { id: app._id, name: app.name },
    scheme: { id: scheme._id, name: scheme.name },
    channel: { id: channel._id, slug: channel.slug, name: channel.name, device_type: channel.deviceType },
    release: webhookRelease(release, options.publicBaseUrl),
  };
}
