#!/usr/bin/env node
// Read throughput and latency (issue 9): versions, latest, version_exist and
// GET /api/apps/:id under autocannon (100 connections), against Hangar and against a
// single-process express + mongoose baseline on the same collections
// (bench/reads-baseline.mjs), in one run. Prints requests/s, p50 and p99 of
// both, the ratio, and each query's plan from the database.
//   BENCH_RELEASES=10000 node bench/reads.bench.mjs
// The load comes from autocannon (a dev dependency), so nothing beyond
// `npm install` is needed; it shares the machine's cores with what it measures.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
if (process.env.BENCH_SKIP_BUILD !== '1') execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
const { resolveInfrastructure, freePort } = require(path.join(root, 'libs/infra/dist'));
const { startHangar } = require(path.join(root, 'libs/testing/dist'));
const { versionSortKey } = require(path.join(root, 'libs/versions/dist'));
const mongoose = require(path.join(root, 'node_modules', 'mongoose'));
const autocannon = require(path.join(root, 'node_modules', 'autocannon'));

const RELEASES = Number(process.env.BENCH_RELEASES ?? 10_000);
const CHANNELS = Number(process.env.BENCH_CHANNELS ?? 100);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const prefix = `bench_${Date.now().toString(36)}`;

const infra = await resolveInfrastructure({ dataDir: path.join(root, '.hangar', 'bench') });
Object.assign(process.env, { MONGO_URL: infra.mongoUrl, NATS_URL: infra.natsUrl, S3_ENDPOINT: infra.s3.endpoint, S3_ACCESS_KEY: infra.s3.accessKey, S3_SECRET_KEY: infra.s3.secretKey, HANGAR_SKIP_BUILD: '1' });
const hangar = await startHangar({ HANGAR_DB_PREFIX: prefix, NATS_SUBJECT_PREFIX: prefix.replace(/_/g, '-'), LOG_LEVEL: 'warn', S3_BUCKET: prefix.replace(/_/g, '-') });
let baseline;
const conn = mongoose.createConnection(infra.mongoUrl, { dbName: `${prefix}_releases` });
try {
  const token = hangar.adminToken;
  const api = async (method, url, body) => {
    const res = await fetch(`${hangar.baseUrl}${url}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body && JSON.stringify(body) });
    return res.json();
  };
  const form = new FormData();
  form.append('token', token);
  form.append('file', new Blob([fs.readFileSync(path.join(root, '..', 'shared', 'fixtures', 'apps', 'android.apk'))]), 'android.apk');
  const seed = await (await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', body: form })).json();
  const channelIds = [seed.channel ? (await api('GET', `/api/apps/${seed.app.id}`)).schemes[0].channels[0].id : 0];
  for (let i = 1; i < CHANNELS; i++) channelIds.push((await api('POST', `/api/schemes/${seed.scheme.id}/channels`, { name: `bench ${i}`, device_type: 'android' })).id);

  await conn.asPromise();
  const releases = conn.collection('releases');
  const template = await releases.findOne({});
  const started = Date.now();
  for (let done = 0; done < RELEASES; ) {
    const batch = [];
    for (let i = 0; i < 1000 && done < RELEASES; i++, done++) {
      const releaseVersion = `1.${done % 50}`;
      const buildVersion = String(done);
      batch.push({ ...template, _id: 10_000_000 + done, version: 100 + done, channelId: channelIds[done % channelIds.length], releaseVersion, buildVersion, versionKey: versionSortKey(releaseVersion, buildVersion), outbox: [], outboxPending: false });
    }
    await releases.insertMany(batch, { ordered: false });
  }
  const seededIn = (Date.now() - started) / 1000;

  const basePort = await freePort();
  baseline = spawn(process.execPath, [path.join(root, 'bench', 'reads-baseline.mjs'), String(basePort), infra.mongoUrl, prefix], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => baseline.stdout.on('data', (d) => String(d).includes('ready') && resolve()));

  const key = seed.channel.slug;
  const latestKey = encodeURIComponent(versionSortKey('1.48', '0'));
  const queries = [
    ['versions', `/api/apps/versions?channel_key=${key}`, `/api/apps/versions?channel_key=${key}`],
    ['latest', `/api/apps/latest?channel_key=${key}&release_version=1.48&build_version=0`, `/api/apps/latest?channel_key=${key}&version_key=${latestKey}`],
    ['version_exist', `/api/apps/version_exist?channel_key=${key}&bundle_id=com.icyleaf.appinfodemo&release_version=1.2.3&build_version=5`, `/api/apps/version_exist?channel_key=${key}&bundle_id=com.icyleaf.appinfodemo&release_version=1.2.3&build_version=5`],
    ['GET /api/apps/:id', `/api/apps/${seed.app.id}?token=${token}`, `/api/apps/${seed.app.id}`],
  ];
  const rows = [];
  for (const [name, hangarPath, basePath] of queries) {
    const h = await load(`${hangar.baseUrl}${hangarPath}`);
    const b = await load(`http://127.0.0.1:${basePort}${basePath}`);
    rows.push({ query: name, 'hangar req/s': h.rps, 'hangar p50 ms': h.p50, 'hangar p99 ms': h.p99, 'baseline req/s': b.rps, 'baseline p50 ms': b.p50, 'baseline p99 ms': b.p99, ratio: (h.rps / b.rps).toFixed(2), 'hangar failed': h.failed, 'baseline failed': b.failed });
  }
  console.log(`\nreads benchmark — ${os.cpus().length} cores, ${new Date().toISOString()}, ${RELEASES} releases over ${CHANNELS} channels (seeded in ${seededIn.toFixed(1)} s), autocannon -c100 -d${DURATION_S}`);
  console.table(rows);
  console.log('targets: ratio >= 0.5, Hangar p99 < 50 ms');

  const plans = {
    versions: releases.find({ channelId: channelIds[0], deletedAt: { $exists: false } }).sort({ _id: -1 }).limit(25),
    latest: releases.find({ channelId: channelIds[0], versionKey: { $gt: versionSortKey('1.48', '0') } }).sort({ versionKey: -1 }).limit(25),
    version_exist: releases.find({ channelId: channelIds[0], bundleId: 'com.icyleaf.appinfodemo', releaseVersion: '1.2.3', buildVersion: '5' }).limit(1),
  };
  let scans = 0;
  for (const [name, cursor] of Object.entries(plans)) {
    const plan = await cursor.explain();
    const text = JSON.stringify(plan.queryPlanner);
    const scanned = /COLLSCAN|detail=SCAN|Seq Scan/.test(text);
    scans += scanned ? 1 : 0;
    console.log(`plan ${name}: ${scanned ? 'SCANS THE COLLECTION' : 'uses an index'}  ${text.slice(0, 200)}`);
  }
  if (scans > 0) {
    console.log(`\n${scans} quer${scans === 1 ? 'y scans' : 'ies scan'} the collection on this server.`);
    process.exitCode = 1;
  }
} finally {
  baseline?.kill();
  await conn.close().catch(() => {});
  await hangar.stop();
  await infra.stop();
}


/** 100 connections for DURATION_S seconds; a request unanswered after 10 s counts as failed. */
async function load(url) {
  const result = await autocannon({ url, connections: 100, duration: DURATION_S, timeout: 10 });
  // Nothing answered within the run: latencies of no request are not 0 ms.
  const answered = result.requests.total > 0;
  return {
    rps: Math.round(result.requests.average),
    p50: answered ? result.latency.p50.toFixed(1) : '—',
    p99: answered ? result.latency.p99.toFixed(1) : '—',
    failed: result.non2xx + result.errors + result.timeouts,
  };
}
