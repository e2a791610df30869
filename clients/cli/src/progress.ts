/** Where progress goes: stderr, so `--json` output on stdout stays machine-readable. */
export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressOptions {
  out: ProgressOutput;
  label: string;
  total: number;
  /** A terminal gets a bar redrawn in place; anything else one plain line at most every `lineIntervalMs`. */
  interactive: boolean;
  now?: () => number;
  lineIntervalMs?: number;
  redrawIntervalMs?: number;
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** Decimal units, as file managers and `ls -h --si` show sizes. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--:--';
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

/**
 * Speed over the last few seconds (not since the start), so a stall or a
 * resumed upload's skipped bytes do not distort the ETA for long.
 */
const WINDOW_MS = 5_000;
const REBASE_MS = 500;

export class ProgressReporter {
  private readonly now: () => number;
  private readonly samples: { at: number; bytes: number }[] = [];
  private lastDraw = -Infinity;
  private lastLine = -Infinity;
  private sent = 0;
  private finished = false;
  private lastPrintedSent = -1;
  /** Bytes found on the server by a resumed upload arrive as one jump: not speed. */
  private rebasing = false;
  private rebaseUntil = -Infinity;

  constructor(private readonly options: ProgressOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Bytes the server has acknowledged so far (a resumed upload starts above zero). */
  update(sent: number): void {
    if (this.finished) return;
    const at = this.now();
    this.sent = sent;
    // Parallel parts each report what the server had, within moments of one another.
    if (this.rebasing && sent > 0) {
      this.rebasing = false;
      this.rebaseUntil = at + REBASE_MS;
    }
    if (at <= this.rebaseUntil) this.samples.length = 0;
    this.samples.push({ at, bytes: sent });
    while (this.samples.length > 2 && at - this.samples[0]!.at > WINDOW_MS) this.samples.shift();
    if (this.options.interactive) {
      if (at - this.lastDraw >= (this.options.redrawIntervalMs ?? 100) || sent >= this.options.total) {
        this.lastDraw = at;
        this.options.out.write(`\r\x1b[2K${this.barLine()}`);
      }
    } else if (at - this.lastLine >= (this.options.lineIntervalMs ?? 5_000)) {
      this.printLine(at);
    }
  }

  /** The next figure is where a resumed upload starts, not bytes sent just now. */
  rebase(): void {
    this.rebasing = true;
  }

  private printLine(at: number): void {
    this.lastLine = at;
    this.lastPrintedSent = this.sent;
    this.options.out.write(`${this.plainLine()}\n`);
  }

  /** The upload failed: end the bar's line on a terminal; a log needs no last figure. */
  abandon(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.options.interactive) this.options.out.write('\n');
  }

  /** Ends the bar's line (terminal) or prints the last line (log). */
  finish(message?: string): void {
    if (this.finished) return;
    this.finished = true;
    if (this.options.interactive) this.options.out.write(`\r\x1b[2K${message ?? this.barLine()}\n`);
    else if (message) this.options.out.write(`${message}\n`);
    else if (this.lastPrintedSent !== this.sent) this.printLine(this.now());
  }

  /** Bytes per second over the recent window; 0 until two samples exist. */
  speed(): number {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.at <= first.at) return 0;
    return Math.max(0, (last.bytes - first.bytes) / ((last.at - first.at) / 1000));
  }

  private figures() {
    const total = this.options.total;
    const percent = total > 0 ? Math.min(100, Math.floor((this.sent / total) * 100)) : 100;
    const speed = this.speed();
    const eta = this.sent >= total ? 0 : speed > 0 ? (total - this.sent) / speed : Infinity;
    return { total, percent, speed, eta };
  }

  plainLine(): string {
    const { total, percent, speed, eta } = this.figures();
    return `${this.options.label}: ${percent}% (${formatBytes(this.sent)} of ${formatBytes(total)}), ${formatBytes(speed)}/s, ETA ${formatDuration(eta)}`;
  }

  barLine(): string {
    const { total, percent, speed, eta } = this.figures();
    const tail = ` ${String(percent).padStart(3)}%  ${formatBytes(this.sent)} / ${formatBytes(total)}  ${formatBytes(speed)}/s  ETA ${formatDuration(eta)}`;
    const columns = this.options.out.columns ?? 80;
    const label = this.options.label.length > 24 ? `${this.options.label.slice(0, 23)}…` : this.options.label;
    const width = Math.max(10, Math.min(40, columns - label.length - tail.length - 4));
    const filled = Math.round((percent / 100) * width);
    return `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}]${tail}`;
  }
}
