import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { checkHealth } from '@hangar/grpc';
import { localAdminCredentials, localServiceSecrets } from './admin-credentials';
import { ManagedProcess, spawnManaged } from './child-processes';
import { REPO_ROOT } from './go-tools';
import { Infrastructure, resolveInfrastructure } from './infrastructure';
import { freePort, waitFor } from './net';

/** The services behind the gateway, each its own process. */
const SERVICES = ['users', 'apps', 'releases', 'debug-files', 'webhooks'] as const;
type ServiceName = (typeof SERVICES)[number];

const print = (line: string) => process.stdout.write(`${line}\n`);

/**
 * `npm run up`: resolves MongoDB-wire, NATS and S3, starts every service and
 * the gateway as processes, restarts one that dies, prints where Hangar is,
 * and on SIGINT/SIGTERM stops what it started in order.
 */
export async function runSystem(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const dataDir = path.resolve(env.HANGAR_DATA_DIR || path.join(REPO_ROOT, '.hangar'));
  const httpPort = Number(env.HANGAR_PORT || 8080);
  const logsDir = path.join(dataDir, 'logs');
  const toConsole = env.HANGAR_LOG_TO_CONSOLE === '1';
  fs.mkdirSync(logsDir, { recursive: true });

  const infra = await resolveInfrastructure({ dataDir, env, log: print });
  const admin = localAdminCredentials(dataDir, env);
  const secrets = localServiceSecrets(dataDir, env);
  const dbPrefix = env.HANGAR_DB_PREFIX || 'hangar';

  // Children see the launcher's environment (so any setting a service reads,
  // e.g. MAX_UPLOAD_BYTES or S3_BUCKET, can be given to `npm run up`), with
  // the resolved addresses on top.
  const shared: NodeJS.ProcessEnv = {
    ...env,
    NODE_ENV: env.NODE_ENV ?? 'production',
    LOG_LEVEL: env.LOG_LEVEL ?? 'info',
    MONGO_URL: infra.mongoUrl,
    NATS_URL: infra.natsUrl,
    S3_ENDPOINT: infra.s3.endpoint,
    S3_ACCESS_KEY: infra.s3.accessKey,
    S3_SECRET_KEY: infra.s3.secretKey,
    ...secrets,
    ...(env.NATS_SUBJECT_PREFIX ? { NATS_SUBJECT_PREFIX: env.NATS_SUBJECT_PREFIX } : {}),
    ...versionEnv(),
  };

  const supervisors: Supervisor[] = [];
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    print('\nStopping Hangar…');
    // Gateway first (stop taking requests), then the services, then the servers.
    for (const group of [supervisors.filter((s) => s.name === 'gateway'), supervisors.filter((s) => s.name !== 'gateway')]) {
      await Promise.all(group.map((s) => s.stop()));
    }
    await infra.stop();
    print('Stopped.');
    process.exit(code);
  };
  process.once('SIGINT', () => void stopAll(0));
  process.once('SIGTERM', () => void stopAll(0));

  try {
    const targets = {} as Record<ServiceName, string>;
    for (const name of SERVICES) targets[name] = `127.0.0.1:${await freePort()}`;
    // Each process serves /metrics on its own port (METRICS_PORT=0 given to
    // `npm run up` turns them all off), recorded beside the pid files.
    const metricsPorts: Record<string, string> = {};
    for (const name of [...SERVICES, 'gateway']) {
      metricsPorts[name] = env.METRICS_PORT === '0' ? '0' : String(await freePort());
      const portFile = path.join(dataDir, 'run', `${name}.metrics-port`);
      fs.mkdirSync(path.dirname(portFile), { recursive: true });
      fs.writeFileSync(portFile, metricsPorts[name]!);
    }
    // Every process learns where every service is; each reads what it needs.
    Object.assign(shared, {
      USERS_GRPC_TARGET: targets.users,
      APPS_GRPC_TARGET: targets.apps,
      RELEASES_GRPC_TARGET: targets.releases,
      DEBUG_FILES_GRPC_TARGET: targets['debug-files'],
      WEBHOOKS_GRPC_TARGET: targets.webhooks,
    });
    for (const name of SERVICES) {
      const serviceEnv: NodeJS.ProcessEnv = {
        ...shared,
        GRPC_LISTEN: targets[name],
        METRICS_PORT: metricsPorts[name],
        MONGO_DB: `${dbPrefix}_${name.replace('-', '_')}`,
        ...(name === 'users'
          ? { HANGAR_ADMIN_EMAIL: admin.email, HANGAR_ADMIN_PASSWORD: admin.password, HANGAR_ADMIN_TOKEN: admin.token }
          : {}),
      };
      supervisors.push(new Supervisor(name, serviceEntry(name), serviceEnv, logsDir, toConsole, () => stopping));
    }
    await Promise.all(SERVICES.map((name) => waitFor(`${name} service`, () => checkHealth(targets[name]), { timeoutMs: 60_000, intervalMs: 250 })));

    supervisors.push(
      new Supervisor(
        'gateway',
        serviceEntry('gateway'),
        {
          ...shared,
          HTTP_HOST: env.HTTP_HOST ?? '127.0.0.1',
          HANGAR_PORT: String(httpPort),
          METRICS_PORT: metricsPorts.gateway,
          ...(env.PUBLIC_BASE_URL ? { PUBLIC_BASE_URL: env.PUBLIC_BASE_URL } : {}),
        },
        logsDir,
        toConsole,
        () => stopping,
      ),
    );
    const url = `http://127.0.0.1:${httpPort}`;
    await waitFor('the gateway', () => httpOk(`${url}/api/health`), { timeoutMs: 60_000, intervalMs: 250 });
    const tokenWorks = await httpOk(`${url}/api/users/me`, admin.token);
    printBanner(url, admin, tokenWorks, infra, logsDir, dataDir);
  } catch (err) {
    print(`Hangar failed to start: ${err instanceof Error ? err.message : String(err)}`);
    print(`Logs: ${logsDir}`);
    await stopAll(1);
  }
}

function printBanner(url: string, admin: ReturnType<typeof localAdminCredentials>, tokenWorks: boolean, infra: Infrastructure, logsDir: string, dataDir: string) {
  print('');
  print(`Hangar is running at ${url}`);
  print(`  admin:       ${admin.email}`);
  if (tokenWorks) {
    print(`  admin token: ${admin.token}`);
    if (admin.generated.includes('password')) print(`  (password and token are kept in ${path.join(dataDir, 'admin-credentials.json')})`);
  } else {
    print('  admin token: an admin already existed in this database with other credentials;');
    print('               set HANGAR_ADMIN_TOKEN to the one it was created with, or use a fresh HANGAR_DATA_DIR.');
  }
  print(`  MongoDB:     ${infra.origins.mongo}`);
  print(`  NATS:        ${infra.origins.nats}`);
  print(`  S3:          ${infra.origins.s3}`);
  print(`  logs:        ${logsDir}`);
  print('Press Ctrl-C to stop.');
}

function serviceEntry(name: string): string {
  return path.join(REPO_ROOT, 'services', name, 'dist', 'main.js');
}

function versionEnv(): NodeJS.ProcessEnv {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
  let vcsRef = 'unknown';
  try {
    vcsRef = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    // Not a git checkout (a tarball): the version still says what runs.
  }
  return { HANGAR_VERSION: pkg.version, HANGAR_VCS_REF: vcsRef, HANGAR_BUILD_DATE: new Date().toISOString() };
}

function httpOk(url: string, token?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(url, { headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.setTimeout(2_000, () => req.destroy());
    req.once('error', () => resolve(false));
  });
}

/** Keeps one process running: restarts it with backoff when it dies unexpectedly. */
class Supervisor {
  private current: ManagedProcess;
  private restarts = 0;
  private stopped = false;

  constructor(
    readonly name: string,
    private readonly entry: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly logsDir: string,
    private readonly toConsole: boolean,
    private readonly shuttingDown: () => boolean,
  ) {
    this.current = this.start();
  }

  private start(): ManagedProcess {
    const managed = spawnManaged({
      name: this.name,
      command: process.execPath,
      args: [this.entry],
      env: this.env,
      ...(this.toConsole ? { inheritOutput: true } : { logFile: path.join(this.logsDir, `${this.name}.log`) }),
    });
    const startedAt = Date.now();
    // Operators and the resilience tests find each process here.
    const pidFile = path.join(this.logsDir, '..', 'run', `${this.name}.pid`);
    fs.mkdirSync(path.dirname(pidFile), { recursive: true });
    fs.writeFileSync(pidFile, String(managed.child.pid ?? ''));
    managed.child.once('exit', (code, signal) => {
      if (this.stopped || this.shuttingDown()) return;
      // A process that ran a while before dying starts again from a short delay.
      if (Date.now() - startedAt > 60_000) this.restarts = 0;
      const delay = Math.min(30_000, 500 * 2 ** this.restarts++);
      print(`${this.name} exited (${signal ?? code}); restarting in ${delay} ms`);
      setTimeout(() => {
        if (!this.stopped && !this.shuttingDown()) this.current = this.start();
      }, delay).unref();
    });
    return managed;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.current.stop(15_000);
  }
}
