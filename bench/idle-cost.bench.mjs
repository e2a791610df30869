#!/usr/bin/env node
// What an idle Hangar costs: one installation started as `npm run up` starts it, left alone until
// its start is over and its timers have settled, then each process's CPU over a window, as a
// share of one core. An idle cluster pays it on every replica, day and night; the end-to-end
// suite pays it for every Hangar it keeps running beside the one a file is using.
//   node bench/idle-cost.bench.mjs                       # settle 30 s, measure 60 s
//   BENCH_SETTLE_S=20 BENCH_WINDOW_S=120 node bench/idle-cost.bench.mjs
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { benchInfrastructure } from './lib/bench-infrastructure.mjs';
import { cpuTicks, pidsByName, ticksPerSecond } from './lib/process-cpu.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
if (!process.env.BENCH_SKIP_BUILD) execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
const settleS = Number(process.env.BENCH_SETTLE_S ?? 30);
const windowS = Number(process.env.BENCH_WINDOW_S ?? 60);
process.env.NODE_COMPILE_CACHE ||= path.join(root, '.hangar', 'compile-cache');

const infra = await benchInfrastructure(root, 'bench-idle-cost');
const { startHangar } = require(path.join(root, 'libs/testing/dist'));
const { SERVICES } = require(path.join(root, 'libs/infra/dist'));
const programs = [...SERVICES, 'gateway'];

console.log(`Node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0].model}), load ${os.loadavg()[0].toFixed(1)} at the start`);
const hangar = await startHangar({});
await new Promise((resolve) => setTimeout(resolve, settleS * 1000));

// The servers are shared by every installation on the machine: their share is what this one adds.
const parts = {
  ...Object.fromEntries(programs.map((name) => [name, () => hangar.pidsOf(name)])),
  launcher: () => [hangar.launcherPid],
  ferretdb: () => pidsByName('ferretdb'),
  postgres: () => pidsByName('postgres'),
  'nats-server': () => pidsByName('nats-server'),
  versitygw: () => pidsByName('versitygw'),
};
const read = () => Object.fromEntries(Object.entries(parts).map(([name, pids]) => [name, cpuTicks(pids())]));
const loadBefore = os.loadavg()[0];
const before = read();
await new Promise((resolve) => setTimeout(resolve, windowS * 1000));
const after = read();
await hangar.stop();
await infra.stop();

const share = (name) => (after[name] - before[name]) / ticksPerSecond / windowS;
const pct = (v) => `${(v * 100).toFixed(1)} %`;
console.log(`\nIdle for ${windowS} s after ${settleS} s to settle (load ${loadBefore.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}): share of one core`);
console.log('| process | CPU |');
console.log('|---|---|');
for (const name of Object.keys(parts).sort((a, b) => share(b) - share(a))) console.log(`| ${name} | ${pct(share(name))} |`);
const hangarOnly = [...programs, 'launcher'].reduce((sum, name) => sum + share(name), 0);
const total = Object.keys(parts).reduce((sum, name) => sum + share(name), 0);
console.log(`| Hangar's own processes | ${pct(hangarOnly)} |`);
console.log(`| everything | ${pct(total)} |`);
