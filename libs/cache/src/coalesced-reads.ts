/**
 * Reads of one key shared by every caller that arrived while an earlier read
 * of it was in flight: they wait for the read after it, which starts once the
 * earlier one is done and serves them all. At most one read per key is in
 * flight and one queued, however many callers ask — 200 clients polling one
 * channel cost a NATS round trip or two per round-trip time, not 200.
 *
 * Never staler than reading alone: a caller only shares a read that *starts*
 * after the caller arrived, so whatever was written before it asked (a bump
 * acknowledged before the writer answered) is in what it gets. Joining the
 * read already in flight would not promise that — it may have been sent before
 * the write.
 */
export class CoalescedReads<T> {
  private readonly keys = new Map<string, { inFlight: Promise<T>; queued?: Promise<T> }>();

  constructor(private readonly readOne: (key: string) => Promise<T>) {}

  read(key: string): Promise<T> {
    const state = this.keys.get(key);
    if (!state) return this.start(key);
    state.queued ??= state.inFlight.then(
      () => this.startQueued(key),
      () => this.startQueued(key),
    );
    return state.queued;
  }

  private start(key: string): Promise<T> {
    const inFlight = this.readOne(key);
    const state: { inFlight: Promise<T>; queued?: Promise<T> } = { inFlight };
    this.keys.set(key, state);
    const settle = () => {
      // A queued read has already replaced this one (startQueued) when it exists.
      if (this.keys.get(key) === state && !state.queued) this.keys.delete(key);
    };
    inFlight.then(settle, settle);
    return inFlight;
  }

  /** The queued read begins: it becomes the one in flight, and later callers queue behind it. */
  private startQueued(key: string): Promise<T> {
    this.keys.delete(key);
    return this.start(key);
  }
}
