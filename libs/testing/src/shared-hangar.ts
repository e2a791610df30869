import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, replicaName } from '@hangar/infra';
import { problemLines, testFileHasFailed } from './failure-logs';
import { startHangar, type RunningHangar } from './hangar-process';

/**
 * One Hangar per jest worker, shared by the end-to-end files that neither stop, break
 * nor reconfigure it: starting the whole system (6 processes, 12 with two replicas)
 * costs more than most of those files' tests together.
 *
 * Why it is safe to share: each of those files makes its own users, apps, channels and
 * buckets' objects (unique names), and a jest worker runs one file at a time, so no two
 * files use one Hangar at once. A file that kills, signals, freezes or restarts a
 * process, counts something system-wide, or needs a setting of its own starts its own
 * Hangar with `startHangar` — the list is in tests/e2e/README.md.
 *
 * Why a file on disk: jest gives every test file a fresh module registry, so nothing in
 * memory outlives the file that started the Hangar; the worker process does. The record
 * names the worker's pid and the jest run's, and `stopSharedHangars` (the global
 * teardown) stops every Hangar of its run — and any a killed run left behind.
 */

/** Settings the shared Hangar runs with: the union of what its files need, none that changes what another sees. */
export const SHARED_HANGAR_ENV: Readonly<NodeJS.ProcessEnv> = {
  // Webhook receivers in tests listen on 127.0.0.1; retries short so deliveries are seen quickly.
  HANGAR_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  WEBHOOK_SECRET_KEY: 'e2e-shared-webhook-secret-key-0123456789abcdef',
  // A shared Hangar lives through the whole run, idle while its worker runs files with Hangars of
  // their own: a 100 ms poll kept the database busy all along. New deliveries are dispatched at once
  // (the dispatcher is poked); only retries wait for a poll.
  WEBHOOK_POLL_MS: '500',
  WEBHOOK_RETRY_BASE_MS: '300',
  WEBHOOK_TIMEOUT_MS: '3000',
};

interface SharedRecord {
  baseUrl: string;
  adminToken: string;
  adminPassword: string;
  dataDir: string;
  replicas: number;
  launcherPid: number;
  bucket: string;
  dbPrefix: string;
  workerPid: number;
  /** The jest run (its main process) the worker belongs to: set by the global setup. */
  runPid: number;
  outputFile: string;
}

function recordsDir(): string {
  return path.join(process.env.HANGAR_TEST_DATA_DIR ?? path.join(REPO_ROOT, '.hangar', 'test'), 'shared-hangars');
}

function recordFile(workerPid: number): string {
  return path.join(recordsDir(), `worker-${workerPid}.json`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function healthy(baseUrl: string): Promise<boolean> {
  try {
    const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

/**
 * This worker's shared Hangar, started on the first call. `stop()` on it leaves it
 * running (a file calls it in afterAll as it would on its own Hangar) and, when the
 * file failed, prints what the Hangar's processes logged; signalling, restarting and
 * waiting for its exit are refused: a file that needs them starts its own.
 */
export async function sharedHangar(): Promise<RunningHangar> {
  const file = recordFile(process.pid);
  if (fs.existsSync(file)) {
    const record = JSON.parse(fs.readFileSync(file, 'utf8')) as SharedRecord;
    if (alive(record.launcherPid) && (await healthy(record.baseUrl))) return asShared(record);
    // A file before this one broke the Hangar it was promised not to: say so, and start another.
    process.stderr.write(`The shared Hangar at ${record.baseUrl} is not healthy any more: an earlier test file of this worker broke it. Starting another.\n`);
    await stopRecorded(record);
  }
  const runPid = Number(process.env.HANGAR_JEST_RUN_PID ?? process.ppid);
  fs.mkdirSync(recordsDir(), { recursive: true });
  const outputFile = path.join(recordsDir(), `worker-${process.pid}.out`);
  const hangar = await startHangar({ ...SHARED_HANGAR_ENV }, { outputFile });
  const record: SharedRecord = {
    baseUrl: hangar.baseUrl,
    adminToken: hangar.adminToken,
    adminPassword: hangar.adminPassword,
    dataDir: hangar.dataDir,
    replicas: hangar.replicas,
    launcherPid: hangar.launcherPid,
    bucket: hangar.bucket,
    dbPrefix: hangar.dbPrefix,
    workerPid: process.pid,
    runPid,
    outputFile,
  };
  fs.writeFileSync(file, JSON.stringify(record), { mode: 0o600 });
  return asShared(record);
}

function asShared(record: SharedRecord): RunningHangar {
  const { baseUrl, adminToken, adminPassword, dataDir, replicas, launcherPid, bucket, dbPrefix } = record;
  const runFile = (name: string, replica: number, kind: 'pid' | 'metrics-port') =>
    Number(fs.readFileSync(path.join(dataDir, 'run', `${replicaName(name, replica)}.${kind}`), 'utf8'));
  const refused = (what: string) => () => {
    throw new Error(`${what} on the shared Hangar would disturb the files after this one: start a Hangar of your own (startHangar)`);
  };
  return {
    baseUrl,
    adminToken,
    adminPassword,
    dataDir,
    replicas,
    launcherPid,
    bucket,
    dbPrefix,
    output: () => fs.readFileSync(record.outputFile, 'utf8'),
    pidOf: (name, replica = 0) => runFile(name, replica, 'pid'),
    pidsOf: (name) => Array.from({ length: replicas }, (_, i) => runFile(name, i, 'pid')),
    metricsPortOf: (name, replica = 0) => runFile(name, replica, 'metrics-port'),
    metricsPortsOf: (name) => Array.from({ length: replicas }, (_, i) => runFile(name, i, 'metrics-port')),
    restartEvery: refused('Restarting processes'),
    logOf: (name) =>
      Array.from({ length: replicas }, (_, i) => path.join(dataDir, 'logs', `${replicaName(name, i)}.log`))
        .map((log) => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : ''))
        .join('\n'),
    signalLauncher: refused('Signalling the launcher'),
    exited: refused('Waiting for the launcher to exit'),
    async stop() {
      if (testFileHasFailed()) {
        const lines = problemLines(dataDir);
        if (lines) console.error(`The shared Hangar of a failed test (${baseUrl}; its logs hold every file of this worker so far) logged:\n${lines}`);
      }
      return null;
    },
  };
}

async function stopRecorded(record: SharedRecord): Promise<void> {
  if (alive(record.launcherPid)) {
    process.kill(record.launcherPid, 'SIGINT');
    const deadline = Date.now() + 60_000;
    while (alive(record.launcherPid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (alive(record.launcherPid)) process.kill(record.launcherPid, 'SIGKILL');
  }
  fs.rmSync(record.dataDir, { recursive: true, force: true });
  fs.rmSync(recordFile(record.workerPid), { force: true });
  fs.rmSync(record.outputFile, { force: true });
}

/**
 * Stops the shared Hangars of this jest run (the global teardown's process is the run's
 * main process) and those of runs that are gone (killed before their teardown).
 */
export async function stopSharedHangars(runPid = process.pid): Promise<void> {
  if (!fs.existsSync(recordsDir())) return;
  const records = fs
    .readdirSync(recordsDir())
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(fs.readFileSync(path.join(recordsDir(), name), 'utf8')) as SharedRecord)
    .filter((record) => record.runPid === runPid || !alive(record.runPid));
  await Promise.all(records.map(stopRecorded));
}
