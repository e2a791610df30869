#!/usr/bin/env node
// Reads under load and at scale (issue 9): versions, latest, version_exist and
// GET /api/apps/:id under autocannon (100 connections), against Hangar and
// against a single-process express + mongoose baseline making the same
// queries (bench/reads-baseline.mjs), in one run, at each scale in
// BENCH_RELEASES. Prints requests/s, p50 and p99 of both and their ratio, the
// CPU each process spent per request, each query's plan (exit 1 when one scans
// a collection), and the p50 at the largest scale against the smallest.
//   node bench/reads.bench.mjs                                 (10k releases)
//   BENCH_RELEASES=10000,1000000 node bench/reads.bench.mjs    (10k, then 1M over 10,000 channels)
// BENCH_DB=ferretdb-postgresql starts a FerretDB on the local PostgreSQL and
// gives each declared index a stand-in PostgreSQL can use
// (bench/ferretdb-postgresql.mjs says why); otherwise the database is MONGO_URL
// or whatever MongoDB-wire server the launcher finds or starts.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { addStandInIndexes, planVerdict, startFerretdbOnPostgres } from './ferretdb-postgresql.mjs';
import { load } from './reads-load.mjs';
import { createSeeder, RELEASES_PER_CHANNEL } from './reads-seed.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
if (process.env.BENCH_SKIP_BUILD !== '1') execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
const { resolveInfrastructure, freePort } = require(path.join(root, 'libs/infra/dist'));
const { startHangar } = require(path.join(root, 'libs/testing/dist'));
const { versionSortKey } = require(path.join(root, 'libs/versions/dist'));
const mongoose = require(path.join(root, 'node_modules', 'mongoose'));

const SCALES = (process.env.BENCH_RELEASES ?? '10000').split(',').map(Number).sort((a, b) => a - b);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const P50_TARGET = 1.5;
const prefix = `bench_${Date.now().toString(36)}`;
const progress = (line) => process.stderr.write(`[reads bench] ${line}\n`);

// Assigned as they start, so an interruption stops whatever has started.
let ownDatabase;
let infra;
let hangar;
let baseline;
const dbs = {};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => cleanUp().finally(() => process.exit(130)));
}
if (process.env.BENCH_DB === 'ferretdb-postgresql') {
  ownDatabase = await startFerretdbOnPostgres({ root, name: prefix, port: await freePort() });
  process.env.MONGO_URL = ownDatabase.mongoUrl;
}
infra = await resolveInfrastructure({ dataDir: path.join(root, '.hangar', 'bench') });
Object.assign(process.env, { MONGO_URL: infra.mongoUrl, NATS_URL: infra.natsUrl, S3_ENDPOINT: infra.s3.endpoint, S3_ACCESS_KEY: infra.s3.accessKey, S3_SECRET_KEY: infra.s3.secretKey, HANGAR_SKIP_BUILD: '1' });
hangar = await startHangar({ HANGAR_DB_PREFIX: prefix, NATS_SUBJECT_PREFIX: prefix.replace(/_/g, '-'), LOG_LEVEL: 'warn', S3_BUCKET: prefix.replace(/_/g, '-') });
const connect = (name) => mongoose.createConnection(infra.mongoUrl, { dbName: `${prefix}_${name}` }).asPromise();
try {
  Object.assign(dbs, { apps: await connect('apps'), releases: await connect('releases'), users: await connect('users') });
  // Before seeding: the seeding's own lookups (slugs, tokens) need them too.
  const standIns = ownDatabase ? addStandInIndexes(prefix, prefix) : [];
  const token = hangar.adminToken;
  const form = new FormData();
  form.append('token', token);
  form.append('file', new Blob([fs.readFileSync(path.join(root, '..', 'shared', 'fixtures', 'apps', 'android.apk'))]), 'android.apk');
  const seed = await (await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', body: form })).json();
  const seeder = createSeeder({ appsDb: dbs.apps, releasesDb: dbs.releases, seedChannelSlug: seed.channel.slug, versionSortKey, progress });

  const basePort = await freePort();
  baseline = spawn(process.execPath, [path.join(root, 'bench', 'reads-baseline.mjs'), String(basePort), infra.mongoUrl, prefix], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => baseline.stdout.on('data', (d) => String(d).includes('ready') && resolve()));

  const server = await dbs.releases.db.admin().command({ buildInfo: 1 });
  console.log(`reads benchmark — ${os.cpus().length} cores, Node ${process.version}, autocannon -c100 -d${DURATION_S}, ${new Date().toISOString()}`);
  console.log(`database: ${server.ferretdbVersion ? 'FerretDB 1.24' : `MongoDB ${server.version}`} at ${infra.mongoUrl}${ownDatabase ? `, PostgreSQL backend with ${standIns.length} stand-in GIN indexes (one per declared index)` : ''}`);

  const key = seed.channel.slug;
  const latestKey = versionSortKey('1.48', '0');
  const queries = [
    ['versions', `/api/apps/versions?channel_key=${key}`, `/api/apps/versions?channel_key=${key}`],
    ['latest', `/api/apps/latest?channel_key=${key}&release_version=1.48&build_version=0`, `/api/apps/latest?channel_key=${key}&version_key=${encodeURIComponent(latestKey)}`],
    ['version_exist', `/api/apps/version_exist?channel_key=${key}&bundle_id=com.icyleaf.appinfodemo&release_version=1.2.3&build_version=5`, `/api/apps/version_exist?channel_key=${key}&bundle_id=com.icyleaf.appinfodemo&release_version=1.2.3&build_version=5`],
    ['GET /api/apps/:id', `/api/apps/${seed.app.id}?token=${token}`, `/api/apps/${seed.app.id}?token=${token}`],
  ];
  // Where the CPU goes during each run, by process.
  const processes = {
    ...Object.fromEntries(['gateway', 'users', 'apps', 'releases'].map((n) => [n, [hangar.pidOf(n)]])),
    baseline: [baseline.pid],
    ...(ownDatabase ? { ferretdb: [ownDatabase.pid], postgres: 'postgres' } : {}),
  };

  const p50s = new Map(); // scale → query → Hangar p50
  let scans = 0;
  for (const scale of SCALES) {
    const seededIn = await seeder.growTo(scale);
    // Again after seeding: IF NOT EXISTS skips existing indexes, ANALYZE sees the new rows.
    if (ownDatabase) addStandInIndexes(prefix, prefix);
    console.log(`\n## ${scale.toLocaleString('en')} releases over ${seeder.channelCount.toLocaleString('en')} channels (${RELEASES_PER_CHANNEL} each; seeded in ${seededIn.toFixed(0)} s)`);
    const rows = [];
    const cpuRows = [];
    const p50 = new Map();
    for (const [name, hangarPath, basePath] of queries) {
      const h = await load(`${hangar.baseUrl}${hangarPath}`, { processes, durationS: DURATION_S });
      const b = await load(`http://127.0.0.1:${basePort}${basePath}`, { processes, durationS: DURATION_S });
      p50.set(name, h.p50);
      rows.push({ query: name, 'hangar req/s': h.rps, 'hangar p50 ms': ms(h.p50), 'hangar p99 ms': ms(h.p99), 'baseline req/s': b.rps, 'baseline p50 ms': ms(b.p50), 'baseline p99 ms': ms(b.p99), ratio: (h.rps / b.rps).toFixed(2), 'hangar failed': h.failed, 'baseline failed': b.failed });
      cpuRows.push({ run: `${name} → Hangar`, ...h.cpuMsPerRequest }, { run: `${name} → baseline`, ...b.cpuMsPerRequest });
    }
    p50s.set(scale, p50);
    console.table(rows);
    console.log('targets: ratio >= 0.5, Hangar p99 < 50 ms');
    console.log('CPU milliseconds per request sent, by process (autocannon, the load generator, runs in the bench process):');
    console.table(cpuRows);
    scans += await printPlans(seed, seeder.queriedChannelId);
  }

  if (SCALES.length > 1) {
    const [small, large] = [SCALES[0], SCALES.at(-1)];
    console.log(`\n## p50 at ${large.toLocaleString('en')} against ${small.toLocaleString('en')} releases (target <= ${P50_TARGET}x)`);
    console.table(queries.map(([name]) => {
      const [a, b] = [p50s.get(small).get(name), p50s.get(large).get(name)];
      return { query: name, [`p50 ms at ${small}`]: ms(a), [`p50 ms at ${large}`]: ms(b), factor: a && b ? (b / a).toFixed(2) : '—' };
    }));
  }
  if (scans > 0) {
    console.log(`\n${scans} plan(s) scan a collection on this server.`);
    process.exitCode = 1;
  }
} finally {
  await cleanUp();
}

/** Stops what the bench started; also on Ctrl-C, which would otherwise leave Hangar and FerretDB running. */
async function cleanUp() {
  baseline?.kill();
  for (const db of Object.values(dbs)) await db.close().catch(() => {});
  await hangar?.stop();
  await infra?.stop();
  await ownDatabase?.stop();
}

function ms(value) {
  return value === undefined ? '—' : value.toFixed(1);
}

/** Every query the four requests make, as Hangar's repositories make them; returns how many scan. */
async function printPlans(seed, channelId) {
  const LIVE = { deletedAt: { $exists: false } };
  const apps = (name) => dbs.apps.collection(name);
  const releases = dbs.releases.collection('releases');
  const users = dbs.users.collection('users');
  const adminId = (await users.findOne({}, { sort: { _id: 1 } }))._id;
  const plans = {
    'token by hash': dbs.users.collection('tokens').find({ tokenHash: 'x' }).limit(1),
    'user by id': users.find({ _id: adminId, ...LIVE }).limit(1),
    'channel by key': apps('channels').find({ slug: seed.channel.slug, ...LIVE }).limit(1),
    'scheme by id': apps('schemes').find({ _id: seed.scheme.id, ...LIVE }).limit(1),
    'app by id': apps('apps').find({ _id: seed.app.id, ...LIVE }).limit(1),
    versions: releases.find({ channelId, ...LIVE }).sort({ _id: -1 }).limit(25),
    'versions count': releases.find({ channelId, ...LIVE }),
    latest: releases.find({ channelId, versionKey: { $gt: versionSortKey('1.48', '0') }, ...LIVE }).sort({ versionKey: -1, _id: -1 }).limit(25),
    version_exist: releases.find({ channelId, bundleId: 'com.icyleaf.appinfodemo', releaseVersion: '1.2.3', buildVersion: '5', ...LIVE }).sort({ _id: -1 }).limit(1),
    'schemes of app': apps('schemes').find({ appId: seed.app.id, ...LIVE }).sort({ _id: 1 }),
    'channels of scheme': apps('channels').find({ schemeId: seed.scheme.id, ...LIVE }).sort({ _id: 1 }),
    'collaborators of app': apps('collaborators').find({ appId: seed.app.id }).sort({ _id: 1 }),
  };
  let scans = 0;
  for (const [name, cursor] of Object.entries(plans)) {
    const plan = await cursor.explain();
    const text = JSON.stringify(plan.queryPlanner);
    const verdict = ownDatabase ? planVerdict(prefix, plan.queryPlanner) : /COLLSCAN|detail=SCAN|Seq Scan/.test(text) ? 'SCANS THE COLLECTION' : 'uses an index';
    scans += verdict.startsWith('SCANS') ? 1 : 0;
    console.log(`plan ${name.padEnd(21)} ${verdict}   ${text.slice(0, 120)}`);
  }
  return scans;
}
