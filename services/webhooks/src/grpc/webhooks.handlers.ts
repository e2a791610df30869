import type { webhooks } from '@hangar/proto';
import type { AttemptDocument } from '../data/webhook-delivery.model';
import type { WebhookDocument } from '../data/webhook.model';
import { createWebhook, deleteWebhook, getWebhook, listDeliveries, listWebhooks, requireActor, testWebhook, updateWebhook } from '../domain/manage-webhooks';
import type { WebhooksDeps } from '../domain/deps';

/** Thin edge: proto in, use case, proto out. Errors map in the gRPC middleware. */
export function webhooksHandlers(deps: WebhooksDeps): webhooks.WebhooksServiceImplementation {
  return {
    async createWebhook(req) {
      const { webhook, secret } = await createWebhook(deps, requireActor(req.actor), req.appId, { url: req.url, secret: req.secret, events: req.events, format: req.format });
      return { webhook: toWebhook(webhook), secret };
    },
    async getWebhook(req) {
      return toWebhook(await getWebhook(deps, requireActor(req.actor), req.id));
    },
    async listWebhooks(req) {
      return { webhooks: (await listWebhooks(deps, requireActor(req.actor), req.appId)).map(toWebhook) };
    },
    async updateWebhook(req) {
      const input = { url: req.url, secret: req.secret, format: req.format, ...(req.updateEvents ? { events: req.events } : {}) };
      return toWebhook(await updateWebhook(deps, requireActor(req.actor), req.id, input));
    },
    async deleteWebhook(req) {
      await deleteWebhook(deps, requireActor(req.actor), req.id);
      return {};
    },
    async listDeliveries(req) {
      const page = Math.max(1, req.page?.page ?? 1);
      const perPage = Math.min(100, Math.max(1, req.page?.perPage || 25));
      const result = await listDeliveries(deps, requireActor(req.actor), req.webhookId, page, perPage);
      return { deliveries: result.attempts.map(toDelivery), total: result.total };
    },
    async testWebhook(req) {
      return toDelivery(await testWebhook(deps, requireActor(req.actor), req.id));
    },
  };
}

/** Never the secret: it leaves the service once, in CreatedWebhook. */
function toWebhook(webhook: WebhookDocument): webhooks.Webhook {
  return { id: webhook._id, appId: webhook.appId, url: webhook.url, events: webhook.events, format: webhook.format ?? 'generic', createdAtMs: webhook.createdAt.getTime() };
}

function toDelivery(attempt: AttemptDocument): webhooks.Delivery {
  return {
    id: attempt._id,
    webhookId: attempt.webhookId,
    event: attempt.event,
    eventId: attempt.eventId,
    attempt: attempt.attempt,
    statusCode: attempt.statusCode,
    success: attempt.success,
    error: attempt.finishedAt ? attempt.error : 'in progress',
    durationMs: attempt.durationMs,
    createdAtMs: (attempt.createdAt ?? attempt.startedAt).getTime(),
    deliveryId: attempt.deliveryId,
  };
}
