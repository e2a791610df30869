import { RunningHangar, eventually, isProcessRunning, startHangar } from '@hangar/testing';

/** The launcher takes a second Ctrl-C this soon after the first as the same one (libs/infra launcher.ts SAME_SIGNAL_MS). */
const SAME_SIGNAL_MS = 1_000;

const PROGRAMS = ['gateway', 'users', 'apps', 'releases', 'debug-files', 'webhooks'];

/**
 * `npm run up` and Ctrl-C as people press it: once, twice at once (a terminal signals the whole
 * process group and npm forwards the signal to its child as well), or again because stopping
 * takes too long. However it ends, no process it started is left running.
 */
describe('the launcher under repeated Ctrl-C', () => {
  let hangar: RunningHangar | undefined;
  let pids: number[] = [];

  beforeEach(async () => {
    hangar = await startHangar();
    pids = PROGRAMS.flatMap((name) => hangar!.pidsOf(name));
  });

  afterEach(async () => {
    // Whatever a failed test left behind goes, so it holds no port of the next one.
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await hangar?.stop();
  });

  it('when Ctrl-C arrives twice at once, then it still stops in order and exits 0 with nothing left running', async () => {
    hangar!.signalLauncher('SIGINT');
    await sleep(50);
    hangar!.signalLauncher('SIGINT');
    expect(await hangar!.exited()).toBe(0);
    expect(hangar!.output()).toContain('Stopped.');
    expect(pids.filter(isProcessRunning)).toEqual([]);
  });

  it('when Ctrl-C comes again while a process is slow to stop, then it stops at once, exits 130 and kills every process it started', async () => {
    // A gateway that cannot act on SIGTERM (stopped) holds the orderly stop for its 15 s grace.
    const frozen = hangar!.pidsOf('gateway');
    for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    const firstAt = Date.now();
    hangar!.signalLauncher('SIGINT');
    // The orderly stop has begun and is held by the frozen gateway: the launcher says it is
    // stopping, and the services it stops after the gateways still run.
    await eventually(() => hangar!.output().includes('Stopping Hangar…'), { timeoutMs: 10_000, what: 'the launcher stopping' });
    const services = PROGRAMS.filter((name) => name !== 'gateway').flatMap((name) => hangar!.pidsOf(name));
    expect(services.filter(isProcessRunning)).toEqual(services);
    expect(hangar!.output()).not.toContain('Stopped.');
    // The one wait of time left: the launcher's own rule is one of time (a second Ctrl-C within
    // SAME_SIGNAL_MS of the first is the same keypress), so the second is sent once that has passed.
    await sleep(firstAt + SAME_SIGNAL_MS + 100 - Date.now());
    expect(hangar!.output()).not.toContain('Stopped.');
    hangar!.signalLauncher('SIGINT');
    expect(await hangar!.exited()).toBe(130);
    expect(hangar!.output()).toContain('Stopping at once.');
    // SIGKILL reaches stopped processes too; the kernel may take a moment to reap them.
    const deadline = Date.now() + 5_000;
    while (pids.some(isProcessRunning) && Date.now() < deadline) await sleep(100);
    expect(pids.filter(isProcessRunning)).toEqual([]);
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
