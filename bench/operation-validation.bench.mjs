#!/usr/bin/env node
// What declaring an operation costs a request: the gateway's routes are mounted from their
// declarations (operations/mount.ts), which note the operation, read the body, check its field
// types (the document's, then the declaration's TypeBox schema through ajv) and read the path
// ids before the handler runs. Three routes, each served both ways by a child process with stubbed
// services (bench/lib/operation-server.cjs): the in-app update check (GET, no body: the path
// every installed build polls), the upload (POST, a 256 KiB multipart body its handler streams —
// here it only reads it to the end) and a release's edit (PUT, a JSON body of nine typed fields).
// "bare" runs the same handler behind express's own JSON parser and nothing else. The two
// servers take the load in turns (ABAB, BENCH_ROUNDS each, BENCH_DURATION_S seconds), so a drift
// in the machine's load falls on both; printed: requests/s and the server's CPU per request,
// medians of the turns, and the declared/bare ratio.
//   node bench/operation-validation.bench.mjs
import { execFileSync, fork } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
if (process.env.BENCH_SKIP_BUILD !== '1') execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A server of one mode on its own port; `cpu()` answers its CPU time so far, in µs. */
async function server(mode, port) {
  const child = fork(path.join(root, 'bench/lib/operation-server.cjs'), [mode, String(port)], { stdio: 'inherit' });
  await new Promise((resolve) => child.once('message', resolve));
  const cpu = () =>
    new Promise((resolve) => {
      child.once('message', (m) => resolve(m.cpuMicros));
      child.send('cpu');
    });
  return { mode, port, cpu, stop: () => child.kill() };
}

const BOUNDARY = 'bench-boundary';
const MULTIPART = Buffer.concat([
  Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="channel_key"\r\n\r\nbench\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="app.apk"\r\nContent-Type: application/octet-stream\r\n\r\n`),
  Buffer.alloc(256 * 1024, 7),
  Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
]);
const ROUTES = {
  'update check': { method: 'GET', path: '/api/apps/update_check?channel_key=bench&bundle_id=com.example.bench&release_version=1.0.0&build_version=1' },
  upload: { method: 'POST', path: '/api/apps/upload', headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, body: MULTIPART },
  'release edit': {
    method: 'PUT',
    path: '/api/releases/7',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ changelog: 'Fixes', custom_fields: '[]', release_version: '1.2.0', build_version: '42', branch: 'main', git_commit: 'abc', ci_url: 'https://ci.example/1', release_type: 'beta', mandatory: false }),
  },
};

async function turn(target, route) {
  const before = await target.cpu();
  const result = await autocannon({ url: `http://127.0.0.1:${target.port}${route.path}`, method: route.method, headers: route.headers, body: route.body, connections: CONNECTIONS, duration: DURATION_S });
  const cpuMicros = (await target.cpu()) - before;
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.mode} ${route.method} ${route.path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, cpuPerRequest: cpuMicros / result.requests.total };
}

const servers = [await server('declared', 18511), await server('bare', 18512)];
try {
  const lines = [];
  for (const [name, route] of Object.entries(ROUTES)) {
    const turns = { declared: [], bare: [] };
    for (let round = 0; round < ROUNDS; round++) for (const target of round % 2 ? [...servers].reverse() : servers) turns[target.mode].push(await turn(target, route));
    const figure = (mode) => ({ rps: median(turns[mode].map((t) => t.rps)), cpu: median(turns[mode].map((t) => t.cpuPerRequest)) });
    const declared = figure('declared');
    const bare = figure('bare');
    lines.push(
      `  ${name.padEnd(13)} declared ${declared.rps.toFixed(0).padStart(6)} req/s, ${declared.cpu.toFixed(1).padStart(6)} µs CPU/request; bare ${bare.rps.toFixed(0).padStart(6)} req/s, ${bare.cpu.toFixed(1).padStart(6)} µs; ` +
        `declared/bare CPU ${(declared.cpu / bare.cpu).toFixed(2)}x (+${(declared.cpu - bare.cpu).toFixed(1)} µs)`,
    );
  }
  const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(`\nWhat a declaration costs a request: ${ROUNDS} turns of ${DURATION_S} s per server and route, ${CONNECTIONS} connections; ${os.cpus().length} cores (${os.cpus()[0]?.model}), load ${load}; Node ${process.version}`);
  for (const line of lines) console.log(line);
} finally {
  for (const s of servers) s.stop();
}
