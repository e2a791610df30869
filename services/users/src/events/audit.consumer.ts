import { EventBus, RunningBatchConsumer, auditEntrySchema, ensureAuditStream, startBatchConsumer } from '@hangar/events';
import type { Logger } from '@hangar/logger';
import { AuditDeps, recordAuditEntry } from '../domain/audit-log';

/**
 * Stores what the gateways report into the audit log, from the audit stream
 * on a durable consumer: an entry published while this service is down waits
 * in the stream (a week) and is stored when it is back. An entry is acked only
 * once stored; a redelivered one is refused by its id, so none is stored twice.
 */
export async function startAuditConsumer(deps: AuditDeps, options: { bus: EventBus; prefix: string; logger: Logger }): Promise<RunningBatchConsumer> {
  const stream = await ensureAuditStream(options.bus.jsm, options.prefix);
  return startBatchConsumer(
    {
      durable: 'users-audit',
      stream,
      schema: auditEntrySchema,
      batchSize: 100,
      ackWaitMs: 30_000,
      async handle(batch) {
        for (const { data } of batch) await recordAuditEntry(deps, data);
      },
    },
    { bus: options.bus, logger: options.logger },
  );
}
