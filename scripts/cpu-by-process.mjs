#!/usr/bin/env node
// Runs a command and prints the CPU every process on the machine spent meanwhile, summed by what
// the process is (jest, each service, FerretDB, PostgreSQL, versitygw, NATS, Chromium, the CLI…):
// where a CPU-bound run's time goes, when its wall time alone cannot say.
//
//   node scripts/cpu-by-process.mjs -- npx jest --selectProjects e2e tests/e2e/auth-matrix.test.ts
//
// Linux only (/proc). Processes are sampled every 500 ms: one that starts and ends between two
// samples is missed, one that started after this script counts from zero.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

const command = process.argv.slice(process.argv.indexOf('--') + 1);
if (!process.argv.includes('--') || command.length === 0) {
  console.error('usage: node scripts/cpu-by-process.mjs -- <command> [args…]');
  process.exit(2);
}

const TICKS = 100; // USER_HZ: 100 on every Linux this runs on
const uptimeTicks = () => Number(fs.readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * TICKS;
const startedAt = uptimeTicks();

/** What a process is, from its command line. */
function kindOf(cmdline) {
  if (/jest/.test(cmdline)) return 'jest';
  const service = /services\/([a-z-]+)\//.exec(cmdline);
  if (service) return `service ${service[1]}`;
  for (const name of ['ferretdb', 'postgres', 'versitygw', 'nats-server', 'chrom']) if (cmdline.includes(name)) return name === 'chrom' ? 'chromium' : name;
  if (/scripts\/up\.mjs/.test(cmdline)) return 'launcher';
  if (/clients\/cli|hangar\.js/.test(cmdline)) return 'cli';
  return `other: ${cmdline.split(' ')[0].split('/').pop()}`;
}

/** pid and start time → its kind, its CPU ticks when first seen (0 if it started after us), and now. */
const seen = new Map();
function sample() {
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
      const key = `${pid}:${fields[19]}`; // the start time tells a reused pid apart
      let entry = seen.get(key);
      if (!entry) {
        const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
        entry = { kind: kindOf(cmdline), base: Number(fields[19]) > startedAt ? 0 : ticks, ticks };
        seen.set(key, entry);
      }
      entry.ticks = ticks;
    } catch {
      // gone between the listing and the read
    }
  }
}

const timer = setInterval(sample, 500);
sample();
const began = Date.now();
const child = spawn(command[0], command.slice(1), { stdio: 'inherit' });
child.on('exit', (code, signal) => {
  sample();
  clearInterval(timer);
  const wallS = (Date.now() - began) / 1000;
  const byKind = new Map();
  for (const { kind, base, ticks } of seen.values()) byKind.set(kind, (byKind.get(kind) ?? 0) + (ticks - base) / TICKS);
  const total = [...byKind.values()].reduce((a, b) => a + b, 0);
  const cores = os.cpus().length;
  console.log(`\nCPU by process: ${total.toFixed(1)} s in ${wallS.toFixed(1)} s of wall on ${cores} cores (${((100 * total) / (wallS * cores)).toFixed(0)} % busy)`);
  for (const [kind, s] of [...byKind].sort((a, b) => b[1] - a[1])) {
    if (s >= 0.5) console.log(`${s.toFixed(1).padStart(8)} s ${((100 * s) / total).toFixed(1).padStart(5)} %  ${kind}`);
  }
  process.exit(code ?? (signal ? 1 : 0));
});
