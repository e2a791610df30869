#!/usr/bin/env node
// Reads at any size, in one run:
//   1. the old engine (FerretDB on SQLite) at BENCH_SQLITE_RELEASES (20k): one
//      request at a time, median of BENCH_SEQUENTIAL_N, to show the factor;
//   2. the default engine (FerretDB on PostgreSQL, as `npm run up` starts it)
//      at each of BENCH_RELEASES (1k, 20k, 1M): the same table, and the p50 at
//      the largest scale against the smallest;
//   3. at the largest scale: versions of a channel holding 5,000 builds; each
//      read under 100 connections against the single-process express +
//      mongoose baseline (bench/reads-baseline.mjs, the same queries, no
//      caches), with the CPU each process spent per request and the plan of
//      each query; and the install burst (release page, icon, QR code and iOS
//      manifest under 200 connections).
// Every figure is printed with its target; exit 1 when a plan scans.
//   node bench/reads.bench.mjs
//   BENCH_RELEASES=1000,20000 BENCH_SQLITE_RELEASES=5000 node bench/reads.bench.mjs   (a quick run)
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { load } from './reads-load.mjs';
import { createSeeder, RELEASES_PER_CHANNEL } from './reads-seed.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
if (process.env.BENCH_SKIP_BUILD !== '1') execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
const { resolveInfrastructure, freePort } = require(path.join(root, 'libs/infra/dist'));
const { startHangar, explainRecordedQuery } = require(path.join(root, 'libs/testing/dist'));
const { versionSortKey } = require(path.join(root, 'libs/versions/dist'));
const mongoose = require(path.join(root, 'node_modules', 'mongoose'));
const { BSON } = require(path.join(root, 'node_modules', 'mongodb'));
const { openGenerations, GENERATION_KEYS } = require(path.join(root, 'libs/cache/dist'));
const { connect: natsConnect } = require(path.join(root, 'node_modules', '@nats-io/transport-node'));

const SQLITE_SCALE = Number(process.env.BENCH_SQLITE_RELEASES ?? 20_000);
const SCALES = (process.env.BENCH_RELEASES ?? '1000,20000,1000000').split(',').map(Number).sort((a, b) => a - b);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const SEQUENTIAL_N = Number(process.env.BENCH_SEQUENTIAL_N ?? 25);
// The SQLite engine takes seconds per cold request at 20k: the median of 7 there.
const SQLITE_N = Number(process.env.BENCH_SQLITE_N ?? 7);
const BIG_CHANNEL = Number(process.env.BENCH_BIG_CHANNEL ?? 5_000);
const QUERY_NAMES = ['versions', 'latest', 'version_exist', 'GET /api/apps/:id', 'release page'];
const TARGETS = { p50Ms: 15, flatFactor: 1.3, bigChannelMs: 30, ratio: 1.0, p99Ms: 100, burstRps: 1_000, burstP99Ms: 100 };
const progress = (line) => process.stderr.write(`[reads bench] ${new Date().toISOString().slice(11, 19)} ${line}\n`);

// Assigned as they start, so an interruption stops whatever has started.
const running = { infra: undefined, hangar: undefined, baseline: undefined, dbs: [], nats: undefined };
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => stopAll().finally(() => process.exit(130)));

// What the caller set: each phase starts from it, not from the previous phase's servers.
const callerEnv = { ...process.env };
const summary = [];
let scans = 0;
console.log(`reads benchmark — ${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString()}, load average at start ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
try {
  const sqlite = await phase('sqlite', [SQLITE_SCALE]);
  const postgres = await phase('postgresql', SCALES, true);
  const at = (p, scale, name) => p.sequential.get(scale)?.get(name)?.p50;
  const cold = (p, scale, name) => p.cold.get(scale)?.get(name)?.p50;

  for (const [label, of] of [['warm (repeated: from the caches)', at], ['cold (after a change: from the database)', cold]]) {
    console.log(`\n## One request at a time, ${label}: p50 in ms (median of ${SEQUENTIAL_N}; of ${SQLITE_N} on SQLite)`);
    console.table(QUERY_NAMES.map((name) => ({
      query: name,
      [`SQLite ${k(SQLITE_SCALE)}`]: ms(of(sqlite, SQLITE_SCALE, name)),
      ...Object.fromEntries(SCALES.map((s) => [`PostgreSQL ${k(s)}`, ms(of(postgres, s, name))])),
      [`SQLite/PostgreSQL at ${k(SQLITE_SCALE)}`]: ratio(of(sqlite, SQLITE_SCALE, name), of(postgres, SQLITE_SCALE, name)),
    })));
  }
  const [small, large] = [SCALES[0], SCALES.at(-1)];
  for (const [label, of] of [['warm', at], ['cold', cold]]) {
    for (const name of QUERY_NAMES) {
      const [a, b] = [of(postgres, small, name), of(postgres, large, name)];
      target(`${name}: ${label} p50 at ${k(large)}`, b, `<= ${TARGETS.p50Ms} ms`, b !== undefined && b <= TARGETS.p50Ms, ms(b));
      target(`${name}: ${label} p50 at ${k(large)} / at ${k(small)}`, b / a, `<= ${TARGETS.flatFactor}`, a && b && b / a <= TARGETS.flatFactor, (b / a).toFixed(2));
    }
  }
  target(`versions of a ${k(BIG_CHANNEL)}-build channel: warm p50`, postgres.bigChannelP50, `<= ${TARGETS.bigChannelMs} ms`, postgres.bigChannelP50 <= TARGETS.bigChannelMs, ms(postgres.bigChannelP50));
  target(`versions of a ${k(BIG_CHANNEL)}-build channel: cold p50`, postgres.bigChannelColdP50, `<= ${TARGETS.bigChannelMs} ms`, postgres.bigChannelColdP50 <= TARGETS.bigChannelMs, ms(postgres.bigChannelColdP50));
  for (const row of postgres.loadRows) {
    target(`${row.query}: throughput against the baseline, 100 connections`, row.ratio, `>= ${TARGETS.ratio}`, Number(row.ratio) >= TARGETS.ratio, row.ratio);
    target(`${row.query}: Hangar p99, 100 connections`, row['hangar p99 ms'], `< ${TARGETS.p99Ms} ms`, Number(row['hangar p99 ms']) < TARGETS.p99Ms, row['hangar p99 ms']);
  }
  const burst = postgres.burst;
  target('install burst: requests/s, 200 connections', burst.rps, `>= ${TARGETS.burstRps}`, burst.rps >= TARGETS.burstRps, String(burst.rps));
  target('install burst: p99, connections sending as fast as answered', burst.p99, `< ${TARGETS.burstP99Ms} ms`, burst.p99 < TARGETS.burstP99Ms, ms(burst.p99));
  target(`install burst: p99 with ${TARGETS.burstRps} requests/s offered`, burst.offered.p99, `< ${TARGETS.burstP99Ms} ms`, burst.offered.p99 < TARGETS.burstP99Ms, ms(burst.offered.p99));
  console.log('\n## Targets');
  console.table(summary);
  console.log(`load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  if (scans > 0) {
    console.log(`\n${scans} plan(s) scan a collection.`);
    process.exitCode = 1;
  }
} finally {
  await stopAll();
}

/** One engine: its own servers and Hangar, grown through `scales`; `full` adds the load runs. */
async function phase(engine, scales, full = false) {
  const dataDir = path.join(root, '.hangar', 'bench', engine);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  fs.chmodSync(path.join(root, '.hangar', 'bench'), 0o755);
  // Its own FerretDB port: a test run's on 27017 would otherwise be measured instead.
  const env = { ...callerEnv, HANGAR_DB_ENGINE: engine, MONGO_URL: '', HANGAR_MONGO_PORT: String(await freePort()) };
  progress(`${engine}: starting the servers`);
  const infra = (running.infra = await resolveInfrastructure({ dataDir, env, log: progress }));
  // A MongoDB-wire server found on the port (a test run's) would be measured instead of this engine.
  if (!infra.origins.mongo.includes(engine === 'sqlite' ? 'SQLite' : 'PostgreSQL')) throw new Error(`expected FerretDB on ${engine}, found: ${infra.origins.mongo}; stop it first`);
  const prefix = `bench_${engine}_${Date.now().toString(36)}`;
  Object.assign(process.env, { MONGO_URL: infra.mongoUrl, NATS_URL: infra.natsUrl, S3_ENDPOINT: infra.s3.endpoint, S3_ACCESS_KEY: infra.s3.accessKey, S3_SECRET_KEY: infra.s3.secretKey, HANGAR_SKIP_BUILD: '1' });
  const hangar = (running.hangar = await startHangar({ HANGAR_DB_PREFIX: prefix, NATS_SUBJECT_PREFIX: prefix.replace(/_/g, '-'), LOG_LEVEL: 'warn', S3_BUCKET: prefix.replace(/_/g, '-') }));
  const connect = (name) => mongoose.createConnection(infra.mongoUrl, { dbName: `${prefix}_${name}` }).asPromise();
  const dbs = { apps: await connect('apps'), releases: await connect('releases'), users: await connect('users') };
  running.dbs.push(...Object.values(dbs));
  const token = hangar.adminToken;
  const android = await upload(hangar, token, 'android.apk');
  const ios = await upload(hangar, token, 'iphone.ipa');
  const seeder = createSeeder({ appsDb: dbs.apps, releasesDb: dbs.releases, seedChannelSlug: android.channel.slug, versionSortKey, progress });
  const key = android.channel.slug;
  const paths = {
    versions: `/api/apps/versions?channel_key=${key}`,
    latest: `/api/apps/latest?channel_key=${key}&release_version=1.48&build_version=0`,
    version_exist: `/api/apps/version_exist?channel_key=${key}&bundle_id=${encodeURIComponent(android.bundle_id)}&release_version=${android.release_version}&build_version=${android.build_version}`,
    'GET /api/apps/:id': `/api/apps/${android.app.id}?token=${token}`,
    'release page': `/releases/${android.id}`,
  };
  // "Cold": every request follows a change (the caches' generations bumped, as an upload or
  // an edit bumps them), so it is answered from the database; "warm": repeated, from memory.
  running.nats = await natsConnect({ servers: infra.natsUrl });
  const generations = await openGenerations(running.nats, prefix.replace(/_/g, '-'));
  const change = () => generations.bump([GENERATION_KEYS.users, GENERATION_KEYS.apps, GENERATION_KEYS.channelReleases(seeder.queriedChannelId)]);
  const result = { sequential: new Map(), cold: new Map(), loadRows: [], burst: undefined, bigChannelP50: undefined, bigChannelColdP50: undefined };
  for (const scale of scales) {
    const seededIn = await seeder.growTo(scale);
    progress(`${engine}: ${scale} releases over ${seeder.channelCount} channels (${RELEASES_PER_CHANNEL} each), seeded in ${seededIn.toFixed(0)} s`);
    const rows = new Map();
    const coldRows = new Map();
    for (const [name, p] of Object.entries(paths)) {
      const n = engine === 'sqlite' ? SQLITE_N : SEQUENTIAL_N;
      rows.set(name, await sequential(`${hangar.baseUrl}${p}`, undefined, n));
      coldRows.set(name, await sequential(`${hangar.baseUrl}${p}`, change, n));
    }
    result.sequential.set(scale, rows);
    result.cold.set(scale, coldRows);
    console.log(`\n## ${engine}, ${scale.toLocaleString('en')} releases: one request at a time (ms); cold = each request after a change, answered from the database`);
    console.table([...rows].map(([query, r]) => ({ query, 'warm p50': ms(r.p50), 'warm p90': ms(r.p90), 'cold p50': ms(coldRows.get(query).p50), 'cold p90': ms(coldRows.get(query).p90), 'cold max': ms(coldRows.get(query).max), status: r.status })));
  }
  if (full) {
    const bigKey = await seeder.bigChannel(BIG_CHANNEL);
    const bigUrl = `${hangar.baseUrl}/api/apps/versions?channel_key=${bigKey}`;
    result.bigChannelP50 = (await sequential(bigUrl)).p50;
    result.bigChannelColdP50 = (await sequential(bigUrl, () => generations.bump([GENERATION_KEYS.channelReleases(seeder.bigChannelId)]))).p50;
    console.log(`\n## versions of a channel of ${BIG_CHANNEL.toLocaleString('en')} builds: warm p50 ${ms(result.bigChannelP50)} ms, cold p50 ${ms(result.bigChannelColdP50)} ms`);
    await underLoad(hangar, dbs, infra, prefix, paths, android, result);
    result.burst = await installBurst(hangar, ios, infra);
    scans += await printPlans(infra, prefix, android, seeder.queriedChannelId);
  }
  await stopAll();
  return result;
}


async function upload(hangar, token, fixture) {
  const form = new FormData();
  form.append('token', token);
  form.append('file', new Blob([fs.readFileSync(path.join(root, 'tests', 'fixtures', 'apps', fixture))]), fixture);
  const res = await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', body: form });
  if (res.status !== 201) throw new Error(`upload of ${fixture}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Two warm-up requests, then `n` one after another; `before` runs before each, untimed. */
async function sequential(url, before, n = SEQUENTIAL_N) {
  const times = [];
  let status;
  for (let i = 0; i < n + 2; i++) {
    await before?.();
    const started = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    status = res.status;
    if (i >= 2) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const pick = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { p50: pick(0.5), p90: pick(0.9), max: times.at(-1), status };
}

/** Each read under 100 connections, Hangar then the baseline, with the CPU per process. */
async function underLoad(hangar, dbs, infra, prefix, paths, android, result) {
  const basePort = await freePort();
  running.baseline = spawn(process.execPath, [path.join(root, 'bench', 'reads-baseline.mjs'), String(basePort), infra.mongoUrl, prefix], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => running.baseline.stdout.on('data', (d) => String(d).includes('ready') && resolve()));
  const baselinePaths = {
    ...paths,
    latest: `/api/apps/latest?channel_key=${android.channel.slug}&version_key=${encodeURIComponent(versionSortKey('1.48', '0'))}`,
  };
  const processes = processTable(hangar, infra, running.baseline.pid);
  const cpuRows = [];
  for (const name of QUERY_NAMES.filter((n) => n !== 'release page')) {
    progress(`100 connections: ${name}`);
    const h = await load(`${hangar.baseUrl}${paths[name]}`, { processes, durationS: DURATION_S });
    const b = await load(`http://127.0.0.1:${basePort}${baselinePaths[name]}`, { processes, durationS: DURATION_S });
    result.loadRows.push({ query: name, 'hangar req/s': h.rps, 'hangar p50 ms': ms(h.p50), 'hangar p99 ms': ms(h.p99), 'baseline req/s': b.rps, 'baseline p50 ms': ms(b.p50), 'baseline p99 ms': ms(b.p99), ratio: (h.rps / b.rps).toFixed(2), 'hangar failed': h.failed, 'baseline failed': b.failed });
    cpuRows.push({ run: `${name} → Hangar`, ...h.cpuMsPerRequest }, { run: `${name} → baseline`, ...b.cpuMsPerRequest });
  }
  console.log(`\n## 100 connections, ${DURATION_S} s each: Hangar against the single-process baseline`);
  console.table(result.loadRows);
  console.log('CPU milliseconds per request sent, by process (autocannon, the load generator, runs in the bench process):');
  console.table(cpuRows);
  running.baseline.kill();
  running.baseline = undefined;
}

/** A build announced to many testers: each connection cycles through the page, icon, QR code and manifest. */
async function installBurst(hangar, ios, infra) {
  const api = `/api/releases/${ios.id}`;
  const requests = [{ path: `/releases/${ios.id}` }, { path: `${api}/icon` }, { path: `${api}/qrcode?size=384` }, { path: `${api}/manifest.plist` }];
  progress('install burst: 200 connections');
  const processes = processTable(hangar, infra);
  const r = await load(`${hangar.baseUrl}${requests[0].path}`, { processes, durationS: DURATION_S, connections: 200, requests });
  console.log(`\n## Install burst: ${requests.map((q) => q.path).join(', ')} in turn, 200 connections, ${DURATION_S} s`);
  console.table([{ 'req/s': r.rps, 'p50 ms': ms(r.p50), 'p99 ms': ms(r.p99), failed: r.failed, statuses: JSON.stringify(r.statuses) }]);
  console.table([{ run: 'install burst', ...r.cpuMsPerRequest }]);
  // The same 200 connections offering 1,000 requests/s between them (a thousand testers at once),
  // rather than each sending its next request the moment the last is answered: with closed-loop
  // connections, 1,000 requests/s means 200 ms per request on average by Little's law.
  const offered = await load(`${hangar.baseUrl}${requests[0].path}`, { processes, durationS: DURATION_S, connections: 200, requests, overallRate: TARGETS.burstRps });
  console.log(`offered ${TARGETS.burstRps} requests/s on 200 connections: answered ${offered.rps}/s, p50 ${ms(offered.p50)} ms, p99 ${ms(offered.p99)} ms, failed ${offered.failed}`);
  return { ...r, offered };
}

function processTable(hangar, infra, baselinePid) {
  const pgrep = (pattern) => {
    try {
      return execFileSync('pgrep', ['-f', pattern], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  return {
    ...Object.fromEntries(['gateway', 'users', 'apps', 'releases'].map((n) => [n, [hangar.pidOf(n)]])),
    ...(baselinePid ? { baseline: [baselinePid] } : {}),
    ferretdb: pgrep(`ferretdb -listen ${new URL(infra.mongoUrl).host}`),
    // Every process of the postgres user: the backends come and go.
    ...(infra.postgresUrl ? { postgres: 'postgres' } : {}),
    nats: pgrep('nats-server'),
  };
}

/** The plan of every query the measured requests make, judged as the plan check judges them. */
async function printPlans(infra, prefix, android, channelId) {
  const { MongoClient } = require(path.join(root, 'node_modules', 'mongodb'));
  const mongo = new MongoClient(infra.mongoUrl, { directConnection: true });
  await mongo.connect();
  const LIVE = { deletedAt: { $exists: false } };
  const q = (db, collection, filter, sort) => ({ database: `${prefix}_${db}`, collection, operation: 'find', filter: BSON.EJSON.stringify(filter, { relaxed: false }), ...(sort ? { sort: JSON.stringify(sort) } : {}) });
  const plans = {
    'token by hash': q('users', 'tokens', { tokenHash: 'x' }),
    'channel by key': q('apps', 'channels', { slug: android.channel.slug, ...LIVE }),
    'scheme by id': q('apps', 'schemes', { _id: android.scheme.id, ...LIVE }),
    'app by id': q('apps', 'apps', { _id: android.app.id, ...LIVE }),
    "a channel's live releases (versions, latest, version_exist, release page)": q('releases', 'releases', { channelId, ...LIVE }, { _id: -1 }),
    'release by id': q('releases', 'releases', { _id: android.id, ...LIVE }),
    'schemes of app': q('apps', 'schemes', { appId: android.app.id, ...LIVE }),
    'channels of scheme': q('apps', 'channels', { schemeId: android.scheme.id, ...LIVE }),
    'collaborators of app': q('apps', 'collaborators', { appId: android.app.id }),
  };
  let count = 0;
  console.log('\n## Plans (FerretDB explain, judged as tests/plans judges them)');
  try {
    for (const [name, query] of Object.entries(plans)) {
      const verdict = await explainRecordedQuery(mongo, infra.postgresUrl, query);
      count += verdict.indexed ? 0 : 1;
      console.log(`plan ${name.padEnd(72)} ${verdict.indexed ? 'index' : 'SCAN'}: ${verdict.detail}`);
    }
  } finally {
    await mongo.close();
  }
  return count;
}

async function stopAll() {
  running.baseline?.kill();
  for (const db of running.dbs.splice(0)) await db.close().catch(() => {});
  await running.nats?.close().catch(() => {});
  running.nats = undefined;
  await running.hangar?.stop();
  await running.infra?.stop();
  running.hangar = running.infra = running.baseline = undefined;
}

function target(what, value, wanted, met, shown) {
  summary.push({ target: what, wanted, measured: shown ?? String(value), met: met ? 'yes' : 'NO' });
}

function ms(value) {
  return value === undefined || Number.isNaN(value) ? '—' : value.toFixed(1);
}

function ratio(a, b) {
  return a && b ? `${(a / b).toFixed(1)}x` : '—';
}

function k(n) {
  return n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1_000 ? `${n / 1_000}k` : String(n);
}
