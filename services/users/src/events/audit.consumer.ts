import { AckPolicy, DeliverPolicy } from '@nats-io/jetstream';
import { EventBus, auditEntrySchema, ensureAuditStream } from '@hangar/events';
import type { Logger } from '@hangar/logger';
import { AuditDeps, recordAuditEntry } from '../domain/audit-log';

const DURABLE = 'users-audit';

export interface RunningAuditConsumer {
  stop(): Promise<void>;
}

/**
 * Stores what the gateways report into the audit log, from the audit stream
 * on a durable consumer: an entry published while this service is down waits
 * in the stream (a week) and is stored when it is back. An entry is acked only
 * once stored; a redelivered one is refused by its id, so none is stored twice.
 */
export async function startAuditConsumer(deps: AuditDeps, options: { bus: EventBus; prefix: string; logger: Logger }): Promise<RunningAuditConsumer> {
  const { bus, prefix } = options;
  const log = options.logger.child({ consumer: DURABLE });
  const stream = await ensureAuditStream(bus.jsm, prefix);
  try {
    await bus.jsm.consumers.info(stream, DURABLE);
  } catch {
    await bus.jsm.consumers.add(stream, { durable_name: DURABLE, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, ack_wait: 30_000 * 1e6, max_deliver: -1 });
  }
  const consumer = await bus.js.consumers.get(stream, DURABLE);
  let stopping = false;
  let failures = 0;
  const loop = (async () => {
    while (!stopping) {
      try {
        const fetched = await consumer.fetch({ max_messages: 100, expires: 1000 });
        for await (const msg of fetched) {
          const parsed = auditEntrySchema.safeParse(safeJson(msg.string()));
          if (!parsed.success) {
            log.error({ seq: msg.seq }, 'terminating a malformed audit message');
            msg.term();
            continue;
          }
          try {
            await recordAuditEntry(deps, parsed.data);
            msg.ack();
          } catch (err) {
            failures += 1;
            const delayMs = Math.min(1_000 * 2 ** (failures - 1), 30_000);
            log.warn({ err, retryInMs: delayMs }, 'could not store an audit entry; retrying');
            msg.nak(delayMs);
          }
        }
        failures = 0;
      } catch (err) {
        if (stopping) break;
        log.warn({ err }, 'audit stream unavailable; retrying');
        await new Promise((r) => setTimeout(r, 1_000).unref());
      }
    }
  })();
  return {
    async stop() {
      stopping = true;
      await loop;
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
