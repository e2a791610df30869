import fs from 'node:fs';
import path from 'node:path';
import { ManagedProcess, spawnManaged } from './child-processes';
import { exitReason, fileSize } from './exit-reason';

export interface SupervisedProcess {
  /** The file name of this replica (`releases.1`): its log, pid and metrics-port files. */
  name: string;
  entry: string;
  env: NodeJS.ProcessEnv;
  logsDir: string;
  runDir: string;
  toConsole: boolean;
  shuttingDown: () => boolean;
  log: (line: string) => void;
}

/** Keeps one process running: restarts it with backoff when it dies unexpectedly. */
export class Supervisor {
  private current: ManagedProcess;
  private restarts = 0;
  private stopped = false;

  constructor(private readonly options: SupervisedProcess) {
    this.current = this.start();
  }

  get name(): string {
    return this.options.name;
  }

  private start(): ManagedProcess {
    const { name, entry, env, logsDir, runDir, toConsole, shuttingDown, log } = this.options;
    const logFile = toConsole ? undefined : path.join(logsDir, `${name}.log`);
    const logOffset = logFile ? fileSize(logFile) : 0;
    const managed = spawnManaged({
      name,
      command: process.execPath,
      args: [entry],
      env,
      ...(logFile ? { logFile } : { inheritOutput: true }),
    });
    const startedAt = Date.now();
    // Operators and the resilience tests find each process here.
    fs.mkdirSync(runDir, { recursive: true });
    fs.writeFileSync(path.join(runDir, `${name}.pid`), String(managed.child.pid ?? ''), { mode: 0o600 });
    managed.child.once('exit', (code, signal) => {
      if (this.stopped || shuttingDown()) return;
      // A process that ran a while before dying starts again from a short delay.
      if (Date.now() - startedAt > 60_000) this.restarts = 0;
      const delay = Math.min(30_000, 500 * 2 ** this.restarts++);
      // On a console the process's own output already said why.
      const reason = logFile ? exitReason(logFile, logOffset) : undefined;
      log(`${name} exited (${signal ?? code})${reason ? `: ${reason}` : ''}; restarting in ${delay} ms`);
      setTimeout(() => {
        if (!this.stopped && !shuttingDown()) this.current = this.start();
      }, delay).unref();
    });
    return managed;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.current.stop(15_000);
  }
}
