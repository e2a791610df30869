import type { StoredRecord, UploadRecord, UploadRecords } from './upload-records';

/**
 * A request's claim to write into an upload: it beats (refreshes `writer.beatAt`) while the
 * body streams, so other requests know it is alive, and it ends with one write of the
 * outcome. Every write is a compare-and-set on the record's revision; a beat and the final
 * write must never race, or the final write would fail on the beat's new revision after the
 * parts were already completed in S3 — an upload whose record says "not done" over a
 * multipart upload that no longer exists (found by 20 concurrent CLI uploads in the bench).
 */
export class WriterClaim {
  private beating: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private finished = false;

  constructor(
    private readonly records: UploadRecords,
    private stored: StoredRecord,
    private readonly now: () => number,
  ) {}

  get record(): UploadRecord {
    return this.stored.record;
  }

  private get token(): string | undefined {
    return this.stored.record.writer?.token;
  }

  startBeating(everyMs: number): void {
    this.timer = setInterval(() => {
      this.beating = this.beating.then(() => this.beatOnce());
    }, everyMs);
    this.timer.unref();
  }

  /**
   * Ends the claim with `change` applied to the record as it is now (writer cleared). A write
   * refused because the record moved is tried again while the record still names this claim
   * as its writer (only a beat moved it); otherwise another request has taken over: undefined.
   */
  async finish(change: (current: UploadRecord) => UploadRecord): Promise<StoredRecord | undefined> {
    clearInterval(this.timer);
    await this.beating;
    if (this.finished) return undefined;
    const token = this.token;
    for (let attempt = 0; attempt < 5; attempt++) {
      const written = await this.records.replace({ ...change(this.stored.record), writer: undefined }, this.stored.revision);
      if (written) {
        this.stored = written;
        this.finished = true;
        return written;
      }
      const current = await this.records.get(this.stored.record.id);
      if (!current || current.record.writer?.token !== token) return undefined;
      this.stored = current;
    }
    return undefined;
  }

  /** Gives the upload up unchanged (a refused or failed body). */
  async release(): Promise<void> {
    if (this.finished) return;
    await this.finish((current) => current).catch(() => undefined);
  }

  private async beatOnce(): Promise<void> {
    const token = this.token;
    if (!token) return;
    const beaten = await this.records.replace({ ...this.stored.record, writer: { token, beatAt: this.now() } }, this.stored.revision).catch(() => undefined);
    if (beaten) this.stored = beaten;
  }
}
