import { stableUuid, type Envelope } from '@hangar/events';
import type { Logger } from '@hangar/logger';
import type { WebhookDocument } from '../data/webhook.model';
import { isoUtc, webhookRelease } from './payloads';
import type { WebhooksDeps } from './deps';

const subscribed = (webhook: WebhookDocument, event: string) => webhook.events.length === 0 || webhook.events.includes(event);

type AppEventData = { app_id: number; scheme_id?: number; channel_id?: number; release_id?: number };

/**
 * Turns one of an app's events into deliveries for its webhooks. A
 * delivery's id is derived from (webhook, event id) and its insert is refused
 * a second time, so a redelivered event makes nothing twice; the dispatcher
 * then sends them. `release.created` is sent only when the release's scheme
 * has `new_build_callout` on, with the release as the API shows it (read from
 * the releases service). `app.deleted` is the app's webhooks' last event:
 * they are removed once its deliveries are made (the cascade of an app's
 * deletion; schemes and channels own no webhooks).
 */
export async function deliveriesFromEvent(deps: WebhooksDeps, logger: Logger, envelope: Envelope): Promise<'done' | 'skipped'> {
  const data = envelope.data as AppEventData;
  const webhooks = (await deps.webhooks.listByApp(data.app_id)).filter((w) => subscribed(w, envelope.type));
  let made = 0;
  if (webhooks.length > 0) {
    const payload = await payloadOf(deps, logger, envelope);
    if (payload) {
      const payloadJson = JSON.stringify(payload);
      for (const webhook of webhooks) {
        const created = await deps.deliveries.create({
          _id: stableUuid(`webhook-delivery:${webhook._id}:${envelope.id}`),
          webhookId: webhook._id,
          appId: data.app_id,
          event: envelope.type,
          eventId: envelope.id,
          payloadJson,
          url: webhook.url,
          secretEnc: webhook.secretEnc,
          format: webhook.format ?? 'generic',
          state: 'pending',
          maxAttempts: deps.maxAttempts,
          nextAttemptAt: new Date(),
        });
        if (created) made += 1;
      }
      if (made > 0) deps.dispatcher.poke();
    }
  }
  if (envelope.type === 'app.deleted') {
    // After the deliveries above exist (they keep their own URL and secret).
    const removed = await deps.webhooks.removeAllOfApp(data.app_id);
    return made + removed > 0 ? 'done' : 'skipped';
  }
  return made > 0 ? 'done' : 'skipped';
}

/** The body without `event` and `delivered_at`; undefined when nothing is to be sent. */
async function payloadOf(deps: WebhooksDeps, logger: Logger, envelope: Envelope): Promise<Record<string, unknown> | undefined> {
  const data = envelope.data as AppEventData;
  const common = { event_id: envelope.id, occurred_at: isoUtc(Date.parse(envelope.occurredAt)) };
  if (envelope.type === 'app.deleted') {
    // The app's record is gone with the event; its id is what subscribers keep.
    return { ...common, app: { id: data.app_id, name: null }, data: envelope.data };
  }
  if (envelope.type !== 'release.created') {
    const app = await deps.apps.app(data.app_id);
    if (!app) return undefined; // deleted since: its app.deleted covers it
    return { ...common, app, data: envelope.data };
  }

  const context = await deps.apps.channel(data.channel_id!);
  if (!context || context.app.id !== data.app_id || !context.scheme.newBuildCallout) return undefined;
  const release = await deps.releases.release(data.release_id!);
  if (!release) {
    logger.info({ eventId: envelope.id, releaseId: data.release_id }, 'release gone before its new-build callout; nothing sent');
    return undefined;
  }
  const { app, scheme, channel } = context;
  return {
    ...common,
    app,
    scheme: { id: scheme.id, name: scheme.name },
    channel: { id: channel.id, slug: channel.slug, name: channel.name, device_type: channel.deviceType },
    release: webhookRelease(release, deps.publicBaseUrl),
  };
}
