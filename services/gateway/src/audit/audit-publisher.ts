import type { JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { AuditEntryMessage, auditSubject, isDisconnected, nextConnectionChange, watchConnection } from '@hangar/events';
import type { Logger } from '@hangar/logger';
import type { AuditSpool } from './audit-spool';

const MAX_WAITING = 10_000;
const RETRY_MS = 1_000;
const PUBLISH_TIMEOUT_MS = 5_000;

/** A publish abandoned because the connection came back: it is sent again at once. */
class Reconnected extends Error {}

/**
 * Sends audit entries to the audit stream off the request path: the answer never waits for
 * JetStream. An entry JetStream has not acknowledged stays queued in this process — and in its
 * spool file (audit-spool.ts), when `AUDIT_SPOOL_DIR` is set, so a killed gateway sends it when
 * it starts again — and is sent again every second and at once when NATS reconnects (its id
 * makes a repeat a duplicate JetStream drops). A publish waiting when the connection drops is
 * not failed by nats.js: it would wait out its timeout after the reconnect, and a gateway
 * stopped in those seconds lost what it held (tests/e2e/nats-cluster-failover.test.ts), so the
 * reconnect abandons it and sends again. Past MAX_WAITING queued entries the oldest are dropped
 * and logged (without their fields).
 */
export class AuditPublisher {
  private readonly waiting: AuditEntryMessage[];
  private sending = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly js: JetStreamClient,
    private readonly prefix: string,
    /** Also where recordWrites logs an entry it could not make. */
    readonly logger: Logger,
    private readonly options: { nc?: NatsConnection; spool?: AuditSpool } = {},
  ) {
    this.waiting = [...(options.spool?.pending ?? [])];
    this.timer = setInterval(() => void this.flush(), RETRY_MS);
    this.timer.unref();
    if (options.nc) watchConnection(options.nc, (change) => change === 'reconnect' && void this.flush());
    if (this.waiting.length > 0) void this.flush();
  }

  /** Keeps `entry` (in the spool first: on return it survives this process) and sends it. */
  record(entry: AuditEntryMessage): void {
    this.options.spool?.append(entry);
    this.waiting.push(entry);
    while (this.waiting.length > MAX_WAITING) {
      const dropped = this.waiting.shift()!;
      this.logger.error({ entryId: dropped.id, operation: dropped.operation, userId: dropped.user_id, status: dropped.status }, 'audit entry dropped: NATS unreachable too long');
    }
    void this.flush();
  }

  /** Sends what is queued, in order; stops at the first failure and tries again later. */
  async flush(): Promise<void> {
    if (this.sending) return;
    const { nc } = this.options;
    // While NATS is known to be down a publish would only wait: the reconnect sends.
    if (nc && isDisconnected(nc)) return;
    this.sending = true;
    try {
      while (this.waiting.length > 0) {
        const entry = this.waiting[0]!;
        try {
          await this.publish(entry);
        } catch (err) {
          if (err instanceof Reconnected) continue;
          this.logger.warn({ err, waiting: this.waiting.length }, 'audit stream unavailable; entries kept for a retry');
          return;
        }
        this.waiting.shift();
        this.options.spool?.sent(this.waiting);
      }
    } finally {
      this.sending = false;
    }
  }

  /** At shutdown: one last try for what is queued; what is left stays in the spool. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    this.options.spool?.close();
  }

  private async publish(entry: AuditEntryMessage): Promise<void> {
    const sent = this.js.publish(auditSubject(this.prefix), JSON.stringify(entry), { msgID: entry.id, timeout: PUBLISH_TIMEOUT_MS });
    const { nc } = this.options;
    if (!nc) {
      await sent;
      return;
    }
    sent.catch(() => undefined);
    const reconnect = nextConnectionChange(nc, 'reconnect');
    try {
      await Promise.race([
        sent,
        reconnect.happened.then(() => {
          throw new Reconnected();
        }),
      ]);
    } finally {
      reconnect.cancel();
    }
  }
}
