#!/usr/bin/env node
// The console's apps page under load: GET /api/apps?per_page=100 for an admin with BENCH_APPS
// (150) apps, a scheme and a channel each, against Hangar started as the README does, and
// against the single-process baseline (bench/reads-baseline.mjs: one express process making
// the same queries with mongoose, no gateway, no gRPC, no caches).
// Prints, for each: one request at a time (p50 of BENCH_SEQUENTIAL_N), BENCH_CONNECTIONS (40)
// connections for BENCH_DURATION_S (req/s, p50, p99), and the database commands each request
// cost (the server's own command counters, serverStatus metrics.commands — FerretDB and MongoDB
// both keep them —, less what the idle system sends in the same time).
// Targets: >= 500 req/s with p99 < 100 ms at 40 connections; queries per request the same at
// 10 and at 100 apps per page.
//   node bench/apps-list.bench.mjs
//   BENCH_SKIP_BUILD=1 BENCH_DURATION_S=5 node bench/apps-list.bench.mjs   (a quick run)
import { execFileSync, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
if (process.env.BENCH_SKIP_BUILD !== '1') execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
const { resolveInfrastructure, freePort } = require(path.join(root, 'libs/infra/dist'));
const { startHangar, explainRecordedQuery } = require(path.join(root, 'libs/testing/dist'));
const { MongoClient } = require(path.join(root, 'node_modules', 'mongodb'));
const autocannon = require('autocannon');

const APPS = Number(process.env.BENCH_APPS ?? 150);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 40);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const SEQUENTIAL_N = Number(process.env.BENCH_SEQUENTIAL_N ?? 30);
const TARGETS = { rps: 500, p99Ms: 100 };
const progress = (line) => process.stderr.write(`[apps-list bench] ${new Date().toISOString().slice(11, 19)} ${line}\n`);
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

const running = { infra: undefined, hangar: undefined, baseline: undefined, mongo: undefined };
let adminToken;
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => stopAll().finally(() => process.exit(130)));

console.log(`apps-list benchmark — ${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString()}, load average at start ${load()}`);
let failed = false;
try {
  // Servers of its own under .hangar/bench-apps-list, on ports of their own — FerretDB on
  // PostgreSQL (the default engine), NATS, S3 — unless MONGO_URL (MongoDB, say) and the others
  // name servers: the command counters are the server's, and another installation on a shared
  // server would add its commands to them (or stop it mid-run).
  const env = { ...process.env };
  if (!env.MONGO_URL && !env.HANGAR_MONGO_PORT) env.HANGAR_MONGO_PORT = String(await freePort());
  if (!env.NATS_URL && !env.HANGAR_NATS_PORT) env.HANGAR_NATS_PORT = String(await freePort());
  if (!env.S3_ENDPOINT && !env.HANGAR_S3_PORT) env.HANGAR_S3_PORT = String(await freePort());
  running.infra = await resolveInfrastructure({ dataDir: path.join(root, '.hangar', 'bench-apps-list'), env, log: progress });
  const infra = running.infra;
  Object.assign(process.env, { MONGO_URL: infra.mongoUrl, NATS_URL: infra.natsUrl, S3_ENDPOINT: infra.s3.endpoint, S3_ACCESS_KEY: infra.s3.accessKey, S3_SECRET_KEY: infra.s3.secretKey, HANGAR_SKIP_BUILD: '1' });
  running.mongo = new MongoClient(infra.mongoUrl, { directConnection: true });
  await running.mongo.connect();
  const build = await running.mongo.db('admin').command({ buildInfo: 1 });
  const engine = `${build.ferretdbVersion ? `FerretDB${build.ferretdbVersion === 'unknown' ? '' : ` ${build.ferretdbVersion}`}` : `MongoDB ${build.version}`}, ${infra.origins?.mongo ?? infra.mongoUrl}`;

  const prefix = `bench_apps_${Date.now().toString(36)}`;
  progress(`starting Hangar (database prefix ${prefix}) on ${engine}`);
  running.hangar = await startHangar({ HANGAR_DB_PREFIX: prefix, NATS_SUBJECT_PREFIX: prefix.replace(/_/g, '-'), LOG_LEVEL: 'warn' });
  const hangar = running.hangar;
  const token = hangar.adminToken;
  adminToken = token; // the restarts below keep it (HANGAR_ADMIN_TOKEN): the admin exists already
  const call = async (method, url, body) => {
    const res = await fetch(`${hangar.baseUrl}${url}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  progress(`creating ${APPS} apps, a scheme and a channel each`);
  for (let i = 0; i < APPS; i += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, APPS - i) }, async (_, j) => {
        const app = await call('POST', '/api/apps', { name: `Bench app ${String(i + j).padStart(3, '0')}` });
        const scheme = await call('POST', `/api/apps/${app.id}/schemes`, { name: 'Beta', new_build_callout: false });
        await call('POST', `/api/schemes/${scheme.id}/channels`, { name: 'Android', device_type: 'android' });
      }),
    );
  }
  const listed = await call('GET', '/api/apps?per_page=100');
  if (listed.length !== 100 || listed.some((a) => a.schemes.length !== 1 || a.schemes[0].channels.length !== 1)) throw new Error('the page does not hold 100 apps with a scheme and a channel each');

  const hangarFigures = await measure('Hangar', hangar.baseUrl, { authorization: `Bearer ${token}` });
  printFigures(hangarFigures);

  // The same installation without the apps service's answer caches: what reading the page from
  // the database costs under load (its commands per request are the cold ones measured above).
  progress('restarting Hangar with APP_VIEW_CACHE_SIZE=0');
  await hangar.stop();
  running.hangar = await startHangar({ HANGAR_DB_PREFIX: prefix, NATS_SUBJECT_PREFIX: prefix.replace(/_/g, '-'), LOG_LEVEL: 'warn', HANGAR_ADMIN_TOKEN: token, APP_VIEW_CACHE_SIZE: '0' });
  const uncachedFigures = await measure('Hangar, no answer cache', running.hangar.baseUrl, { authorization: `Bearer ${token}` }, '', { countCommands: false });
  printFigures(uncachedFigures);

  const port = await freePort();
  running.baseline = spawn(process.execPath, [path.join(root, 'bench', 'reads-baseline.mjs'), String(port), infra.mongoUrl, prefix], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    running.baseline.stdout.on('data', (d) => d.toString().includes('baseline ready') && resolve());
    running.baseline.once('exit', (code) => reject(new Error(`baseline exited with ${code}`)));
  });
  await printPlans(prefix, listed[0].id);

  const baselineFigures = await measure('single-process baseline', `http://127.0.0.1:${port}`, {}, `token=${encodeURIComponent(token)}&`);

  console.log(`\n## GET /api/apps?per_page=100, an admin with ${APPS} apps (a scheme and a channel each), on ${engine}`);
  console.table(
    [hangarFigures, uncachedFigures, baselineFigures].map((f) => ({
      server: f.name,
      'one at a time p50 ms': f.sequentialP50,
      [`${CONNECTIONS} conn. req/s`]: f.rps,
      'p50 ms': f.p50,
      'p99 ms': f.p99,
      'non-2xx/errors': f.failed,
      'commands/request, per_page=100': f.commandsAt100,
      'commands/request, per_page=10': f.commandsAt10,
    })),
  );
  const verdict = (name, ok, value, target) => {
    console.log(`  ${ok ? 'met   ' : 'MISSED'} ${name}: ${value} (target ${target})`);
    if (!ok) failed = true;
  };
  verdict(`Hangar req/s at ${CONNECTIONS} connections`, hangarFigures.rps >= TARGETS.rps, hangarFigures.rps, `>= ${TARGETS.rps}`);
  verdict(`Hangar p99 at ${CONNECTIONS} connections`, hangarFigures.p99 < TARGETS.p99Ms, `${hangarFigures.p99} ms`, `< ${TARGETS.p99Ms} ms`);
  verdict('Hangar commands per page of 100 vs of 10', Number(hangarFigures.commandsAt100) <= Number(hangarFigures.commandsAt10) + 0.5, `${hangarFigures.commandsAt100} vs ${hangarFigures.commandsAt10}`, 'the same');
  console.log(`load average at end ${load()}`);
} catch (err) {
  failed = true;
  console.error(err);
} finally {
  await stopAll();
}
process.exit(failed ? 1 : 0);

/**
 * The plan of each query the list and its refreshes make, explained on this engine as the plan
 * check does (tests/plans): the page reads every tree by design on FerretDB (no sort or limit
 * pushed down; an index on MongoDB); each refresh's reads and its rewrite must use an index.
 */
async function printPlans(prefix, appId) {
  const database = `${prefix}_apps`;
  const LIVE = { deletedAt: { $exists: false } };
  const { BSON } = require(path.join(root, 'node_modules', 'mongodb'));
  const shapes = [
    ['the page (by design: every tree)', 'app_trees', {}, { createdAt: -1, _id: -1 }],
    ['a tree by app', 'app_trees', { _id: appId }],
    ["a tree's rewrite", 'app_trees', { _id: appId, revision: 1 }],
    ['an app', 'apps', { _id: appId, ...LIVE }],
    ["an app's schemes", 'schemes', { appId, ...LIVE }],
    ["an app's channels", 'channels', { appId, ...LIVE }],
  ];
  for (const [what, collection, filter, sort] of shapes) {
    const verdict = await explainRecordedQuery(running.mongo, running.infra.postgresUrl, {
      database,
      collection,
      operation: 'find',
      filter: BSON.EJSON.stringify(filter, { relaxed: false }),
      ...(sort ? { sort: JSON.stringify(sort) } : {}),
    }).catch((err) => ({ indexed: false, detail: `explain failed: ${err.message}` }));
    console.log(`  plan of ${what} (${collection}): ${verdict.indexed ? 'index' : 'SCAN'} — ${verdict.detail}`);
  }
}

/** One measured server's figures at once, so a later failure does not lose them. */
function printFigures(f) {
  progress(`${f.name}: one at a time p50 ${f.sequentialP50} ms; ${CONNECTIONS} connections ${f.rps} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms, ${f.failed} failed; commands per page of 100 / 10: ${f.commandsAt100} / ${f.commandsAt10} (load ${load()})`);
}

/** The figures of one server: sequential p50, load, and database commands per request. */
async function measure(name, baseUrl, headers, query = '', { countCommands = true } = {}) {
  const url = (perPage) => `${baseUrl}/api/apps?${query}per_page=${perPage}`;
  const get = async (perPage) => {
    const res = await fetch(url(perPage), { headers });
    if (res.status !== 200) throw new Error(`${name}: GET /api/apps answered ${res.status} ${await res.text()}`);
    return res.arrayBuffer();
  };
  progress(`${name}: one request at a time`);
  await get(100);
  const times = [];
  for (let i = 0; i < SEQUENTIAL_N; i += 1) {
    const started = performance.now();
    await get(100);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const commandsAt100 = countCommands ? await commandsPerRequest(() => get(100)) : '—';
  const commandsAt10 = countCommands ? await commandsPerRequest(() => get(10)) : '—';
  progress(`${name}: ${CONNECTIONS} connections for ${DURATION_S} s (load ${load()})`);
  await autocannon({ url: url(100), headers, connections: CONNECTIONS, duration: 2 }); // warm-up
  const result = await autocannon({ url: url(100), headers, connections: CONNECTIONS, duration: DURATION_S, timeout: 10 });
  return {
    name,
    sequentialP50: times[Math.floor(times.length / 2)].toFixed(1),
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors + result.timeouts,
    commandsAt100,
    commandsAt10,
  };
}

/**
 * Database commands per request: the server's command counters over N requests one at a time,
 * less what the same stretch of time costs with no request (the services' own polling: outbox
 * relays, job turns). A cache may answer a repeated request from memory, so each request comes
 * after a change (an app renamed through Hangar's API), and the commands of the renames alone,
 * counted the same way, are taken off: what is left is what reading the page costs.
 */
async function commandsPerRequest(request) {
  const N = 20;
  const total = async () => {
    const status = await running.mongo.db('admin').command({ serverStatus: 1 });
    const commands = status.metrics?.commands ?? {};
    return Object.values(commands).reduce((sum, c) => sum + Number(c?.total ?? 0), 0);
  };
  const idleStart = await total();
  const idleStarted = performance.now();
  await new Promise((r) => setTimeout(r, 2_000));
  const idlePerMs = ((await total()) - idleStart - 1) / (performance.now() - idleStarted);
  const counted = async (work) => {
    const before = await total();
    const started = performance.now();
    for (let i = 0; i < N; i += 1) await work(i);
    return (await total()) - before - 1 - idlePerMs * (performance.now() - started);
  };
  const [newest] = await (await fetch(`${running.hangar.baseUrl}/api/apps?per_page=1`, { headers: { authorization: `Bearer ${adminToken}` } })).json();
  const rename = (i) => renameApp(newest.id, i);
  const renamesAlone = await counted(rename);
  const withReads = await counted(async (i) => {
    await rename(i);
    await request();
  });
  return (Math.max(0, withReads - renamesAlone) / N).toFixed(1);
}

/** Renames an app to one of two names in turn: a write every cache of the apps list must see. */
async function renameApp(id, i) {
  const { baseUrl } = running.hangar;
  const headers = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  const res = await fetch(`${baseUrl}/api/apps/${id}`, { method: 'PUT', headers, body: JSON.stringify({ name: `Bench app renamed ${i % 2}` }) });
  if (res.status !== 200) throw new Error(`rename: ${res.status} ${await res.text()}`);
}

async function stopAll() {
  running.baseline?.kill('SIGTERM');
  running.baseline = undefined;
  await running.mongo?.close().catch(() => undefined);
  running.mongo = undefined;
  await running.hangar?.stop().catch(() => undefined);
  running.hangar = undefined;
  await running.infra?.stop().catch(() => undefined);
  running.infra = undefined;
}
