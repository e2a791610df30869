import { AckPolicy, DeliverPolicy } from '@nats-io/jetstream';
import { EventBus, EventType, durableNameOf, ensureEventStream, subjectOf } from '@hangar/events';
import type { Logger } from '@hangar/logger';

/** The durable prefix the apps service consumed webhook events with before they moved here. */
export const LEGACY_DURABLE = 'apps-webhooks';

/**
 * Events the apps service had not yet turned into deliveries when webhooks
 * moved out must not be lost, nor those it had be made again in bulk: each of
 * this service's durables starts where the apps service's one stopped (after
 * its ack floor), and the old durable is removed. Anything redelivered above
 * the floor makes no second delivery (delivery ids are derived from webhook
 * and event). A durable already taken over, or never there (a new
 * installation), is left to the consumer runner.
 */
export async function takeOverLegacyDurables(bus: EventBus, prefix: string, durable: string, events: readonly EventType[], logger: Logger): Promise<void> {
  const stream = await ensureEventStream(bus.jsm, prefix);
  for (const event of events) {
    const legacyName = durableNameOf(LEGACY_DURABLE, event);
    const legacy = await bus.jsm.consumers.info(stream, legacyName).catch(() => undefined);
    if (!legacy) continue;
    const name = durableNameOf(durable, event);
    const existing = await bus.jsm.consumers.info(stream, name).catch(() => undefined);
    if (!existing) {
      const startSeq = legacy.ack_floor.stream_seq + 1;
      await bus.jsm.consumers.add(stream, {
        durable_name: name,
        filter_subject: subjectOf(event, prefix),
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.StartSequence,
        opt_start_seq: startSeq,
        ack_wait: 30_000 * 1e6,
        max_deliver: -1,
      });
      logger.info({ event, from: legacyName, to: name, startSeq }, 'webhook events continue where the apps service stopped');
    }
    await bus.jsm.consumers.delete(stream, legacyName).catch((err: unknown) => logger.warn({ err, durable: legacyName }, 'could not remove the apps service\'s old webhook consumer'));
  }
}
