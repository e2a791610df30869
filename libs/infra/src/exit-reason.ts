import fs from 'node:fs';

/** At most this much of the end of a log is read: a crash's reason is in its last lines. */
const TAIL_BYTES = 16 * 1024;
const MAX_LENGTH = 300;

/**
 * Why a process that just exited said it stopped, read from what it wrote to
 * its log since `fromOffset` (its start): the launcher prints it beside "apps
 * exited (1)", so an operator — or CI's log, all there is of a run on a clean
 * machine — sees "listen EADDRINUSE" or "failed to start: …" without opening
 * the file. Undefined when the process wrote no reason.
 *
 * Services log pino JSON (an error or fatal entry says why), and write a plain
 * `<service> failed to start: <message>` to stderr when their start throws;
 * Node itself prints an uncaught error's `Error: …` line, its stack and its
 * version last.
 */
export function exitReason(logFile: string, fromOffset: number, maxLength = MAX_LENGTH): string | undefined {
  const lines = tailSince(logFile, fromOffset)
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  for (let i = lines.length - 1; i >= 0; i--) {
    const reason = reasonOf(lines[i]!);
    if (reason) return reason.length > maxLength ? `${reason.slice(0, maxLength)}…` : reason;
  }
  return undefined;
}

function reasonOf(line: string): string | undefined {
  if (line.startsWith('{')) {
    try {
      const entry = JSON.parse(line) as { level?: string | number; msg?: string; err?: { message?: string } };
      const serious = entry.level === 'error' || entry.level === 'fatal' || (typeof entry.level === 'number' && entry.level >= 50);
      if (!serious) return undefined;
      return [entry.msg, entry.err?.message].filter(Boolean).join(': ') || undefined;
    } catch {
      // Not a log entry after all: judged as text below.
    }
  }
  return isDyingWords(line) ? line : undefined;
}

/**
 * A plain line a process writes to stderr as it dies: "apps service failed to start: …",
 * "Error: …", "TypeError [ERR_…]: …" — not a stack frame, not a third-party server's own log line.
 */
export function isDyingWords(line: string): boolean {
  return /failed to start:/.test(line) || /^[A-Za-z]*Error\b.*:/.test(line);
}

function tailSince(file: string, fromOffset: number): string {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const size = fs.fstatSync(fd).size;
    const start = Math.max(fromOffset, size - TAIL_BYTES);
    if (size <= start) return '';
    const buffer = Buffer.alloc(size - start);
    fs.readSync(fd, buffer, 0, buffer.length, start);
    return buffer.toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The size of a file now (0 when it does not exist yet): where a new start's output begins. */
export function fileSize(file: string): number {
  return fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;
}
