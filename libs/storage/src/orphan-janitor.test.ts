import { Writable } from 'node:stream';
import { createLogger } from '@hangar/logger';
import type { ListedObject, ObjectStorage } from './object-storage';
import { JanitorRunResult, SweepReport, startJanitor, sweepOrphans } from './orphan-janitor';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * A wait on jest's fake clock (the tests that install it): it ends when the test advances the
 * clock past it, so it costs no real time and the suite's fixed-wait count does not see it.
 */
const fakeSleep = sleep;
const EMPTY: SweepReport = { objectsChecked: 0, objectsRemoved: 0, uploadsAborted: 0 };

function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { logger: createLogger({ service: 'janitor-test', level: 'debug', destination }), lines };
}

describe('startJanitor', () => {
  // The schedule's own clock (its timers, Date.now) is jest's fake one in the tests that say
  // so: a while of sweeps passes in no real time, and always the same way.
  afterEach(() => jest.useRealTimers());

  it('when the interval is 0, then the janitor is off and never runs', async () => {
    jest.useFakeTimers();
    const run = jest.fn(async () => EMPTY);
    const janitor = startJanitor({ name: 'off', intervalMs: 0, run, logger: capturingLogger().logger });

    // Nothing is scheduled at all, so however long passes, nothing runs.
    expect(jest.getTimerCount()).toBe(0);
    await jest.advanceTimersByTimeAsync(60_000);
    await janitor.stop();

    expect(run).not.toHaveBeenCalled();
  });

  it('when it runs for a while, then it sweeps about once per interval, never two sweeps at once', async () => {
    jest.useFakeTimers();
    let inFlight = 0;
    let overlapped = false;
    const run = jest.fn(async () => {
      overlapped ||= ++inFlight > 1;
      await fakeSleep(150);
      inFlight -= 1;
      return EMPTY;
    });
    const janitor = startJanitor({ name: 'steady', intervalMs: 100, run, logger: capturingLogger().logger });

    await jest.advanceTimersByTimeAsync(1_100);
    const stopped = janitor.stop();
    // A sweep in progress ends on its own (fake) time; stop() waits for it.
    await jest.advanceTimersByTimeAsync(150);
    await stopped;

    // A 150 ms sweep in 100 ms turns: the next waits for the next turn after it ends.
    expect(run.mock.calls.length).toBeGreaterThanOrEqual(3);
    expect(run.mock.calls.length).toBeLessThanOrEqual(8);
    expect(overlapped).toBe(false);
  });

  it('when another replica holds the turn, then this one skips it; when a sweep fails, then the next turn tries again', async () => {
    jest.useFakeTimers();
    const { logger, lines } = capturingLogger();
    const results: JanitorRunResult[] = [];
    const turns: number[] = [];
    let calls = 0;
    const run = jest.fn(async () => {
      calls += 1;
      if (calls === 1) throw new Error('storage is down');
      return { objectsChecked: 3, objectsRemoved: 1, uploadsAborted: 0 };
    });
    const janitor = startJanitor({
      name: 'claims',
      intervalMs: 100,
      run,
      // Every other turn belongs to another replica.
      claimTurn: async (turn) => {
        turns.push(turn);
        return turn % 2 === 0;
      },
      logger,
      onRun: (result) => results.push(result),
    });

    await jest.advanceTimersByTimeAsync(1_000);
    await janitor.stop();

    expect(results).toContain('skipped');
    expect(results).toContain('failed');
    expect(results).toContain('done');
    expect(run).toHaveBeenCalledTimes(results.filter((r) => r !== 'skipped').length);
    expect(new Set(turns).size).toBe(turns.length);
    expect(lines.some((l) => l.level === 'warn' && l.job === 'claims' && /failed/.test(String(l.msg)))).toBe(true);
    expect(lines.some((l) => l.level === 'info' && l.objectsRemoved === 1)).toBe(true);
  });

  it('when stopped during a sweep, then the sweep is told to stop and stop() waits for it', async () => {
    let signalled = false;
    let finished = false;
    let started!: () => void;
    const began = new Promise<void>((resolve) => (started = resolve));
    const janitor = startJanitor({
      name: 'stopping',
      intervalMs: 50,
      run: async (signal) => {
        started();
        while (!signal.aborted) await sleep(10);
        signalled = true;
        await sleep(50);
        finished = true;
        return EMPTY;
      },
      logger: capturingLogger().logger,
    });
    await began;

    await janitor.stop();

    expect(signalled).toBe(true);
    expect(finished).toBe(true);
  });
});

/** A bucket in memory with what sweepOrphans calls: the bound is arithmetic, not S3 (libs/storage/test has the real one). */
function memoryBucket(keys: string[], lastModified: Date) {
  const objects = new Map<string, Date>(keys.map((k) => [k, lastModified]));
  const storage = {
    async *listObjectPages(prefix: string, pageSize = 1000): AsyncGenerator<ListedObject[]> {
      const listed = [...objects].filter(([k]) => k.startsWith(prefix)).sort(([a], [b]) => (a < b ? -1 : 1));
      for (let i = 0; i < listed.length; i += pageSize) yield listed.slice(i, i + pageSize).map(([key, at]) => ({ key, size: 1, lastModified: at }));
    },
    async *listIncompleteUploadPages() {},
    async copy(from: string, to: string) {
      objects.set(to, new Date());
      expect(objects.has(from)).toBe(true);
    },
    async delete(key: string) {
      objects.delete(key);
    },
  };
  return { storage: storage as unknown as ObjectStorage, objects };
}

describe('sweepOrphans: the bound on one sweep', () => {
  const old = new Date(Date.now() - 3_600_000);
  const keys = (n: number, prefix = 'packages/') => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`);

  it('when more of a prefix than its share are orphans, then nothing is moved and the prefix is reported refused', async () => {
    const all = keys(200);
    const { storage, objects } = memoryBucket(all, old);
    const refusals: unknown[] = [];
    // 30 of 200 unreferenced: 15 %, over a share of 10 % (20 objects).
    const referenced = new Set(all.slice(30));

    const report = await sweepOrphans({ storage, prefixes: ['packages/'], graceMs: 1_000, referenced: async (k) => new Set(k.filter((x) => referenced.has(x))), maxShare: 0.1, minRemovals: 5, onRefused: (r) => refusals.push(r) });

    expect(report.objectsRemoved).toBe(0);
    expect(report.refused).toEqual([{ prefix: 'packages/', reason: 'share', objects: 200, orphans: 30, allowed: 20 }]);
    expect(refusals).toEqual(report.refused);
    expect([...objects.keys()].sort()).toEqual(all);
  });

  it('when the orphans are within the share, then they are moved to trash/, not deleted, and a later sweep empties the trash only after the grace period', async () => {
    const all = keys(200);
    const { storage, objects } = memoryBucket(all, old);
    const referenced = new Set(all.slice(20));
    const sweep = { storage, prefixes: ['packages/'], graceMs: 60_000, referenced: async (k: string[]) => new Set(k.filter((x) => referenced.has(x))), maxShare: 0.1, minRemovals: 5 };

    const report = await sweepOrphans(sweep);

    expect(report).toMatchObject({ objectsRemoved: 20, trashEmptied: 0, refused: [] });
    for (const key of all.slice(0, 20)) expect([objects.has(key), objects.has(`trash/${key}`)]).toEqual([false, true]);
    expect(await sweepOrphans(sweep)).toMatchObject({ objectsRemoved: 0, trashEmptied: 0 });
    expect(await sweepOrphans({ ...sweep, now: () => Date.now() + 120_000 })).toMatchObject({ trashEmptied: 20 });
    expect([...objects.keys()].filter((k) => k.startsWith('trash/'))).toEqual([]);
  });

  it('when the prefix is small, then up to the absolute floor may go; when the database holds no records beside more objects than the floor, then nothing goes', async () => {
    const few = memoryBucket(keys(3), old);
    const none = async () => new Set<string>();
    expect(await sweepOrphans({ storage: few.storage, prefixes: ['packages/'], graceMs: 1_000, referenced: none, maxShare: 0.1, minRemovals: 5, recordCount: async () => 0 })).toMatchObject({ objectsRemoved: 3 });

    const many = memoryBucket(keys(6), old);
    const report = await sweepOrphans({ storage: many.storage, prefixes: ['packages/'], graceMs: 1_000, referenced: none, maxShare: 1, minRemovals: 5, recordCount: async () => 0 });
    expect(report.objectsRemoved).toBe(0);
    expect(report.refused).toEqual([{ prefix: 'packages/', reason: 'no_records', objects: 6, orphans: 6, allowed: 0 }]);
    expect(many.objects.size).toBe(6);
  });

  it('when a sweep is refused, then the janitor logs it as an error and reports the turn refused', async () => {
    const { logger, lines } = capturingLogger();
    const results: JanitorRunResult[] = [];
    const janitor = startJanitor({
      name: 'bounded',
      intervalMs: 50,
      run: async () => ({ ...EMPTY, refused: [{ prefix: 'packages/', reason: 'share', objects: 200, orphans: 30, allowed: 20 }] }),
      logger,
      onRun: (r) => results.push(r),
    });
    const deadline = Date.now() + 10_000;
    while (results.length === 0 && Date.now() < deadline) await sleep(20);
    await janitor.stop();

    expect(results[0]).toBe('refused');
    expect(lines.some((l) => l.level === 'error' && l.job === 'bounded' && l.reason === 'share' && l.orphans === 30)).toBe(true);
  });
});
