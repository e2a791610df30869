import fs from 'node:fs';
import path from 'node:path';
import { AuditEntryMessage, auditEntrySchema } from '@hangar/events';
import type { Logger } from '@hangar/logger';

const FILE = 'pending.jsonl';
/** Past this many lines in the file while entries are still waiting, it is rewritten with only those. */
const REWRITE_AT_LINES = 1_000;

/**
 * The audit entries a gateway has recorded but JetStream has not yet acknowledged, kept in a
 * file as well as in memory, so that a gateway killed (kill -9, the OOM killer) with entries
 * still unsent sends them when it starts again on the same folder (`AUDIT_SPOOL_DIR`; one
 * folder per gateway process: the launcher gives each replica its own, Kubernetes a pod's
 * emptyDir, which outlives the container's restarts). An entry sent twice is harmless: the
 * audit stream drops a repeated id within its duplicate window and the users service refuses
 * a stored id after it.
 *
 * Each entry is appended with one synchronous write before the answer it records goes out
 * (record-writes.middleware.ts): a write to the page cache, a few microseconds, which a killed
 * process cannot undo. The file is emptied whenever nothing is waiting. No fsync: the spool
 * covers a process's death, not the machine's.
 */
export class AuditSpool {
  private fd: number;
  private lines: number;
  private failing = false;

  private constructor(
    private readonly file: string,
    readonly pending: AuditEntryMessage[],
    private readonly logger: Logger,
  ) {
    this.fd = fs.openSync(file, 'a', 0o600);
    this.lines = pending.length;
  }

  /** Opens (creating) `dir`'s spool; `pending` holds what an earlier process left unsent, oldest first. */
  static open(dir: string, logger: Logger): AuditSpool {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, FILE);
    const pending: AuditEntryMessage[] = [];
    let unreadable = 0;
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    for (const line of text.split('\n')) {
      if (!line) continue;
      // A process killed inside a write leaves a cut last line; anything else unreadable is
      // skipped rather than block every entry after it.
      try {
        pending.push(auditEntrySchema.parse(JSON.parse(line)));
      } catch {
        unreadable++;
      }
    }
    if (pending.length > 0 || unreadable > 0) logger.warn({ pending: pending.length, unreadable, file }, 'audit entries left unsent by an earlier process: sending them');
    const spool = new AuditSpool(file, pending, logger);
    // Only what could be read stays: the cut line must not join the next entry's.
    if (unreadable > 0) spool.rewrite(pending);
    return spool;
  }

  /** Keeps `entry` until `sent` says otherwise. Never throws: a full disk leaves the entry in memory only (logged). */
  append(entry: AuditEntryMessage): void {
    try {
      fs.writeSync(this.fd, `${JSON.stringify(entry)}\n`);
      this.lines++;
      this.failing = false;
    } catch (err) {
      if (!this.failing) this.logger.error({ err, file: this.file }, 'audit spool not writable: entries are kept in memory only until it is');
      this.failing = true;
    }
  }

  /** After JetStream acknowledged entries: `waiting` is what is still unsent. */
  sent(waiting: readonly AuditEntryMessage[]): void {
    try {
      if (waiting.length === 0) {
        if (this.lines > 0) fs.ftruncateSync(this.fd, 0);
        this.lines = 0;
      } else if (this.lines >= REWRITE_AT_LINES && this.lines > 2 * waiting.length) {
        this.rewrite(waiting);
      }
    } catch (err) {
      this.logger.warn({ err, file: this.file }, 'audit spool not trimmed; it is on the next send');
    }
  }

  close(): void {
    fs.closeSync(this.fd);
  }

  /** Replaces the file by one holding `entries` only (written aside, then renamed over it). */
  private rewrite(entries: readonly AuditEntryMessage[]): void {
    const aside = `${this.file}.new`;
    fs.writeFileSync(aside, entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''), { mode: 0o600 });
    fs.renameSync(aside, this.file);
    fs.closeSync(this.fd);
    this.fd = fs.openSync(this.file, 'a', 0o600);
    this.lines = entries.length;
  }
}
