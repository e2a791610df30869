#!/usr/bin/env node
// What counting downloads costs (target < 2 % of download throughput), measured by
// restart pairs: one installation at a time, counting off then on (or on then off: the order
// alternates, ABBA, so a drift of the machine falls on both alike), each a fresh start, in one
// run. Each arm: GET /api/releases/:id/download (the 302 to storage: the cheapest answer, so
// counting's share is the largest it gets) with 50 connections after a warm-up.
//
// Why not two installations side by side (bench/downloads.bench.mjs): its A/A control found two
// identical installations differing by 5–7 % for as long as they live, the sign following which
// one was warmed first. Here every arm is a new set of processes run alone, so what differs
// between processes becomes noise that pairs average out, and the run prints that noise as a
// confidence interval. BENCH_CONTROL=1 runs the same with counting off in both arms (A/A).
//
// Prints, per pair and over all: throughput and CPU per download (Hangar's processes and the
// servers they share, from the round's start until 2 s after it), the cost with a 95 % interval,
// and for every "on" arm that each answered download was counted.
//   node bench/download-counting.bench.mjs
//   BENCH_PAIRS=8 BENCH_WARM_S=10 BENCH_ROUND_S=10 BENCH_CONTROL=1 node bench/download-counting.bench.mjs
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cpuTicks, ticksPerSecond } from './lib/process-cpu.mjs';
import { benchInfrastructure } from './lib/bench-infrastructure.mjs';
import { loadRun, processGroups, settledCount, uploadFixture } from './lib/download-installations.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
const { startHangar } = require(path.join(root, 'libs/testing/dist'));

const pairs = Number(process.env.BENCH_PAIRS ?? 8);
const roundSeconds = Number(process.env.BENCH_ROUND_S ?? 10);
const control = process.env.BENCH_CONTROL === '1';
const CONNECTIONS = 50;
const WARM_S = Number(process.env.BENCH_WARM_S ?? 10);
const TAIL_MS = 2_000; // the consumer's work for a round's last second lands after it

const infra = await benchInfrastructure(root);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** One arm: a fresh installation, warmed, then one measured round; stopped before the next. */
async function runArm(counting, label) {
  const hangar = await startHangar({ S3_BUCKET: `bench-count-${label}-${Date.now()}`, LOG_LEVEL: 'warn', DOWNLOAD_COUNTING: String(counting) });
  try {
    const release = await uploadFixture(hangar);
    const url = `${hangar.baseUrl}/api/releases/${release.id}/download`;
    const warm = await loadRun({ url, connections: CONNECTIONS, duration: WARM_S });
    await sleep(TAIL_MS);
    // After the warm-up: FerretDB opens its PostgreSQL backends as the installation connects.
    const groups = processGroups(hangar);
    const before = Object.fromEntries(Object.entries(groups).map(([group, pids]) => [group, cpuTicks(pids)]));
    const round = await loadRun({ url, connections: CONNECTIONS, duration: roundSeconds });
    await sleep(TAIL_MS);
    const byGroup = Object.fromEntries(Object.entries(groups).map(([group, pids]) => [group, (((cpuTicks(pids) - before[group]) / ticksPerSecond) * 1e6) / round.requests.total]));
    const arm = {
      label,
      counting,
      rate: round['3xx'] / round.duration,
      cpuUs: Object.values(byGroup).reduce((a, b) => a + b, 0),
      notRedirected: round.requests.total - round['3xx'],
      byGroup,
    };
    if (counting) {
      const answered = warm['3xx'] + round['3xx'];
      const { stats } = await settledCount(hangar, release.id, answered);
      arm.counted = { total: stats.total, unique: stats.unique, answered };
    }
    return arm;
  } finally {
    await hangar.stop();
  }
}

/** Mean and the half-width of its 95 % interval (Student's t, n − 1 degrees of freedom). */
function meanWithInterval(values) {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
  const t95 = [12.71, 4.3, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23, 2.2, 2.18, 2.16, 2.14, 2.13][n - 2] ?? 2.0;
  return { mean, half: (t95 * sd) / Math.sqrt(n) };
}

const started = new Date();
const loadBefore = os.loadavg();
const results = [];
try {
  for (let i = 0; i < pairs; i += 1) {
    // ABBA: off-on, on-off, off-on, …
    const order = i % 2 === 0 ? [false, true] : [true, false];
    const pair = {};
    for (const counting of order) {
      const arm = await runArm(control ? false : counting, counting ? 'on' : 'off');
      pair[counting ? 'on' : 'off'] = arm;
      const counted = arm.counted ? `, counted ${arm.counted.total} of ${arm.counted.answered} answered (${arm.counted.unique} unique)` : '';
      console.log(`pair ${i + 1} ${arm.label}: ${Math.round(arm.rate)} downloads/s, ${arm.cpuUs.toFixed(0)} µs CPU per download${arm.notRedirected ? `, ${arm.notRedirected} not 302` : ''}${counted}`);
      console.log(`    µs by process: ${Object.entries(arm.byGroup).map(([group, us]) => `${group} ${us.toFixed(0)}`).join(', ')}`);
    }
    results.push(pair);
  }
} finally {
  await infra.stop();
}

const pct = (x) => `${(x * 100).toFixed(1)} %`;
const throughputCost = meanWithInterval(results.map((p) => 1 - p.on.rate / p.off.rate));
const cpuCost = meanWithInterval(results.map((p) => p.on.cpuUs / p.off.cpuUs - 1));
console.log(`\ndownload counting by restart pairs — ${os.cpus().length} cores, load before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, ${started.toISOString()} to ${new Date().toISOString()}`);
if (control) console.log('CONTROL RUN (BENCH_CONTROL=1): counting off in both arms; "on" is the arm that would have counted');
console.log(`GET /api/releases/:id/download (302), ${CONNECTIONS} connections, ${pairs} pairs (ABBA) of fresh installations, ${WARM_S} s warm-up and ${roundSeconds} s measured each`);
console.log(`  cost of counting, throughput: ${pct(throughputCost.mean)} ± ${pct(throughputCost.half)} (95 % interval)   target < 2 %`);
console.log(`  cost of counting, CPU per download: ${pct(cpuCost.mean)} ± ${pct(cpuCost.half)} (95 % interval)`);
const upper = throughputCost.mean + throughputCost.half;
console.log(`  verdict: ${upper < 0.02 ? 'met — the interval lies under 2 %' : throughputCost.mean - throughputCost.half >= 0.02 ? 'missed — the interval lies at or over 2 %' : 'not resolved — the interval holds 2 %'}`);
const arms = results.flatMap((p) => [p.on, p.off]).filter((a) => a.counted);
const miscounted = arms.filter((a) => a.counted.total < a.counted.answered || a.counted.total > a.counted.answered + CONNECTIONS * 2 || a.counted.unique !== 1);
console.log(`  counted: ${arms.length - miscounted.length} of ${arms.length} counting arms counted every answered download, once (up to ${CONNECTIONS * 2} answered after autocannon stopped tallying), as 1 unique client`);
