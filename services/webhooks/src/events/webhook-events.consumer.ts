import type { Envelope, EventHandler, EventType } from '@hangar/events';
import type { Logger } from '@hangar/logger';
import { deliveriesFromEvent } from '../domain/deliveries-from-events';
import { WEBHOOK_EVENTS } from '../domain/manage-webhooks';
import type { WebhooksDeps } from '../domain/deps';

/** The durable name prefix of this service's consumers: `webhooks-<event>`, one per event type. */
export const WEBHOOKS_DURABLE = 'webhooks';

/** Every app event a webhook can receive, each on its own durable consumer. */
export function webhookEventConsumers(deps: WebhooksDeps, logger: Logger): EventHandler<EventType>[] {
  return WEBHOOK_EVENTS.map(
    (event) =>
      ({
        durable: WEBHOOKS_DURABLE,
        event,
        handle: (envelope: Envelope) => deliveriesFromEvent(deps, logger, envelope),
      }) as EventHandler<EventType>,
  );
}
