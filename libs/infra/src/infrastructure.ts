import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { SpawnOptions, spawnManaged } from './child-processes';
import { ferretdbBinary, natsServerBinary, versitygwBinary } from './go-tools';
import { isListening, waitFor } from './net';
import { ferretdbPostgresUrl, resolvePostgres } from './postgres';
import { installIndexTwins } from './postgres-index-twins';
import { migrateSqliteData, sqliteDataDir } from './sqlite-migration';
import { serverRestartDelaySetting } from './server-restarts';
import { SetupError } from './setup-error';
import { Supervisor } from './supervisor';

/** A server started here: supervised (restarted with backoff after a crash) until stopped. */
type Started = { stop(graceMs?: number): Promise<void> };

/** Where each dependency of Hangar is reached. */
export interface Infrastructure {
  mongoUrl: string;
  /** The PostgreSQL under a FerretDB started here (for plan checks); absent otherwise. */
  postgresUrl?: string;
  natsUrl: string;
  s3: { endpoint: string; accessKey: string; secretKey: string };
  /** Human-readable origin of each, for the launcher's banner. */
  origins: { mongo: string; nats: string; s3: string };
  /** Stops the servers this call started (not ones it found running). */
  stop(): Promise<void>;
}

export interface ResolveOptions {
  /** Data of servers started here: HANGAR_DATA_DIR, default .hangar/ in the checkout. */
  dataDir: string;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

export const DEFAULT_PORTS = { mongo: 27017, nats: 4222, s3: 9000 } as const;

/** Credentials of an S3 server Hangar starts itself; only ever on 127.0.0.1. */
const LOCAL_S3_CREDENTIALS = { accessKey: 'hangar-local', secretKey: 'hangar-local-secret' };

const HOST = '127.0.0.1';
/** Where every server started here listens. */
export const LOCAL_HOST = HOST;

/**
 * Resolves MongoDB-wire, NATS and S3, each in the same order: the URL from the
 * environment, else a server already listening on its default port, else one
 * started here on 127.0.0.1 with its data under `dataDir`. Used by `npm run up`
 * and by the test suites, so both run against the same kind of servers.
 */
export async function resolveInfrastructure({ dataDir, env = process.env, log = () => {} }: ResolveOptions): Promise<Infrastructure> {
  const started: Started[] = [];
  const logsDir = path.join(dataDir, 'logs');
  try {
    const mongo = await resolveMongo(env, dataDir, logsDir, started, log);
    const nats = await resolveNats(env, dataDir, logsDir, started, log);
    const s3 = await resolveS3(env, dataDir, logsDir, started, log);
    return {
      mongoUrl: mongo.url,
      postgresUrl: mongo.postgresUrl,
      natsUrl: nats.url,
      s3: s3.s3,
      origins: { mongo: mongo.origin, nats: nats.origin, s3: s3.origin },
      stop: () => stopAll(started),
    };
  } catch (err) {
    await stopAll(started);
    throw err;
  }
}

/**
 * Starts a server under a supervisor: after a crash it runs again with the same arguments (same
 * port, same data), after 0.5 s, 1 s, 2 s … up to 30 s; its pid is in `<dataDir>/run/<name>.pid`.
 */
function superviseServer(options: SpawnOptions & { logFile: string }, launcherEnv: NodeJS.ProcessEnv, runDir: string, log: (l: string) => void): Supervisor {
  const restartDelayMs = serverRestartDelaySetting(launcherEnv);
  return new Supervisor({ name: options.name, spawn: () => spawnManaged(options), logFile: options.logFile, runDir, log, stopGraceMs: 5_000, restartDelayMs });
}

async function stopAll(processes: Started[]): Promise<void> {
  await Promise.all(processes.reverse().map((p) => p.stop(5_000)));
  processes.length = 0;
}

async function resolveMongo(
  env: NodeJS.ProcessEnv,
  dataDir: string,
  logsDir: string,
  started: Started[],
  log: (l: string) => void,
): Promise<{ url: string; origin: string; postgresUrl?: string }> {
  if (env.MONGO_URL) return { url: env.MONGO_URL, origin: 'MONGO_URL' };
  // HANGAR_MONGO_PORT: another port than 27017, e.g. for a second installation beside a running one.
  const port = portFromEnv(env, 'HANGAR_MONGO_PORT', DEFAULT_PORTS.mongo);
  const url = `mongodb://${HOST}:${port}`;
  if (await isListening(HOST, port)) return { url, origin: `already running on ${HOST}:${port}` };
  const engine = databaseEngine(env);
  if (engine === 'sqlite') {
    await startFerretdb(env, ['-data-dir', sqliteDataDir(dataDir)], 'ferretdb', logsDir, started, log, port);
    return { url, origin: `FerretDB on SQLite started here (${sqliteDataDir(dataDir)}; scans every collection)` };
  }
  const postgres = await resolvePostgres(env, dataDir, logsDir, started, log);
  const twins = await installIndexTwins(postgres.url);
  if (!twins.trigger) log('PostgreSQL role is not a superuser: index twins are added at each start, not as indexes are created');
  await startFerretdb(env, [], 'ferretdb', logsDir, started, log, port, { FERRETDB_POSTGRESQL_URL: ferretdbPostgresUrl(postgres.url) });
  await migrateSqliteData({ dataDir, logsDir, targetUrl: url, log });
  return { url, origin: `FerretDB on ${postgres.origin}`, postgresUrl: postgres.url };
}

export function portFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  if (!env[name]) return fallback;
  const port = Number(env[name]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new SetupError(`${name} must be a port number, not ${env[name]}`);
  return port;
}

/** `HANGAR_DB_ENGINE`: `postgresql` (default, index-served) or `sqlite` (FerretDB's scanning backend, kept for comparison). */
export function databaseEngine(env: NodeJS.ProcessEnv): 'postgresql' | 'sqlite' {
  const engine = env.HANGAR_DB_ENGINE ?? 'postgresql';
  if (engine !== 'postgresql' && engine !== 'sqlite') throw new Error(`HANGAR_DB_ENGINE must be postgresql or sqlite, not ${engine}`);
  return engine;
}

async function startFerretdb(
  launcherEnv: NodeJS.ProcessEnv,
  backendArgs: string[],
  name: string,
  logsDir: string,
  started: Started[],
  log: (l: string) => void,
  port: number = DEFAULT_PORTS.mongo,
  env: NodeJS.ProcessEnv = {},
) {
  const binary = ferretdbBinary();
  log(`Starting FerretDB on ${HOST}:${port}`);
  const child = superviseServer(
    { name, command: binary, args: ['-listen', `${HOST}:${port}`, ...backendArgs], env: { ...process.env, ...env }, logFile: path.join(logsDir, `${name}.log`) },
    launcherEnv,
    runDirOf(logsDir),
    log,
  );
  started.push(child);
  await waitFor('FerretDB', () => isListening(HOST, port), { timeoutMs: 30_000 });
  return child;
}

/** The launcher's run/ folder beside logs/ (pid files of every process it started). */
function runDirOf(logsDir: string): string {
  return path.join(path.dirname(logsDir), 'run');
}

async function resolveNats(env: NodeJS.ProcessEnv, dataDir: string, logsDir: string, started: Started[], log: (l: string) => void) {
  if (env.NATS_URL) return { url: env.NATS_URL, origin: 'NATS_URL' };
  // HANGAR_NATS_PORT: another port than 4222, as HANGAR_MONGO_PORT.
  const port = portFromEnv(env, 'HANGAR_NATS_PORT', DEFAULT_PORTS.nats);
  const url = `nats://${HOST}:${port}`;
  if (await isListening(HOST, port)) return { url, origin: `already running on ${HOST}:${port}` };
  const storeDir = path.join(dataDir, 'nats');
  log(`Starting nats-server on ${HOST}:${port}`);
  fs.mkdirSync(storeDir, { recursive: true });
  const child = superviseServer(
    { name: 'nats-server', command: natsServerBinary(), args: ['-a', HOST, '-p', String(port), '-js', '-sd', storeDir], logFile: path.join(logsDir, 'nats.log') },
    env,
    runDirOf(logsDir),
    log,
  );
  started.push(child);
  await waitFor('nats-server', () => isListening(HOST, port), { timeoutMs: 15_000 });
  return { url, origin: `nats-server started here (${storeDir})` };
}

async function resolveS3(env: NodeJS.ProcessEnv, dataDir: string, logsDir: string, started: Started[], log: (l: string) => void) {
  const accessKey = env.S3_ACCESS_KEY ?? LOCAL_S3_CREDENTIALS.accessKey;
  const secretKey = env.S3_SECRET_KEY ?? LOCAL_S3_CREDENTIALS.secretKey;
  if (env.S3_ENDPOINT) return { s3: { endpoint: env.S3_ENDPOINT, accessKey, secretKey }, origin: 'S3_ENDPOINT' };
  // HANGAR_S3_PORT: another port than 9000, as HANGAR_MONGO_PORT.
  const port = portFromEnv(env, 'HANGAR_S3_PORT', DEFAULT_PORTS.s3);
  const endpoint = `http://${HOST}:${port}`;
  if (await isListening(HOST, port)) {
    return { s3: { endpoint, accessKey, secretKey }, origin: `already running on ${HOST}:${port}` };
  }
  const binary = versitygwBinary();
  log(`Starting versitygw on ${HOST}:${port}`);
  const root = path.join(dataDir, 's3', 'data');
  // versitygw keeps object metadata in extended attributes; a sidecar folder
  // works on every filesystem, including ones without user xattrs.
  const sidecar = path.join(dataDir, 's3', 'meta');
  fs.mkdirSync(root, { recursive: true });
  fs.mkdirSync(sidecar, { recursive: true });
  const child = superviseServer(
    {
      name: 'versitygw',
      command: binary,
      args: ['--port', `${HOST}:${port}`, 'posix', '--sidecar', sidecar, root],
      env: { ...process.env, ROOT_ACCESS_KEY: accessKey, ROOT_SECRET_KEY: secretKey },
      logFile: path.join(logsDir, 'versitygw.log'),
    },
    env,
    runDirOf(logsDir),
    log,
  );
  started.push(child);
  await waitFor('versitygw', () => httpAnswers(endpoint), { timeoutMs: 15_000 });
  return { s3: { endpoint, accessKey, secretKey }, origin: `versitygw started here (${root})` };
}

function httpAnswers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(url, (res) => {
      res.resume();
      resolve(true);
    });
    req.setTimeout(500, () => req.destroy());
    req.once('error', () => resolve(false));
  });
}
