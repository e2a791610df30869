import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, freePort, replicaName, replicasSetting } from '@hangar/infra';
import { problemLines, testFileHasFailed } from './failure-logs';
import { eventually } from './eventually';
import { uniqueName } from './test-infrastructure';

export interface RunningHangar {
  baseUrl: string;
  adminToken: string;
  adminPassword: string;
  dataDir: string;
  /** Everything the launcher printed so far. */
  output(): string;
  /** Its S3 bucket (its own: the storage janitors remove what its databases do not know). */
  bucket: string;
  /** HANGAR_DB_PREFIX: its databases are `<dbPrefix>_<service>`, for a test that reads a state no API shows. */
  dbPrefix: string;
  /** The launcher's own pid (`node scripts/up.mjs`): SIGINT to it stops the whole Hangar. */
  launcherPid: number;
  /** How many processes of every service and of the gateway run (HANGAR_REPLICAS). */
  replicas: number;
  /** Pid of one replica (0: the first) of one of the launcher's processes (from its run/ folder). */
  pidOf(name: string, replica?: number): number;
  /** Pids of every replica of a process, the first first. */
  pidsOf(name: string): number[];
  /** Port of one replica's Prometheus `/metrics` (from the launcher's run/ folder). */
  metricsPortOf(name: string, replica?: number): number;
  /** Ports of every replica's `/metrics`: a count across the system is their sum. */
  metricsPortsOf(name: string): number[];
  /**
   * Sends `signal` to every replica of a process and resolves once the launcher
   * has started each again (a new pid in its run/ folder); rejects after `timeoutMs`.
   */
  restartEvery(name: string, signal: NodeJS.Signals, timeoutMs?: number): Promise<void>;
  /** The logs of every replica of a process so far (`logs/users.log`, `logs/users.1.log`, …): any of them may have served a request. */
  logOf(name: string): string;
  /** Sends a signal to the launcher (`npm run up`) alone, as a terminal or npm would. */
  signalLauncher(signal: NodeJS.Signals): void;
  /** Resolves with the launcher's exit code (null when a signal ended it) once it has exited. */
  exited(): Promise<number | null>;
  /** SIGINT, as Ctrl-C; resolves with the launcher's exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts Hangar the way the README does (`npm run up`, i.e. scripts/up.mjs),
 * against the servers jest's global setup resolved, with its own databases,
 * event subjects, bucket, port and data dir so suites never see each other's
 * data. The bucket matters beyond tidiness: the storage janitors remove objects
 * their own databases do not know, so two installations must never share one.
 */
export interface StartOptions {
  /** Use this data dir (a restart on the same data) instead of a new one. */
  dataDir?: string;
  /** Leave the data dir in place on stop(), for a later start on it. */
  keepDataDir?: boolean;
  /**
   * Write the launcher's output to this file instead of reading it through pipes, and
   * let the jest worker exit while it runs (shared-hangar.ts: a Hangar that outlives
   * the test file that started it must hold nothing of that file's context).
   */
  outputFile?: string;
}

/**
 * Replicas of every process in every Hangar the tests start: `HANGAR_E2E_REPLICAS`
 * (one when unset), unless a test asks for a number itself.
 */
export function e2eReplicas(extraEnv: NodeJS.ProcessEnv = {}): number {
  return replicasSetting({ HANGAR_REPLICAS: extraEnv.HANGAR_REPLICAS ?? process.env.HANGAR_E2E_REPLICAS });
}

/**
 * Where `npm test` collects each Hangar start's time (HANGAR_START_LOG, one `ms<TAB>replicas<TAB>file`
 * line each), for its figures: starting whole systems is the end-to-end tier's largest fixed cost.
 */
function recordStart(ms: number, replicas: number): void {
  const log = process.env.HANGAR_START_LOG;
  if (!log) return;
  const testPath = (globalThis as { expect?: { getState?: () => { testPath?: string } } }).expect?.getState?.().testPath ?? '';
  fs.appendFileSync(log, `${ms}\t${replicas}\t${path.relative(REPO_ROOT, testPath)}\n`);
}

export async function startHangar(extraEnv: NodeJS.ProcessEnv = {}, options: StartOptions = {}): Promise<RunningHangar> {
  const startedAt = Date.now();
  const port = await freePort();
  const replicas = e2eReplicas(extraEnv);
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-e2e-'));
  // mkdtemp makes it 0700: a PostgreSQL the launcher starts runs as the postgres user and must get in.
  fs.chmodSync(dataDir, 0o755);
  const adminToken = `hgr_${uniqueName('e2e-admin-token').replace(/[^A-Za-z0-9]/g, '')}`;
  const adminPassword = 'e2e-admin-password';
  const prefix = uniqueName('e2e').replace(/-/g, '_');
  const bucket = extraEnv.S3_BUCKET ?? uniqueName('e2e-bucket');
  const outputFd = options.outputFile ? fs.openSync(options.outputFile, 'a', 0o600) : undefined;
  const child: ChildProcess = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts', 'up.mjs')], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      HANGAR_PORT: String(port),
      HANGAR_DATA_DIR: dataDir,
      HANGAR_DB_PREFIX: prefix,
      NATS_SUBJECT_PREFIX: prefix.replace(/_/g, '-'),
      HANGAR_ADMIN_TOKEN: adminToken,
      HANGAR_ADMIN_PASSWORD: adminPassword,
      HANGAR_ADMIN_EMAIL: 'admin@e2e.test',
      S3_BUCKET: bucket,
      // Suites send unknown tokens on purpose, all from 127.0.0.1: the limit of
      // failed tokens per address is shown by limits-across-replicas.test.ts, which sets its own.
      TOKEN_MAX_FAILURES: '1000000',
      // Unknown channel keys likewise: shown by password-gate-and-proxies.test.ts, which sets its own.
      CHANNEL_KEY_MAX_FAILURES: '1000000',
      RETRACE_MAX_CALLS: '1000000',
      // The image's default (302 to presigned URLs), which the suites' clients on this machine can
      // follow; the launcher alone would stream downloads, its S3 being on loopback
      // (trust-at-the-edges.test.ts passes DOWNLOAD_REDIRECT: undefined to see that).
      DOWNLOAD_REDIRECT: 'true',
      ...extraEnv,
      HANGAR_REPLICAS: String(replicas),
    },
    stdio: outputFd === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', outputFd, outputFd],
  });
  let piped = '';
  child.stdout?.on('data', (d: Buffer) => (piped += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (piped += d.toString()));
  if (outputFd !== undefined) {
    fs.closeSync(outputFd);
    child.unref();
  }
  const outputFile = options.outputFile;
  const output = () => (outputFile ? fs.readFileSync(outputFile, 'utf8') : piped);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const baseUrl = `http://127.0.0.1:${port}`;
  // Twice the processes on the same two cores take longer to start.
  const startMs = 110_000 * Math.min(replicas, 2);
  // The launcher's output says which process failed; its log says why, and the data dir
  // (with the logs) is gone once CI's machine is.
  const startFailure = (what: string) => {
    const logged = problemLines(dataDir);
    return new Error(`${what}:\n${output()}${logged ? `\nIts processes logged:\n${logged}` : ''}`);
  };
  // The banner is written line by line: wait for its last line, so a test reading output() sees
  // all of it (the servers' origins, the logs folder), not the part that had arrived.
  const running = () => {
    const text = output();
    const at = text.indexOf(`Hangar is running at ${baseUrl}`);
    return at >= 0 && text.indexOf('Press Ctrl-C to stop.', at) > at;
  };
  await eventually(() => running() || child.exitCode !== null, { timeoutMs: startMs, stepMs: 200 }).catch(() => undefined);
  if (!running()) {
    if (child.exitCode !== null) throw startFailure('Hangar exited during start');
    child.kill('SIGKILL');
    throw startFailure('Hangar did not start in time');
  }
  recordStart(Date.now() - startedAt, replicas);

  const runFile = (name: string, replica: number, kind: 'pid' | 'metrics-port') =>
    Number(fs.readFileSync(path.join(dataDir, 'run', `${replicaName(name, replica)}.${kind}`), 'utf8'));

  const pidsOf = (name: string) => Array.from({ length: replicas }, (_, i) => runFile(name, i, 'pid'));

  return {
    baseUrl,
    adminToken,
    adminPassword,
    dataDir,
    launcherPid: child.pid!,
    bucket,
    dbPrefix: extraEnv.HANGAR_DB_PREFIX ?? prefix,
    output,
    replicas,
    pidOf: (name, replica = 0) => runFile(name, replica, 'pid'),
    pidsOf,
    metricsPortOf: (name, replica = 0) => runFile(name, replica, 'metrics-port'),
    metricsPortsOf: (name) => Array.from({ length: replicas }, (_, i) => runFile(name, i, 'metrics-port')),
    async restartEvery(name, signal, timeoutMs = 60_000) {
      const before = pidsOf(name);
      for (const pid of before) process.kill(pid, signal);
      const restarted = () => {
        try {
          return pidsOf(name).every((pid, i) => pid !== before[i]);
        } catch {
          // A pid file is rewritten when its process starts again; mid-write it may not parse.
          return false;
        }
      };
      await eventually(restarted, { timeoutMs, stepMs: 100, what: `${name} to restart after ${signal}` });
    },
    logOf: (name) =>
      Array.from({ length: replicas }, (_, i) => path.join(dataDir, 'logs', `${replicaName(name, i)}.log`))
        .map((file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''))
        .join('\n'),
    signalLauncher: (signal) => child.kill(signal),
    exited: () => exited,
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT');
      const code = await exited;
      if (testFileHasFailed()) {
        const lines = problemLines(dataDir);
        if (lines) console.error(`The Hangar of a failed test (${baseUrl}) logged:\n${lines}`);
      }
      if (!options.keepDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
