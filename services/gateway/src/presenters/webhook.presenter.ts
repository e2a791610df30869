import type { webhooks } from '@hangar/proto';
import { formatTimestamp } from '../http/timestamps';

/** A webhook as the API shows it: never its secret (answered once, by create). */
export function presentWebhook(webhook: webhooks.Webhook, timeZone?: string) {
  return {
    id: webhook.id,
    app_id: webhook.appId,
    url: webhook.url,
    events: webhook.events,
    format: webhook.format || 'generic',
    created_at: formatTimestamp(webhook.createdAtMs, timeZone),
  };
}

/** One attempt of a delivery, as the delivery log keeps it. */
export function presentDelivery(delivery: webhooks.Delivery, timeZone?: string) {
  return {
    id: delivery.id,
    delivery_id: delivery.deliveryId,
    webhook_id: delivery.webhookId,
    event: delivery.event,
    event_id: delivery.eventId,
    attempt: delivery.attempt,
    status_code: delivery.statusCode || null,
    success: delivery.success,
    error: delivery.error || null,
    duration_ms: delivery.durationMs,
    created_at: formatTimestamp(delivery.createdAtMs, timeZone),
  };
}
