import { CoalescedReads } from './coalesced-reads';

/** A store whose reads the test finishes by hand, recording when each began. */
function manualStore() {
  let value = 0;
  const pending: { resolve: (v: number) => void; reject: (e: Error) => void; sawValue: number }[] = [];
  return {
    set: (v: number) => (value = v),
    reads: pending,
    readOne: () => new Promise<number>((resolve, reject) => pending.push({ resolve, reject, sawValue: value })),
    /** Finishes the oldest unfinished read with the value it saw when it began. */
    finishNext: async () => {
      const read = pending.shift()!;
      read.resolve(read.sawValue);
      await new Promise((r) => setImmediate(r));
    },
    failNext: async (error: Error) => {
      pending.shift()!.reject(error);
      await new Promise((r) => setImmediate(r));
    },
  };
}

describe('coalesced reads', () => {
  it('when many callers ask while a read is in flight, then they share one queued read, not one each', async () => {
    const store = manualStore();
    const reads = new CoalescedReads(store.readOne);
    const first = reads.read('k');
    const waiting = Array.from({ length: 50 }, () => reads.read('k'));
    expect(store.reads).toHaveLength(1);
    await store.finishNext();
    expect(store.reads).toHaveLength(1); // the queued read, started once the first was done
    await store.finishNext();
    await expect(first).resolves.toBe(0);
    await expect(Promise.all(waiting)).resolves.toEqual(Array(50).fill(0));
  });

  it('when a write lands after a read was sent, then a caller arriving after the write sees it (it never joins the earlier read)', async () => {
    const store = manualStore();
    const reads = new CoalescedReads(store.readOne);
    const before = reads.read('k'); // sent while the value is 0
    store.set(1); // the write (a bump) completes
    const after = reads.read('k'); // asked after the write: must see 1
    await store.finishNext();
    await store.finishNext();
    await expect(before).resolves.toBe(0);
    await expect(after).resolves.toBe(1);
  });

  it('when a read fails, then its callers see the error and the queued read still runs for the others', async () => {
    const store = manualStore();
    const reads = new CoalescedReads(store.readOne);
    const failing = reads.read('k');
    const queued = reads.read('k');
    await store.failNext(new Error('NATS away'));
    await expect(failing).rejects.toThrow('NATS away');
    expect(store.reads).toHaveLength(1);
    await store.finishNext();
    await expect(queued).resolves.toBe(0);
  });

  it('when keys differ, then their reads do not wait on each other; once idle, a new read starts at once', async () => {
    const store = manualStore();
    const reads = new CoalescedReads(store.readOne);
    const a = reads.read('a');
    const b = reads.read('b');
    expect(store.reads).toHaveLength(2);
    await store.finishNext();
    await store.finishNext();
    await Promise.all([a, b]);
    void reads.read('a');
    expect(store.reads).toHaveLength(1);
  });
});
