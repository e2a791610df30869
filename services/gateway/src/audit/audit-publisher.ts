import type { JetStreamClient } from '@nats-io/jetstream';
import { AuditEntryMessage, auditSubject } from '@hangar/events';
import type { Logger } from '@hangar/logger';

const MAX_WAITING = 10_000;
const RETRY_MS = 1_000;

/**
 * Sends audit entries to the audit stream off the request path: the answer
 * never waits for it. An entry JetStream has not acknowledged stays queued in
 * this process and is sent again every second (its id makes a repeat a
 * duplicate JetStream drops), so a NATS outage delays entries rather than
 * losing them; past MAX_WAITING queued entries the oldest are dropped and
 * logged (without their fields), and entries still queued when the process
 * ends are lost — the one way an entry can be.
 */
export class AuditPublisher {
  private readonly waiting: AuditEntryMessage[] = [];
  private sending = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly js: JetStreamClient,
    private readonly prefix: string,
    /** Also where recordWrites logs an entry it could not make. */
    readonly logger: Logger,
  ) {
    this.timer = setInterval(() => void this.flush(), RETRY_MS);
    this.timer.unref();
  }

  record(entry: AuditEntryMessage): void {
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
    this.sending = true;
    try {
      while (this.waiting.length > 0) {
        const entry = this.waiting[0]!;
        try {
          await this.js.publish(auditSubject(this.prefix), JSON.stringify(entry), { msgID: entry.id, timeout: 5_000 });
        } catch (err) {
          this.logger.warn({ err, waiting: this.waiting.length }, 'audit stream unavailable; entries kept for a retry');
          return;
        }
        this.waiting.shift();
      }
    } finally {
      this.sending = false;
    }
  }

  /** At shutdown: one last try for what is queued. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
