import { formatBytes, formatDuration, ProgressReporter } from './progress';

function recorder(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, out: { isTTY, columns: 100, write: (text: string) => writes.push(text) } };
}

describe('progress', () => {
  it('when sizes and durations are shown, then they read as people write them', () => {
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(200_000_000)).toBe('200.0 MB');
    expect(formatBytes(1_500_000_000)).toBe('1.5 GB');
    expect(formatDuration(9)).toBe('0:09');
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(formatDuration(Infinity)).toBe('--:--');
  });

  it('when the output is a terminal, then one bar is redrawn in place with percent, speed and ETA, and ended with a newline', () => {
    let now = 0;
    const { writes, out } = recorder(true);
    const progress = new ProgressReporter({ out, label: 'app.apk', total: 100_000_000, interactive: true, now: () => now });
    progress.update(0);
    now = 1_000;
    progress.update(10_000_000);
    now = 1_050; // within the redraw interval: not drawn
    progress.update(11_000_000);
    now = 2_000;
    progress.update(20_000_000);
    progress.finish();
    expect(writes.every((w) => w.startsWith('\r\x1b[2K'))).toBe(true);
    expect(writes.filter((w) => w.endsWith('\n'))).toHaveLength(1);
    expect(writes.at(-1)!.endsWith('\n')).toBe(true);
    expect(writes).toHaveLength(4);
    // 20 MB over 2 s: 10 MB/s; 80 MB left: 8 s.
    expect(writes[2]).toBe('\r\x1b[2Kapp.apk [########--------------------------------]  20%  20.0 MB / 100.0 MB  10.0 MB/s  ETA 0:08');
  });

  it('when the output is not a terminal, then a plain line is printed at most every interval, without control characters', () => {
    let now = 0;
    const { writes, out } = recorder(false);
    const progress = new ProgressReporter({ out, label: 'app.apk', total: 50_000_000, interactive: false, now: () => now, lineIntervalMs: 5_000 });
    for (let t = 0; t <= 10_000; t += 500) {
      now = t;
      progress.update(t * 2_500);
    }
    now = 20_000;
    progress.update(50_000_000);
    progress.finish();
    expect(writes).toEqual([
      'app.apk: 0% (0 B of 50.0 MB), 0 B/s, ETA --:--\n',
      'app.apk: 25% (12.5 MB of 50.0 MB), 2.5 MB/s, ETA 0:15\n',
      'app.apk: 50% (25.0 MB of 50.0 MB), 2.5 MB/s, ETA 0:10\n',
      'app.apk: 100% (50.0 MB of 50.0 MB), 2.5 MB/s, ETA 0:00\n',
    ]);
    expect(writes.join('')).not.toMatch(/[\r\x1b]/);
  });

  it('when a resumed upload starts with bytes already on the server, then they do not count as speed', () => {
    let now = 0;
    const { out } = recorder(false);
    const progress = new ProgressReporter({ out, label: 'big.bin', total: 100, interactive: false, now: () => now });
    progress.update(0);
    progress.rebase();
    now = 100;
    progress.update(40);
    now = 105; // a second part's offset, moments later
    progress.update(60);
    expect(progress.speed()).toBe(0);
    now = 1_105;
    progress.update(70);
    expect(progress.speed()).toBe(10);
  });

  it('when the last figure was already printed, then finishing a log does not print it twice', () => {
    let now = 0;
    const { writes, out } = recorder(false);
    const progress = new ProgressReporter({ out, label: 'a.apk', total: 10, interactive: false, now: () => now });
    progress.update(0);
    now = 6_000;
    progress.update(10);
    now = 6_001;
    progress.finish();
    expect(writes.map((w) => w.split(':')[1]!.trim().split(' ')[0])).toEqual(['0%', '100%']);
  });

  it('when an upload fails, then a log gets no further figure and a terminal\'s bar line is ended', () => {
    const log = recorder(false);
    const failedLog = new ProgressReporter({ out: log.out, label: 'a.apk', total: 10, interactive: false, now: () => 0 });
    failedLog.update(0);
    failedLog.abandon();
    expect(log.writes).toHaveLength(1);
    const tty = recorder(true);
    const failedBar = new ProgressReporter({ out: tty.out, label: 'a.apk', total: 10, interactive: true, now: () => 0 });
    failedBar.update(0);
    failedBar.abandon();
    expect(tty.writes.at(-1)).toBe('\n');
  });
});
