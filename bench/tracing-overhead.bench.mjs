#!/usr/bin/env node
// What tracing costs when no collector is configured: the same read
// load — GET /api/apps/versions of one channel under BENCH_CONNECTIONS
// connections, BENCH_DURATION_S seconds a turn — against Hangar started with the
// OpenTelemetry SDK (spans made, trace ids in the logs, no exporter) and with
// OTEL_SDK_DISABLED=true (no SDK: nothing patched, no spans). The two run side
// by side and take the load in BENCH_ROUNDS turns each, ABAB, so a drift in the
// machine's load falls on both; each figure is the median of its turns. Prints
// requests/s, p50/p99 and the CPU the gateway and releases spent per request,
// with the overhead against its target (< 3 %).
//   node bench/tracing-overhead.bench.mjs
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { load } from './reads-load.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
if (process.env.BENCH_SKIP_BUILD !== '1') execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
const { resolveInfrastructure, freePort } = require(path.join(root, 'libs/infra/dist'));
const { startHangar } = require(path.join(root, 'libs/testing/dist'));

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const TARGET_PERCENT = 3;
const progress = (line) => process.stderr.write(`[tracing bench] ${new Date().toISOString().slice(11, 19)} ${line}\n`);

const VARIANTS = {
  'no SDK': { OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: '' },
  'SDK, no exporter': { OTEL_SDK_DISABLED: 'false', OTEL_EXPORTER_OTLP_ENDPOINT: '' },
};

const running = { infra: undefined, hangars: [] };
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => stopAll().finally(() => process.exit(130)));

console.log(`tracing overhead — ${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString()}, load average at start ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const results = Object.fromEntries(Object.keys(VARIANTS).map((v) => [v, []]));
try {
  const dataDir = path.join(root, '.hangar', 'bench', 'tracing');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  fs.chmodSync(path.join(root, '.hangar', 'bench'), 0o755);
  const env = { ...process.env, MONGO_URL: '', HANGAR_MONGO_PORT: String(await freePort()) };
  const infra = (running.infra = await resolveInfrastructure({ dataDir, env, log: progress }));
  Object.assign(process.env, { MONGO_URL: infra.mongoUrl, NATS_URL: infra.natsUrl, S3_ENDPOINT: infra.s3.endpoint, S3_ACCESS_KEY: infra.s3.accessKey, S3_SECRET_KEY: infra.s3.secretKey, HANGAR_SKIP_BUILD: '1' });
  // Both installations run side by side and take the load in short turns
  // (ABAB…): on a machine shared with other work, a slice of the others' load
  // then falls on both alike, where one long run each would compare two moments.
  const targets = {};
  for (const [variant, variantEnv] of Object.entries(VARIANTS)) {
    const prefix = `bench_tracing_${Date.now().toString(36)}`;
    progress(`starting Hangar: ${variant}`);
    const hangar = await startHangar({ ...variantEnv, HANGAR_DB_PREFIX: prefix, NATS_SUBJECT_PREFIX: prefix.replace(/_/g, '-'), LOG_LEVEL: 'warn', S3_BUCKET: prefix.replace(/_/g, '-') });
    running.hangars.push(hangar);
    const release = await upload(hangar, 'android.apk');
    const url = `${hangar.baseUrl}/api/apps/versions?channel_key=${release.channel.slug}`;
    const processes = { gateway: [hangar.pidOf('gateway')], releases: [hangar.pidOf('releases')] };
    await load(url, { processes, durationS: 2, connections: CONNECTIONS }); // warm-up: JIT, caches, connections
    targets[variant] = { url, processes };
  }
  for (let round = 1; round <= ROUNDS; round++) {
    // Alternate which goes first, so neither always follows the other.
    const order = round % 2 ? Object.keys(VARIANTS) : Object.keys(VARIANTS).reverse();
    for (const variant of order) {
      const r = await load(targets[variant].url, { processes: targets[variant].processes, durationS: DURATION_S, connections: CONNECTIONS });
      if (r.failed > 0) throw new Error(`${variant}: ${r.failed} requests failed (${JSON.stringify(r.statuses)})`);
      results[variant].push(r);
      progress(`round ${round}: ${variant}: ${r.rps} requests/s`);
    }
  }
  const median = (xs) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }; // one turn disturbed by the machine's other work moves it least
  const rows = Object.entries(results).map(([variant, rs]) => ({
    variant,
    'requests/s': Math.round(median(rs.map((r) => r.rps))),
    'p50 ms': median(rs.map((r) => r.p50)).toFixed(1),
    'p99 ms': median(rs.map((r) => r.p99)).toFixed(1),
    'gateway CPU ms/req': median(rs.map((r) => Number(r.cpuMsPerRequest.gateway))).toFixed(3),
    'releases CPU ms/req': median(rs.map((r) => Number(r.cpuMsPerRequest.releases))).toFixed(3),
    turns: rs.map((r) => r.rps).join(' / '),
  }));
  console.log(`\n## GET /api/apps/versions, ${CONNECTIONS} connections, ${ROUNDS} turns of ${DURATION_S} s each (median)`);
  console.table(rows);
  const [off, on] = rows;
  const throughputLoss = (1 - on['requests/s'] / off['requests/s']) * 100;
  const cpuOf = (row) => Number(row['gateway CPU ms/req']) + Number(row['releases CPU ms/req']);
  const cpuGain = (cpuOf(on) / cpuOf(off) - 1) * 100;
  console.table([
    { measure: 'throughput lost with the SDK', value: `${throughputLoss.toFixed(1)} %`, target: `< ${TARGET_PERCENT} %`, met: throughputLoss < TARGET_PERCENT ? 'yes' : 'NO' },
    { measure: 'CPU per request added (gateway + releases)', value: `${cpuGain.toFixed(1)} %`, target: `< ${TARGET_PERCENT} %`, met: cpuGain < TARGET_PERCENT ? 'yes' : 'NO' },
  ]);
  console.log(`load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  await stopAll();
}

async function upload(hangar, fixture) {
  const form = new FormData();
  form.append('token', hangar.adminToken);
  form.append('file', new Blob([fs.readFileSync(path.join(root, 'tests', 'fixtures', 'apps', fixture))]), fixture);
  const res = await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', body: form });
  if (res.status !== 201) throw new Error(`upload of ${fixture}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function stopAll() {
  for (const hangar of running.hangars.splice(0)) await hangar.stop();
  await running.infra?.stop();
  running.infra = undefined;
}
