// Load and CPU accounting for bench/reads.bench.mjs.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');

/**
 * `connections` connections for `durationS` seconds; a request unanswered after
 * 10 s counts as failed. Also returns the CPU each of `processes` spent per
 * request sent.
 */
export async function load(url, { processes, durationS, connections = 100, requests, overallRate }) {
  await settle(processes);
  const before = cpuByProcess(processes);
  const result = await autocannon({ url, connections, duration: durationS, timeout: 10, ...(requests ? { requests } : {}), ...(overallRate ? { overallRate } : {}) });
  // The servers are still answering what was in flight when autocannon
  // stopped; their CPU is counted once they are idle, over every request sent.
  await settle(processes);
  const after = cpuByProcess(processes);
  // Nothing answered within the run: latencies of no request are not 0 ms.
  const answered = result.requests.total > 0;
  const perRequest = (ms) => (result.requests.sent > 0 ? (ms / result.requests.sent).toFixed(2) : '—');
  return {
    rps: Math.round(result.requests.average),
    p50: answered ? result.latency.p50 : undefined,
    p99: answered ? result.latency.p99 : undefined,
    failed: result.non2xx + result.errors + result.timeouts,
    statuses: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, v]) => [code, v.count])),
    cpuMsPerRequest: Object.fromEntries(Object.keys(after).map((k) => [k, perRequest(after[k] - before[k])])),
  };
}

/**
 * Waits until the measured processes are idle (under 5 % of a core for a
 * second): requests autocannon gave up on are still being answered after a
 * run ends, and FerretDB goes on with queries whose clients have gone, so a
 * run started at once would pay for the last one's backlog.
 */
async function settle(processes, limitMs = 180_000) {
  const started = Date.now();
  for (;;) {
    const before = cpuByProcess(processes);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const after = cpuByProcess(processes);
    const busyMs = Object.keys(after).filter((k) => k !== 'autocannon').reduce((sum, k) => sum + after[k] - before[k], 0);
    if (busyMs < 50) return;
    if (Date.now() - started > limitMs) {
      process.stderr.write(`[reads bench] still busy (${busyMs.toFixed(0)} ms of CPU a second) after ${limitMs / 1000} s; measuring anyway\n`);
      return;
    }
  }
}

/**
 * CPU milliseconds (user + system) used so far by each process: `processes`
 * maps a name to pids, or to a user name for all of that user's processes
 * (PostgreSQL's backends come and go). autocannon runs in this process.
 */
function cpuByProcess(processes) {
  const msPerTick = 1000 / 100; // USER_HZ is 100 on Linux
  const cpuOf = (pid) => {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) * msPerTick;
    } catch {
      return 0; // gone between listing and reading
    }
  };
  const pidsOfUser = (user) => {
    const uid = uidOf(user);
    return fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d) && fs.statSync(`/proc/${d}`, { throwIfNoEntry: false })?.uid === uid);
  };
  const usage = {};
  for (const [name, pids] of Object.entries(processes)) {
    usage[name] = (typeof pids === 'string' ? pidsOfUser(pids) : pids).reduce((sum, pid) => sum + cpuOf(pid), 0);
  }
  const own = process.cpuUsage();
  usage.autocannon = (own.user + own.system) / 1000;
  return usage;
}

/** A user's uid, looked up once: settle() asks every second. */
const uids = new Map();
function uidOf(user) {
  if (!uids.has(user)) uids.set(user, Number(execFileSync('id', ['-u', user], { encoding: 'utf8' })));
  return uids.get(user);
}
