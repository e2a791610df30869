#!/usr/bin/env node
// Downloads counted and in-app update checks (issue 20), in one run:
//  (1) GET /api/releases/:id/download (the 302 to storage: the cheapest answer,
//      so counting's share of each request is the largest it can be) on two
//      installations side by side, DOWNLOAD_COUNTING=false and =true, in
//      alternating rounds; prints both throughputs and what counting costs.
//      Target: < 2 %. Then checks every answered download was counted.
//  (2) GET /api/apps/update_check under 200 connections: requests/s and p99,
//      full answers (200) and revalidations (304). Target: >= 2,000 req/s,
//      p99 < 50 ms.
//   node bench/downloads.bench.mjs
//   BENCH_ROUND_S=8 BENCH_ROUNDS=3 BENCH_CHECK_S=20 node bench/downloads.bench.mjs
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
const autocannon = require('autocannon');
const { resolveInfrastructure } = require(path.join(root, 'libs/infra/dist'));
const { startHangar } = require(path.join(root, 'libs/testing/dist'));

const roundSeconds = Number(process.env.BENCH_ROUND_S ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const checkSeconds = Number(process.env.BENCH_CHECK_S ?? 20);
const DOWNLOAD_CONNECTIONS = 50;

const infra = await resolveInfrastructure({ dataDir: path.join(root, '.hangar', 'bench') });
Object.assign(process.env, {
  MONGO_URL: infra.mongoUrl,
  NATS_URL: infra.natsUrl,
  S3_ENDPOINT: infra.s3.endpoint,
  S3_ACCESS_KEY: infra.s3.accessKey,
  S3_SECRET_KEY: infra.s3.secretKey,
  HANGAR_SKIP_BUILD: '1',
});

const fixture = path.join(root, '..', 'shared', 'fixtures', 'apps', 'android.apk');
async function upload(hangar, channelKey) {
  const form = new FormData();
  form.append('token', hangar.adminToken);
  if (channelKey) form.append('channel_key', channelKey);
  form.append('file', new Blob([fs.readFileSync(fixture)]), 'android.apk');
  const res = await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', body: form });
  if (res.status !== 201) throw new Error(`upload answered ${res.status}`);
  return res.json();
}

const run = (opts) =>
  new Promise((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });

const off = await startHangar({ S3_BUCKET: `bench-dl-off-${Date.now()}`, LOG_LEVEL: 'warn', DOWNLOAD_COUNTING: 'false' });
const on = await startHangar({ S3_BUCKET: `bench-dl-on-${Date.now()}`, LOG_LEVEL: 'warn', DOWNLOAD_COUNTING: 'true' });
try {
  const releaseOff = await upload(off);
  const releaseOn = await upload(on);
  const url = (hangar, release) => `${hangar.baseUrl}/api/releases/${release.id}/download`;

  // Warm both (JIT, caches, connections), then alternate so load from elsewhere falls on both.
  let answeredOn = 0;
  for (const [h, r] of [[off, releaseOff], [on, releaseOn]]) {
    const warm = await run({ url: url(h, r), connections: DOWNLOAD_CONNECTIONS, duration: 3 });
    if (h === on) answeredOn += warm['3xx'];
  }
  const totals = { off: { requests: 0, seconds: 0, non3xx: 0 }, on: { requests: 0, seconds: 0, non3xx: 0 } };
  const perRound = [];
  for (let i = 0; i < rounds; i += 1) {
    const round = {};
    for (const [name, h, r] of i % 2 === 0 ? [['off', off, releaseOff], ['on', on, releaseOn]] : [['on', on, releaseOn], ['off', off, releaseOff]]) {
      const result = await run({ url: url(h, r), connections: DOWNLOAD_CONNECTIONS, duration: roundSeconds });
      totals[name].requests += result.requests.total;
      totals[name].seconds += result.duration;
      totals[name].non3xx += result.requests.total - result['3xx'];
      round[name] = result.requests.total / result.duration;
      if (name === 'on') answeredOn += result['3xx'];
    }
    perRound.push(round);
  }
  const rate = (t) => t.requests / t.seconds;
  const cost = 1 - rate(totals.on) / rate(totals.off);

  // Every download the counting installation answered (warm-up included) must be counted, once:
  // poll until the count reaches it (or stops moving for 5 s), and time how long it trailed.
  const countStart = Date.now();
  let stats;
  for (let last = -1, still = 0; still < 25 && Date.now() - countStart < 120_000; ) {
    stats = await fetch(`${on.baseUrl}/api/releases/${releaseOn.id}/stats`, { headers: { authorization: `Bearer ${on.adminToken}` } }).then((r) => r.json());
    if (stats.total === answeredOn) break;
    still = stats.total === last ? still + 1 : 0;
    last = stats.total;
    await new Promise((r) => setTimeout(r, 200));
  }
  const trailedMs = Date.now() - countStart;

  // (2) update_check: an installed 1.0 (5) asks; the channel's newest build is 2.0 (1).
  const older = await upload(on, releaseOn.channel.slug);
  const newer = await upload(on, releaseOn.channel.slug);
  const edit = (id, body) => fetch(`${on.baseUrl}/api/releases/${id}`, { method: 'PUT', headers: { authorization: `Bearer ${on.adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await edit(older.id, { release_version: '1.0', build_version: '5' });
  await edit(newer.id, { release_version: '2.0', build_version: '1', mandatory: true });
  const checkUrl = `${on.baseUrl}/api/apps/update_check?${new URLSearchParams({ channel_key: releaseOn.channel.slug, bundle_id: newer.bundle_id, release_version: '1.0', build_version: '5' })}`;
  const first = await fetch(checkUrl);
  const etag = first.headers.get('etag');
  await run({ url: checkUrl, connections: 200, duration: 3 });
  const full = await run({ url: checkUrl, connections: 200, duration: checkSeconds });
  const revalidated = await run({ url: checkUrl, connections: 200, duration: Math.max(5, checkSeconds / 2), headers: { 'if-none-match': etag } });

  const n = (x) => Math.round(x).toLocaleString('en-US');
  console.log(`\ndownloads and update-check benchmark — ${os.cpus().length} cores, ${Math.round(os.totalmem() / 1024 / 1024)} MiB RAM, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, ${new Date().toISOString()}`);
  console.log(`(1) GET /api/releases/:id/download (302), ${DOWNLOAD_CONNECTIONS} connections, ${rounds} alternating rounds of ${roundSeconds} s each`);
  for (const [i, r] of perRound.entries()) console.log(`    round ${i + 1}: counting off ${n(r.off)} req/s, on ${n(r.on)} req/s`);
  console.log(`    counting off: ${n(rate(totals.off))} req/s (${n(totals.off.requests)} requests, ${totals.off.non3xx} not 302)`);
  console.log(`    counting on:  ${n(rate(totals.on))} req/s (${n(totals.on.requests)} requests, ${totals.on.non3xx} not 302)`);
  console.log(`    cost of counting: ${(cost * 100).toFixed(1)} % of throughput   target < 2 %`);
  // autocannon tallies only answers that arrive before its run ends: up to one request per
  // connection per run is answered (and counted) after that.
  const inFlight = DOWNLOAD_CONNECTIONS * (rounds + 1);
  console.log(`    counted: ${n(stats.total)}; answered as tallied: ${n(answeredOn)} (+ up to ${inFlight} in flight when runs ended), ${stats.unique} unique client(s); the count settled ${trailedMs} ms after the last round`);
  console.log(`(2) GET /api/apps/update_check, 200 connections`);
  console.log(`    200 answers: ${n(full.requests.average)} req/s, latency p50 ${full.latency.p50} ms, p99 ${full.latency.p99} ms, max ${full.latency.max} ms, non-2xx ${full.non2xx}, errors ${full.errors}   target >= 2,000 req/s, p99 < 50 ms`);
  console.log(`    304 answers: ${n(revalidated.requests.average)} req/s, latency p50 ${revalidated.latency.p50} ms, p99 ${revalidated.latency.p99} ms, 304s ${revalidated['3xx']} of ${revalidated.requests.total}`);
  console.log(`    answer: ${JSON.stringify(await (await fetch(checkUrl)).json()).slice(0, 120)}…`);
} finally {
  await Promise.all([off.stop(), on.stop()]);
  await infra.stop();
}
