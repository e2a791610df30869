#!/usr/bin/env node
// What starting Hangar costs, with each service run from its one-file bundle (dist/main.bundle.js,
// the default) and from its dist/ files (HANGAR_SERVICE_BUNDLES=0), in alternating rounds of one
// run: the time until every process is healthy, each process's CPU until then, and its resident
// memory a moment later. A pod the
// autoscaler adds pays one service's share; the end-to-end suite pays the whole start 53 times.
// Run on both Nodes: Node 22+ keeps compiled code in NODE_COMPILE_CACHE (set here, as `npm test`
// and the launcher set it), Node 20 does not.
//   node bench/service-start.bench.mjs                 # 5 rounds
//   BENCH_ROUNDS=9 node bench/service-start.bench.mjs
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { benchInfrastructure } from './lib/bench-infrastructure.mjs';
import { cpuTicks, ticksPerSecond } from './lib/process-cpu.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
if (!process.env.BENCH_SKIP_BUILD) execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
process.env.NODE_COMPILE_CACHE ||= path.join(root, '.hangar', 'compile-cache');

const infra = await benchInfrastructure(root, 'bench-service-start');
const { startHangar } = require(path.join(root, 'libs/testing/dist'));
const { SERVICES } = require(path.join(root, 'libs/infra/dist'));
const programs = [...SERVICES, 'gateway'];

const modes = [
  { name: 'bundle', env: { HANGAR_SERVICE_BUNDLES: '1' } },
  { name: 'dist/ files', env: { HANGAR_SERVICE_BUNDLES: '0' } },
];
const runs = Object.fromEntries(modes.map((m) => [m.name, []]));
console.log(`Node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0].model}), load ${os.loadavg()[0].toFixed(1)} at the start; ${rounds} rounds`);
// One start before the rounds fills the compile cache with both modes' code, as a second start would find it.
for (const mode of modes) await (await startHangar(mode.env)).stop();
for (let round = 0; round < rounds; round++) {
  for (const mode of round % 2 ? [...modes].reverse() : modes) {
    const started = process.hrtime.bigint();
    const hangar = await startHangar(mode.env);
    const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
    const cpu = Object.fromEntries(programs.map((name) => [name, (cpuTicks(hangar.pidsOf(name)) / ticksPerSecond) * 1000]));
    const launcher = (cpuTicks([hangar.launcherPid]) / ticksPerSecond) * 1000;
    const entries = hangar.pidsOf('gateway').map((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[1]);
    if (!entries.every((entry) => entry.endsWith(mode.name === 'bundle' ? 'main.bundle.js' : 'main.js'))) throw new Error(`${mode.name}: the gateway ran ${entries.join(', ')}`);
    // Resident memory a moment after the start (the gateway's is a target of its own, docs/performance.md).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const rssMiB = Object.fromEntries(programs.map((name) => [name, residentKiB(hangar.pidsOf(name)[0]) / 1024]));
    runs[mode.name].push({ wallMs, cpu, launcher, rssMiB });
    await hangar.stop();
  }
}
await infra.stop();

function residentKiB(pid) {
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (v) => `${Math.round(v)} ms`;
console.log(`\n| what (median of ${rounds}) | ${modes.map((m) => m.name).join(' | ')} | ratio |`);
console.log(`|---|${modes.map(() => '---|').join('')}---|`);
const row = (label, pick) => {
  const [a, b] = modes.map((m) => median(runs[m.name].map(pick)));
  console.log(`| ${label} | ${ms(a)} | ${ms(b)} | ${(a / b).toFixed(2)} |`);
};
row('until healthy (wall)', (r) => r.wallMs);
row('CPU of the services and the gateway together', (r) => Object.values(r.cpu).reduce((s, v) => s + v, 0));
for (const name of programs) row(`CPU of ${name}`, (r) => r.cpu[name]);
row('CPU of the launcher', (r) => r.launcher);
const mib = (v) => `${v.toFixed(1)} MiB`;
for (const name of programs) {
  const [a, b] = modes.map((m) => median(runs[m.name].map((r) => r.rssMiB[name])));
  console.log(`| resident memory of ${name}, 3 s after healthy | ${mib(a)} | ${mib(b)} | ${(a / b).toFixed(2)} |`);
}
