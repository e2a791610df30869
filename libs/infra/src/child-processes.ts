import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  /** SIGTERM, then SIGKILL after the grace period; resolves when it has exited. */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnOptions {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Output goes to this file (appended, mode 0600) rather than the parent's terminal. */
  logFile?: string;
  /** Inherit stdout/stderr instead (the launcher's services). */
  inheritOutput?: boolean;
  /** Run as this user (PostgreSQL refuses to run as root). */
  uid?: number;
  gid?: number;
}

const running = new Set<ManagedProcess>();

/**
 * Starts a process in its own process group, so Ctrl-C in a terminal reaches
 * only the launcher, which then stops its children in order.
 */
export function spawnManaged(options: SpawnOptions): ManagedProcess {
  let stdio: ('ignore' | 'inherit' | number)[] = ['ignore', 'inherit', 'inherit'];
  if (options.logFile) {
    fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
    // Logs may hold what a process was told (a URL, an error's message): for its owner only.
    const fd = fs.openSync(options.logFile, 'a', 0o600);
    fs.fchmodSync(fd, 0o600);
    stdio = ['ignore', fd, fd];
  } else if (!options.inheritOutput) {
    stdio = ['ignore', 'ignore', 'ignore'];
  }
  const child = spawn(options.command, options.args, {
    env: options.env ?? process.env,
    cwd: options.cwd,
    stdio,
    detached: true,
    uid: options.uid,
    gid: options.gid,
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  const managed: ManagedProcess = {
    name: options.name,
    child,
    async stop(graceMs = 10_000) {
      // Stays in `running` until it has exited: a launcher told to stop at once mid-stop kills it too.
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  running.add(managed);
  child.once('exit', () => running.delete(managed));
  return managed;
}

// If the parent dies without stopping its children (an uncaught error, a
// kill), take them along rather than leave servers holding ports.
process.once('exit', () => {
  for (const managed of running) managed.child.kill('SIGKILL');
});

/**
 * Makes every file already in `dir` readable and writable by its owner only
 * (0600): logs an earlier version wrote world-readable stay so no longer.
 */
export function restrictFilesToOwner(dir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      if (fs.lstatSync(file).isFile()) fs.chmodSync(file, 0o600);
    } catch {
      // Gone meanwhile: nothing to restrict.
    }
  }
}
