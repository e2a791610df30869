// Counting's work measured part by part, each alone and repeated until its cost stands well
// above the noise. End to end, on against off, two installations on one 2-core
// machine differ by 5–7 % however long they run and a fresh one by more (docs/performance.md):
// a 2 % effect cannot be read there. Counting is two parts, and each is measured here for real:
//  - per download, in the gateway: count() — the client's hash and a tally in memory, the
//    once-a-second publish included — with real express requests and a real NATS connection;
//  - per message, off the request path: the releases service consuming what the gateway
//    published (claims, unique clients, day and total, the generation bump) and the servers
//    its writes land in, measured on a running installation by publishing real messages to it.
// On saturated cores throughput follows CPU, so their sum over a download's CPU is the share
// of throughput counting takes.
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cpuTicks, ticksPerSecond } from './process-cpu.mjs';
import { releaseStats, settledCount } from './download-installations.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The gateway's counting parts, built as the gateway builds them. */
async function gatewayCounting(natsUrl, prefix, flushMs) {
  const { connect } = require('@nats-io/transport-node');
  const { DailySalt } = require(path.join(root, 'services/gateway/dist/downloads/daily-salt'));
  const { downloadCounter } = require(path.join(root, 'services/gateway/dist/downloads/download-counter'));
  const nc = await connect({ servers: natsUrl });
  const salts = await DailySalt.open(nc, prefix);
  await salts.get(new Date().toISOString().slice(0, 10));
  const counter = downloadCounter(nc, salts, { prefix, logger: { warn: () => undefined }, flushMs });
  // Real express requests (the gateway's settings): req.ip and req.get() cost what they cost there.
  const express = require(require.resolve('express', { paths: [path.join(root, 'services/gateway')] }));
  const app = express();
  app.set('trust proxy', true);
  const request = (ip) => Object.assign(Object.create(app.request), { headers: { 'user-agent': 'Bench/1.0 (iPhone; iOS 18.1)' }, socket: { remoteAddress: ip }, connection: { remoteAddress: ip } });
  const clients = (n) => Array.from({ length: n }, (_, i) => request(`198.51.${(i >> 8) & 255}.${i & 255}`));
  return {
    counter,
    clients,
    async close() {
      counter.close();
      await nc.drain();
    },
  };
}

/** ns of CPU per count() call in this process — one client storming, then 20,000 clients in turn. */
export async function measureGatewayCounting(natsUrl) {
  const gateway = await gatewayCounting(natsUrl, `bench-count-${Date.now()}`, 1000);
  const results = [];
  try {
    for (const [label, clients] of [['one client', 1], ['20,000 clients', 20_000]]) {
      const requests = gateway.clients(clients);
      const calls = 400_000;
      const started = process.cpuUsage();
      for (let i = 0; i < calls; i += 1) {
        gateway.counter.count(1 + (i % 3), requests[i % clients]);
        if (i % 2_000 === 0) await new Promise((r) => setImmediate(r)); // let the flush timer run
      }
      const used = process.cpuUsage(started);
      results.push({ label, nsPerDownload: ((used.user + used.system) * 1000) / calls });
    }
  } finally {
    await gateway.close();
  }
  return results;
}

/**
 * µs of CPU per downloads message in `groups` (named pid lists: a running installation and the
 * servers it shares), in all and by group, over what they use idle: `messages` messages
 * published to the installation's downloads subject by the gateway's own counter, each 150 ms
 * apart so the consumer takes each alone as it does the one message a second a gateway sends,
 * each carrying `clientsPerMessage` clients (more than one: clients no message had before);
 * timed until the release's stats show every download.
 */
export async function measureConsumerPerMessage({ natsUrl, prefix, hangar, releaseId, groups, messages, clientsPerMessage }) {
  const gateway = await gatewayCounting(natsUrl, prefix, 100);
  try {
    const idleMs = 5_000;
    const ticksByGroup = () => Object.fromEntries(Object.entries(groups).map(([group, g]) => [group, cpuTicks(g)]));
    const idleBefore = ticksByGroup();
    await sleep(idleMs);
    const idleAfter = ticksByGroup();
    const idleTicksPerMs = Object.fromEntries(Object.keys(groups).map((group) => [group, (idleAfter[group] - idleBefore[group]) / idleMs]));

    // Each message its own clients: with more than one, every download is a client not seen before.
    const requests = gateway.clients(clientsPerMessage === 1 ? 1 : clientsPerMessage * messages);
    const expected = (await releaseStats(hangar, releaseId)).total + messages * clientsPerMessage;
    const started = Date.now();
    const ticksBefore = ticksByGroup();
    for (let m = 0; m < messages; m += 1) {
      const first = clientsPerMessage === 1 ? 0 : m * clientsPerMessage;
      for (let i = first; i < first + clientsPerMessage; i += 1) gateway.counter.count(releaseId, requests[i]);
      await sleep(150); // the counter's 100 ms timer publishes them, as one message, before the next
    }
    const { stats } = await settledCount(hangar, releaseId, expected);
    const elapsedMs = Date.now() - started;
    const ticksAfter = ticksByGroup();
    if (stats.total !== expected) throw new Error(`consumer measurement: the release counts ${stats.total} downloads, expected ${expected}`);
    const usPerMessageOf = (group) => (((ticksAfter[group] - ticksBefore[group] - idleTicksPerMs[group] * elapsedMs) / ticksPerSecond) * 1e6) / messages;
    const byGroup = Object.fromEntries(Object.keys(groups).map((group) => [group, usPerMessageOf(group)]));
    return {
      usPerMessage: Object.values(byGroup).reduce((a, b) => a + b, 0),
      byGroup,
      idleCores: (Object.values(idleTicksPerMs).reduce((a, b) => a + b, 0) / ticksPerSecond) * 1000,
    };
  } finally {
    await gateway.close();
  }
}
