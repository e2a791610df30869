import { Writable } from 'node:stream';
import { createLogger } from '@hangar/logger';
import { JanitorRunResult, SweepReport, startJanitor } from './orphan-janitor';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
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
  it('when the interval is 0, then the janitor is off and never runs', async () => {
    const run = jest.fn(async () => EMPTY);
    const janitor = startJanitor({ name: 'off', intervalMs: 0, run, logger: capturingLogger().logger });

    await sleep(300);
    await janitor.stop();

    expect(run).not.toHaveBeenCalled();
  });

  it('when it runs for a while, then it sweeps about once per interval, never two sweeps at once', async () => {
    let inFlight = 0;
    let overlapped = false;
    const run = jest.fn(async () => {
      overlapped ||= ++inFlight > 1;
      await sleep(150);
      inFlight -= 1;
      return EMPTY;
    });
    const janitor = startJanitor({ name: 'steady', intervalMs: 100, run, logger: capturingLogger().logger });

    await sleep(1_100);
    await janitor.stop();

    // A 150 ms sweep in 100 ms turns: the next waits for the next turn after it ends.
    expect(run.mock.calls.length).toBeGreaterThanOrEqual(3);
    expect(run.mock.calls.length).toBeLessThanOrEqual(8);
    expect(overlapped).toBe(false);
  });

  it('when another replica holds the turn, then this one skips it; when a sweep fails, then the next turn tries again', async () => {
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

    await sleep(1_000);
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
