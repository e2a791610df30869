import fs from 'node:fs';
import path from 'node:path';
import { EXIT_REFUSED_TO_START } from '@hangar/config';
import { ManagedProcess, spawnManaged } from './child-processes';
import { exitReason, fileSize } from './exit-reason';

/** One of Hangar's own Node processes (a service or gateway replica). */
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
  /**
   * Called instead of a restart when the process exits with EXIT_REFUSED_TO_START: it refused
   * what it was given, and another start would refuse it again. `reason` is its last log words.
   */
  onRefusal?: (reason: string) => void;
}

/** Any program: a server the launcher started (PostgreSQL, FerretDB, versitygw, nats-server). */
export interface SupervisedProgram {
  name: string;
  /** Starts one run of it; called again, with the same arguments, after each crash. */
  spawn: () => ManagedProcess;
  /** Where it writes its log (the reason of an exit is read from there). */
  logFile?: string;
  /** Each run's pid goes to `<runDir>/<name>.pid`. */
  runDir?: string;
  shuttingDown?: () => boolean;
  log: (line: string) => void;
  /** Grace between SIGTERM and SIGKILL on stop. */
  stopGraceMs?: number;
  /** The wait before the first restart (default 500 ms); it doubles with each crash in a row, up to 30 s. */
  restartDelayMs?: number;
}

/** The wait before restarting a process that died, unless a program sets its own. */
export const RESTART_DELAY_MS = 500;

/** Keeps one process running: restarts it with backoff when it dies unexpectedly. */
export class Supervisor {
  private current: ManagedProcess;
  private restarts = 0;
  private stopped = false;
  private readonly program: Required<Omit<SupervisedProgram, 'logFile' | 'runDir' | 'restartDelayMs'>> & Pick<SupervisedProgram, 'logFile' | 'runDir' | 'restartDelayMs'>;

  constructor(private readonly options: SupervisedProcess | SupervisedProgram) {
    this.program = 'spawn' in options ? { shuttingDown: () => false, stopGraceMs: 15_000, ...options } : nodeProgram(options);
    this.current = this.start();
  }

  get name(): string {
    return this.program.name;
  }

  /** The run going on now (or the last one, between a crash and its restart). */
  get process(): ManagedProcess {
    return this.current;
  }

  private start(): ManagedProcess {
    const { name, spawn, logFile, runDir, shuttingDown, log, restartDelayMs = RESTART_DELAY_MS } = this.program;
    const logOffset = logFile ? fileSize(logFile) : 0;
    const managed = spawn();
    const startedAt = Date.now();
    if (runDir) {
      // Operators and the resilience tests find each process here.
      fs.mkdirSync(runDir, { recursive: true });
      fs.writeFileSync(path.join(runDir, `${name}.pid`), String(managed.child.pid ?? ''), { mode: 0o600 });
    }
    managed.child.once('exit', (code, signal) => {
      if (this.stopped || shuttingDown()) return;
      const onRefusal = 'onRefusal' in this.options ? this.options.onRefusal : undefined;
      if (code === EXIT_REFUSED_TO_START && onRefusal) {
        this.stopped = true;
        // Whole: a refusal says what to do about it, which a restart line's short reason would cut.
        onRefusal((logFile ? exitReason(logFile, logOffset, 4_000) : undefined) ?? `${name} refused to start (exit ${code})`);
        return;
      }
      // A process that ran a while before dying starts again from a short delay.
      if (Date.now() - startedAt > 60_000) this.restarts = 0;
      const delay = Math.min(30_000, restartDelayMs * 2 ** this.restarts++);
      // On a console the process's own output already said why.
      const reason = logFile ? exitReason(logFile, logOffset) : undefined;
      log(`${name} exited (${signal ?? code})${reason ? `: ${reason}` : ''}; restarting in ${delay} ms`);
      setTimeout(() => {
        if (!this.stopped && !shuttingDown()) this.current = this.start();
      }, delay).unref();
    });
    return managed;
  }

  async stop(graceMs = this.program.stopGraceMs): Promise<void> {
    this.stopped = true;
    await this.current.stop(graceMs);
  }
}

function nodeProgram({ name, entry, env, logsDir, runDir, toConsole, shuttingDown, log }: SupervisedProcess) {
  const logFile = toConsole ? undefined : path.join(logsDir, `${name}.log`);
  return {
    name,
    logFile,
    runDir,
    shuttingDown,
    log,
    stopGraceMs: 15_000,
    spawn: () => spawnManaged({ name, command: process.execPath, args: [entry], env, ...(logFile ? { logFile } : { inheritOutput: true }) }),
  };
}
