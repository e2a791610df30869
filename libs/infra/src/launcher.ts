import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { checkHealth as CheckHealth } from '@hangar/grpc';
import { restrictFilesToOwner } from './child-processes';
import { AdminCredentials, localAdminCredentials, localServiceSecrets } from './admin-credentials';
import { REPO_ROOT } from './go-tools';
import { Infrastructure, portFromEnv, resolveInfrastructure } from './infrastructure';
import { freePort, isListening, waitFor } from './net';
import { serviceDatabaseName } from '@hangar/config';
import { databasePrefixSetting } from './database-prefix';
import { natsReplicasSetting } from './nats-replicas';
import { assertPortsFree, portsToBind } from './port-check';
import { downloadRedirectSetting } from './download-redirect';
import { grpcTargetVariable, replicaName, replicasSetting } from './replicas';
import { RoundRobinProxy, startRoundRobinProxy } from './round-robin-proxy';
import { currentBundle } from './service-bundle';
import { Supervisor } from './supervisor';

/**
 * The services behind the gateway, each its own process (or `HANGAR_REPLICAS`
 * of them). Everything below is generic over this list: a service added here
 * gets its replicas, ports, files and `<NAME>_GRPC_TARGET` with no other change.
 */
export const SERVICES = ['users', 'apps', 'releases', 'debug-files', 'webhooks'] as const;

const print = (line: string) => process.stdout.write(`${line}\n`);
/** A second stop signal this soon after the first is the same Ctrl-C delivered twice (see onSignal). */
const SAME_SIGNAL_MS = 1_000;

/**
 * `npm run up`: resolves MongoDB-wire, NATS and S3, starts every service and
 * the gateway as processes — `HANGAR_REPLICAS` of each, the gateways then
 * behind a round-robin proxy on the public port —, restarts one that dies,
 * prints where Hangar is, and on SIGINT/SIGTERM stops what it started in order.
 */
export async function runSystem(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const startedAt = Date.now();
  const dataDir = path.resolve(env.HANGAR_DATA_DIR || path.join(REPO_ROOT, '.hangar'));
  const httpPort = portFromEnv(env, 'HANGAR_PORT', 8080);
  const httpHost = env.HTTP_HOST ?? '127.0.0.1';
  const logsDir = path.join(dataDir, 'logs');
  const runDir = path.join(dataDir, 'run');
  const toConsole = env.HANGAR_LOG_TO_CONSOLE === '1';
  const replicas = replicasSetting(env);
  const dbPrefix = databasePrefixSetting(env);
  // Checked here, once, rather than by every service failing to create its streams.
  natsReplicasSetting(env);
  // Before anything starts or any file of a run (perhaps one still running) is touched.
  await assertPortsFree(await portsToBind(env, { host: httpHost, port: httpPort }));
  fs.mkdirSync(logsDir, { recursive: true });
  // New logs are created 0600 (child-processes.ts); those of an earlier run become so too.
  restrictFilesToOwner(logsDir);
  // Files of an earlier run with more replicas would name processes that are gone.
  fs.rmSync(runDir, { recursive: true, force: true });
  fs.mkdirSync(runDir, { recursive: true });

  const infra = await resolveInfrastructure({ dataDir, env, log: print });
  const admin = localAdminCredentials(dataDir, env);
  const secrets = localServiceSecrets(dataDir, env);

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
    // /metrics of every process on this machine only (the image's default, 0.0.0.0, is for Prometheus in a cluster).
    METRICS_HOST: env.METRICS_HOST || '127.0.0.1',
    // Redirects only to an S3 others can reach; else downloads stream through the gateway.
    DOWNLOAD_REDIRECT: downloadRedirectSetting(env, infra.s3.endpoint),
    ...secrets,
    ...(env.NATS_SUBJECT_PREFIX ? { NATS_SUBJECT_PREFIX: env.NATS_SUBJECT_PREFIX } : {}),
    // V8's compiled code of every module, kept between starts (Node 22.1+; older ones ignore it):
    // a start on Node 24 took 5.8 s and 9 s of CPU without it, 4.3 s and 6.8 s with it.
    NODE_COMPILE_CACHE: env.NODE_COMPILE_CACHE || path.join(dataDir, 'compile-cache'),
    ...versionEnv(),
  };

  const supervisors: { gateway: boolean; supervisor: Supervisor }[] = [];
  let proxy: RoundRobinProxy | undefined;
  let stopping = false;
  const supervise = (program: string, index: number, processEnv: NodeJS.ProcessEnv) =>
    supervisors.push({
      gateway: program === 'gateway',
      supervisor: new Supervisor({
        name: replicaName(program, index),
        entry: serviceEntry(program),
        env: processEnv,
        logsDir,
        runDir,
        toConsole,
        shuttingDown: () => stopping,
        log: print,
        // Nothing a restart could change: stop everything now, with its reason as the last word.
        onRefusal: (reason) => {
          print(`Hangar cannot start: ${replicaName(program, index)}: ${reason}`);
          print(`Logs: ${logsDir}`);
          void stopAll(1);
        },
      }),
    });
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    print('\nStopping Hangar… (Ctrl-C again to stop at once)');
    // The public port first, then the gateways (stop taking requests), then the services, then the servers.
    await proxy?.close();
    for (const gateway of [true, false]) {
      await Promise.all(supervisors.filter((s) => s.gateway === gateway).map((s) => s.supervisor.stop()));
    }
    await infra.stop();
    print('Stopped.');
    process.exit(code);
  };
  // Every signal is handled, never left to its default: a second one would otherwise kill the
  // launcher alone and leave every process it started running, holding its ports.
  let firstSignalAt = 0;
  const onSignal = () => {
    if (!stopping) {
      firstSignalAt = Date.now();
      void stopAll(0);
      return;
    }
    // One Ctrl-C can arrive twice: the terminal signals the whole process group, and npm
    // forwards it to its child too — the launcher itself where sh execs it (bash, macOS).
    if (Date.now() - firstSignalAt < SAME_SIGNAL_MS) return;
    print('Stopping at once.');
    // process.exit runs child-processes' exit hook, which kills every process still running.
    process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    // Each replica of each service listens on its own port; the callers get
    // the list of them all and spread their calls over it (libs/grpc).
    const listens = {} as Record<string, string[]>;
    for (const name of SERVICES) {
      listens[name] = [];
      for (let i = 0; i < replicas; i++) listens[name]!.push(`127.0.0.1:${await freePort()}`);
      shared[grpcTargetVariable(name)] = listens[name]!.join(',');
    }
    // Each process serves /metrics on its own port (METRICS_PORT=0 given to
    // `npm run up` turns them all off), recorded beside the pid files.
    const metricsPortOf = async (name: string) => {
      const port = env.METRICS_PORT === '0' ? '0' : String(await freePort());
      fs.writeFileSync(path.join(runDir, `${name}.metrics-port`), port);
      return port;
    };
    for (const name of SERVICES) {
      for (let i = 0; i < replicas; i++) {
        supervise(name, i, {
          ...shared,
          GRPC_LISTEN: listens[name]![i],
          METRICS_PORT: await metricsPortOf(replicaName(name, i)),
          MONGO_DB: serviceDatabaseName(name, dbPrefix),
          ...(name === 'users'
            ? { HANGAR_ADMIN_EMAIL: admin.email, HANGAR_ADMIN_PASSWORD: admin.password, HANGAR_ADMIN_TOKEN: admin.token }
            : {}),
          // No mail leaves a local run unless SMTP_URL is set: testers' e-mails are .eml files here.
          ...(name === 'webhooks' && !env.SMTP_URL ? { MAILBOX_DIR: mailboxDir(dataDir, env) } : {}),
        });
      }
    }
    const servicesUp = Promise.all(
      SERVICES.flatMap((name) =>
        listens[name]!.map((address, i) => waitFor(`${replicaName(name, i)} service`, () => serving(address), { timeoutMs: 60_000, intervalMs: 250 })),
      ),
    );
    // Awaited below; until then a failure must not count as unhandled.
    servicesUp.catch(() => undefined);

    // The gateways start beside the services, not after them: a gateway needs no service to
    // start (its gRPC clients connect on first call) and its health answers 503 until every
    // service does, so waiting for it below waits for them too. Loading the gateway while the
    // services open their databases took about 3 s off every start (9 → 6 s on two cores).
    // One gateway takes the public port itself; several sit behind the proxy, each on a port of its own.
    const gatewayPorts = replicas === 1 ? [httpPort] : await Promise.all(Array.from({ length: replicas }, () => freePort()));
    for (let i = 0; i < replicas; i++) {
      supervise('gateway', i, {
        ...shared,
        HTTP_HOST: replicas === 1 ? httpHost : '127.0.0.1',
        HANGAR_PORT: String(gatewayPorts[i]),
        METRICS_PORT: await metricsPortOf(replicaName('gateway', i)),
        // Its own folder, the same across its restarts: a killed gateway sends the audit entries it held.
        AUDIT_SPOOL_DIR: path.join(dataDir, 'audit-spool', replicaName('gateway', i)),
        ...(env.PUBLIC_BASE_URL ? { PUBLIC_BASE_URL: env.PUBLIC_BASE_URL } : {}),
        // Behind the round-robin proxy the gateways believe its X-Forwarded-* (it connects from
        // loopback), else their limits would count every client as the proxy's one address.
        ...(replicas > 1 ? { TRUSTED_PROXIES: ['loopback', env.TRUSTED_PROXIES ?? ''].join(',').replace(/,$/, '') } : {}),
      });
    }
    await servicesUp;
    await Promise.all(
      gatewayPorts.map((port, i) => waitFor(replicaName('gateway', i), () => httpOk(`http://127.0.0.1:${port}/api/health`), { timeoutMs: 60_000, intervalMs: 250 })),
    );
    if (replicas > 1) {
      proxy = await startRoundRobinProxy({ host: httpHost, port: httpPort, targets: gatewayPorts.map((port) => `http://127.0.0.1:${port}`), trustedProxies: env.TRUSTED_PROXIES });
    }
    const url = `http://127.0.0.1:${httpPort}`;
    await waitFor('the gateway', () => httpOk(`${url}/api/health`), { timeoutMs: 60_000, intervalMs: 250 });
    const seen = await adminAsSeen(url, admin.token);
    printBanner(url, admin, seen, startedAt, infra, logsDir, replicas, dataDir, env);
  } catch (err) {
    print(`Hangar failed to start: ${err instanceof Error ? err.message : String(err)}`);
    print(`Logs: ${logsDir}`);
    await stopAll(1);
  }
}

/** Where testers' e-mails go without SMTP_URL: MAILBOX_DIR, else the data folder's `mailbox`. */
function mailboxDir(dataDir: string, env: NodeJS.ProcessEnv): string {
  return env.MAILBOX_DIR || path.join(dataDir, 'mailbox');
}

/** The SMTP server without its credentials, for the banner. */
function smtpOrigin(smtpUrl: string): string {
  try {
    const url = new URL(smtpUrl);
    return `${url.protocol}//${url.host}`;
  } catch {
    return 'SMTP_URL';
  }
}

function printBanner(
  url: string,
  admin: AdminCredentials,
  seen: AdminAsSeen | undefined,
  startedAt: number,
  infra: Infrastructure,
  logsDir: string,
  replicas: number,
  dataDir: string,
  env: NodeJS.ProcessEnv,
) {
  print('');
  print(`Hangar is running at ${url}`);
  if (replicas > 1) print(`  replicas:    ${replicas} of every service and of the gateway (round-robin at ${url})`);
  print(`  admin:       ${admin.email}`);
  if (seen) {
    for (const line of passwordLines(admin, seen.createdAtMs >= startedAt)) print(line);
    print(`  admin token: ${admin.token}`);
    if (fs.existsSync(admin.file)) print(`  (generated values are kept in ${admin.file}, readable by you only)`);
  } else {
    print('  admin token: an admin already existed in this database with other credentials;');
    print('               set HANGAR_ADMIN_TOKEN to the one it was created with, or use a fresh HANGAR_DATA_DIR.');
  }
  print(`  MongoDB:     ${infra.origins.mongo}`);
  print(`  NATS:        ${infra.origins.nats}`);
  print(`  S3:          ${infra.origins.s3}`);
  print(`  logs:        ${logsDir}`);
  print(`  e-mail:      ${env.SMTP_URL ? `through ${smtpOrigin(env.SMTP_URL)}` : `not sent: written as .eml files into ${mailboxDir(dataDir, env)} (set SMTP_URL to send)`}`);
  print('Press Ctrl-C to stop.');
}

/**
 * The admin's password, as a person signing in to the console needs it. Shown only by the start
 * that created the admin with it: a later start cannot know it is still the admin's (it may have
 * been changed in the console), and a secret printed on every start fills terminals and CI logs.
 * One the operator set is not echoed: they know it, and it may be one they use elsewhere.
 */
function passwordLines(admin: AdminCredentials, createdByThisStart: boolean): string[] {
  if (admin.passwordFrom === 'environment') {
    return [createdByThisStart ? '  password:    the one in HANGAR_ADMIN_PASSWORD' : "  password:    the admin's own (HANGAR_ADMIN_PASSWORD sets it only when the admin is created)"];
  }
  if (createdByThisStart) return [`  password:    ${admin.password}`, '               (shown on this first start only)'];
  return ['  password:    printed by the first start, not again'];
}

interface AdminAsSeen {
  createdAtMs: number;
}

/** The admin the token belongs to, as the API answers (undefined when it does not accept the token). */
async function adminAsSeen(url: string, token: string): Promise<AdminAsSeen | undefined> {
  try {
    const res = await fetch(`${url}/api/users/me`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(5_000) });
    if (res.status !== 200) return undefined;
    const me = (await res.json()) as { created_at?: string };
    return { createdAtMs: me.created_at ? Date.parse(me.created_at) : 0 };
  } catch {
    return undefined;
  }
}

/**
 * A service's gRPC health, asked once its port accepts connections: a service listens when it is
 * ready, and a refused TCP connect costs next to nothing, while each gRPC probe makes a channel of
 * its own (createProbeChannel) — polled every 250 ms for five services through a start, the probes
 * were the launcher's largest cost: 1.33 s of CPU per start with them, 0.97 s without
 * (bench/service-start.bench.mjs).
 */
async function serving(address: string): Promise<boolean> {
  const [host, port] = address.split(':');
  // gRPC is loaded at the first probe, not with @hangar/infra: every test file loads the library.
  const { checkHealth } = require('@hangar/grpc') as { checkHealth: typeof CheckHealth };
  return (await isListening(host!, Number(port))) && checkHealth(address);
}

/** The service's one-file bundle when it is current (service-bundle.ts), else its dist/main.js. */
function serviceEntry(name: string): string {
  const main = path.join(REPO_ROOT, 'services', name, 'dist', 'main.js');
  return currentBundle(main) ?? main;
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
