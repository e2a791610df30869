import type { releases } from '@hangar/proto';
import { releaseFields } from '@hangar/release-shape';

/**
 * Webhook bodies (docs/events.md "Webhooks"). Every body is
 * `{ event, delivered_at, event_id, occurred_at, app, ... }`; `event` and
 * `delivered_at` are added per attempt, the rest is frozen when the delivery
 * is made.
 */

/** ISO 8601 with milliseconds and a numeric UTC offset, as the API answers without a token. */
export const isoUtc = (ms: number | Date): string => new Date(ms).toISOString().replace('Z', '+00:00');

/**
 * The API's Release fields (the seed's shape, shared with the gateway through
 * @hangar/release-shape), timestamps in UTC, URLs absolute on PUBLIC_BASE_URL
 * or else relative to the gateway's origin.
 */
export function webhookRelease(release: releases.Release, baseUrl: string | undefined) {
  return releaseFields(release, (baseUrl ?? '').replace(/\/+$/, ''), isoUtc(release.createdAtMs));
}

/** The full body as sent: `event` and `delivered_at` first, then the frozen payload. */
export function webhookBody(event: string, payloadJson: string, deliveredAt: Date): string {
  return JSON.stringify({ event, delivered_at: isoUtc(deliveredAt), ...(JSON.parse(payloadJson) as Record<string, unknown>) });
}
