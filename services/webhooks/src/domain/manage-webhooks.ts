import { randomUUID } from 'node:crypto';
import { FailedPrecondition, InvalidArgument, NotFound, Unauthenticated } from '@hangar/errors';
import { EVENT_REGISTRY, EventType } from '@hangar/events';
import type { AttemptDocument } from '../data/webhook-delivery.model';
import type { WebhookDocument } from '../data/webhook.model';
import { WEBHOOK_FORMATS, WebhookFormat, isWebhookFormat } from './chat/formats';
import { isoUtc } from './payloads';
import { generateWebhookSecret } from './secret-box';
import type { Actor, WebhooksDeps } from './deps';

/**
 * Event types a webhook can receive: those that belong to an app (they carry
 * `app_id`). The audit log's entries are for a SIEM, not app webhooks (and
 * their `app_id` may be null); a tester's invitation is the mailer's alone.
 */
const NOT_FOR_WEBHOOKS: ReadonlySet<EventType> = new Set(['audit.recorded', 'tester.invited']);
export const WEBHOOK_EVENTS = (Object.keys(EVENT_REGISTRY) as EventType[]).filter((type) => 'app_id' in EVENT_REGISTRY[type].schema.shape && !NOT_FOR_WEBHOOKS.has(type));

/** The sample event of `POST /api/webhooks/:id/test`. */
export const TEST_EVENT = 'webhook.test';

export const MAX_WEBHOOKS_PER_APP = 20;

export interface WebhookInput {
  url?: string;
  secret?: string;
  events?: string[];
  /** generic (the default) or a chat platform's preset. */
  format?: string;
}

/**
 * Zealot's webhook event names, accepted for the events they mean (Zealot
 * calls its download webhook `download_events`; Hangar's event is
 * `release.downloaded`), so a subscription copied from Zealot works.
 */
export const ZEALOT_EVENT_NAMES: Readonly<Record<string, string>> = { download_events: 'release.downloaded' };

function validateEvents(events: string[]): string[] {
  const wanted = [...new Set(events.map((e) => e.trim()).filter(Boolean).map((e) => ZEALOT_EVENT_NAMES[e] ?? e))];
  const unknown = wanted.filter((e) => !(WEBHOOK_EVENTS as string[]).includes(e));
  if (unknown.length > 0) {
    throw InvalidArgument.field('events', `${unknown.join(', ')} ${unknown.length === 1 ? 'is not an event' : 'are not events'} a webhook can receive (${WEBHOOK_EVENTS.join(', ')})`);
  }
  return wanted;
}

function validateFormat(format: string): WebhookFormat {
  const wanted = format.trim().toLowerCase();
  if (!isWebhookFormat(wanted)) throw InvalidArgument.field('format', `must be one of ${WEBHOOK_FORMATS.join(', ')}`);
  return wanted;
}

function validateSecret(secret: string): string {
  if (secret.length < 8 || secret.length > 256 || !secret.trim()) throw InvalidArgument.field('secret', 'must be 8 to 256 characters');
  return secret;
}

/** Every RPC acts for someone the gateway authenticated. */
export function requireActor(actor: Actor | undefined): Actor {
  if (!actor?.userId) throw new Unauthenticated();
  return actor;
}

/**
 * The webhook, in PRODUCT §2's order: it exists (404), then the actor may
 * manage its app's webhooks (403, decided by the apps service). A webhook
 * whose app is gone (its app.deleted not handled yet) does not exist.
 */
async function webhookFor(deps: WebhooksDeps, actor: Actor, id: number): Promise<WebhookDocument> {
  const webhook = await deps.webhooks.findById(id);
  if (!webhook) throw new NotFound(`Webhook ${id} not found`);
  try {
    await deps.apps.requireWebhookManager(actor, webhook.appId);
  } catch (err) {
    if (err instanceof NotFound) throw new NotFound(`Webhook ${id} not found`);
    throw err;
  }
  return webhook;
}

/** The secret is answered here and never again. */
export async function createWebhook(deps: WebhooksDeps, actor: Actor, appId: number, input: WebhookInput): Promise<{ webhook: WebhookDocument; secret: string }> {
  await deps.apps.requireWebhookManager(actor, appId);
  if (!input.url?.trim()) throw InvalidArgument.field('url', "can't be blank");
  const events = validateEvents(input.events ?? []);
  const format = input.format ? validateFormat(input.format) : 'generic';
  const secret = input.secret ? validateSecret(input.secret) : generateWebhookSecret();
  const url = await deps.policy.checkUrl(input.url);
  if ((await deps.webhooks.countByApp(appId)) >= MAX_WEBHOOKS_PER_APP) {
    throw new FailedPrecondition(`An app can have at most ${MAX_WEBHOOKS_PER_APP} webhooks`);
  }
  const id = await deps.webhooks.nextId();
  const webhook = await deps.webhooks.create({ _id: id, appId, url: url.toString(), secretEnc: deps.box.seal(secret, id), events, format });
  return { webhook, secret };
}

export async function getWebhook(deps: WebhooksDeps, actor: Actor, id: number): Promise<WebhookDocument> {
  return webhookFor(deps, actor, id);
}

export async function listWebhooks(deps: WebhooksDeps, actor: Actor, appId: number): Promise<WebhookDocument[]> {
  await deps.apps.requireWebhookManager(actor, appId);
  return deps.webhooks.listByApp(appId);
}

/** Partial: fields left out keep their values; a new URL, secret or format also applies to retries still pending. */
export async function updateWebhook(deps: WebhooksDeps, actor: Actor, id: number, input: WebhookInput): Promise<WebhookDocument> {
  await webhookFor(deps, actor, id);
  const changes: Partial<Pick<WebhookDocument, 'url' | 'secretEnc' | 'events' | 'format'>> = {};
  if (input.events !== undefined) changes.events = validateEvents(input.events);
  if (input.format !== undefined && input.format !== '') changes.format = validateFormat(input.format);
  if (input.secret !== undefined && input.secret !== '') changes.secretEnc = deps.box.seal(validateSecret(input.secret), id);
  if (input.url !== undefined) {
    if (!input.url.trim()) throw InvalidArgument.field('url', "can't be blank");
    changes.url = (await deps.policy.checkUrl(input.url)).toString();
  }
  const webhook = await deps.webhooks.update(id, changes);
  if (!webhook) throw new NotFound(`Webhook ${id} not found`);
  if (changes.url || changes.secretEnc || changes.format) await deps.deliveries.retarget(id, { url: webhook.url, secretEnc: webhook.secretEnc, format: webhook.format ?? 'generic' });
  return webhook;
}

/** The webhook, its pending retries and its delivery log go together. */
export async function deleteWebhook(deps: WebhooksDeps, actor: Actor, id: number): Promise<void> {
  await webhookFor(deps, actor, id);
  await deps.webhooks.remove(id);
  await deps.deliveries.removeAllOfWebhook(id);
}

export async function listDeliveries(deps: WebhooksDeps, actor: Actor, webhookId: number, page: number, perPage: number): Promise<{ attempts: AttemptDocument[]; total: number }> {
  await webhookFor(deps, actor, webhookId);
  return deps.deliveries.pageOfWebhook(webhookId, (page - 1) * perPage, perPage);
}

/**
 * Sends a sample event (`webhook.test`) now, once, signed like every other,
 * and answers the attempt as the delivery log records it. Not retried.
 */
export async function testWebhook(deps: WebhooksDeps, actor: Actor, id: number): Promise<AttemptDocument> {
  const webhook = await webhookFor(deps, actor, id);
  const app = await deps.apps.app(webhook.appId);
  if (!app) throw new NotFound(`Webhook ${id} not found`);
  const eventId = randomUUID();
  const delivery = {
    _id: randomUUID(),
    webhookId: webhook._id,
    appId: app.id,
    event: TEST_EVENT,
    eventId,
    payloadJson: JSON.stringify({
      event_id: eventId,
      occurred_at: isoUtc(Date.now()),
      app: { id: app.id, name: app.name },
      webhook: { id: webhook._id, url: webhook.url, events: webhook.events, format: webhook.format ?? 'generic' },
      message: 'This is a test delivery from Hangar.',
    }),
    url: webhook.url,
    secretEnc: webhook.secretEnc,
    format: webhook.format ?? 'generic',
    state: 'pending' as const,
    maxAttempts: 1,
    // Sent below, not by the dispatcher's poll; should this process die mid-call, the
    // dispatcher closes the attempt as interrupted a day later.
    nextAttemptAt: new Date(Date.now() + 24 * 60 * 60 * 1_000),
  };
  await deps.deliveries.create(delivery);
  const created = await deps.deliveries.findById(delivery._id);
  const attempt = created ? await deps.dispatcher.attempt(created, deps.testTimeoutMs) : null;
  if (!attempt) throw new FailedPrecondition('The test delivery could not be made, try again');
  return attempt;
}
