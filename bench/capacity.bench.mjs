#!/usr/bin/env node
// Capacity: what each kind of request costs each part of Hangar, in CPU, and what a deployment
// needs for the load docs/scale.md plans for (1M builds a day, 1B downloads a month, peaks 10×
// the mean, 100k apps). The simulation of that mix, scaled down to this machine:
//  1. One Hangar as the README starts it (one replica of each process), with BENCH_APPS apps;
//     measured twice: with its caches as shipped (warm: the same builds asked again and again),
//     then with every cache sized 0 (cold: each request reads what a build nobody asked for
//     lately needs, the long tail of 100k apps, and the bound the plan is drawn from).
//  2. Its idle CPU per part, measured first and taken off every figure after.
//  3. Each kind of request alone, driven until BENCH_SECONDS pass: uploads (the Android
//     fixture, BENCH_UPLOAD_CONNECTIONS at once, parsed and recorded before the clock stops),
//     downloads (the 302 to a presigned URL, counted), in-app update checks, install pages and the
//     console's apps list. For each: the CPU milliseconds one request costs each part (the
//     gateway, releases, the other services, FerretDB with PostgreSQL, NATS with S3).
//  4. The mix at the planned rates, mean and peak, through the formula written in docs/scale.md:
//     cores of a part = Σ over kinds (requests/s of the kind × CPU ms of the kind in that part)
//     / 1000. Every figure it prints past step 3 is extrapolated, and says so.
//   node bench/capacity.bench.mjs
//   BENCH_SECONDS=5 node bench/capacity.bench.mjs   (a quick run)
// The rates of the plan are parameters (BENCH_BUILDS_PER_DAY, BENCH_DOWNLOADS_PER_MONTH,
// BENCH_CHECKS_PER_DOWNLOAD, BENCH_PEAK_FACTOR): the assumptions are printed with the answer.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { benchInfrastructure } from './lib/bench-infrastructure.mjs';
import { loadRun, processGroups, uploadFixture } from './lib/download-installations.mjs';
import { cpuTicks, ticksPerSecond } from './lib/process-cpu.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
if (process.env.BENCH_SKIP_BUILD !== '1') execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
const { startHangar } = require(path.join(root, 'libs/testing/dist'));

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const APPS = Number(process.env.BENCH_APPS ?? 100);
const UPLOAD_CONNECTIONS = Number(process.env.BENCH_UPLOAD_CONNECTIONS ?? 4);
const plan = {
  buildsPerDay: Number(process.env.BENCH_BUILDS_PER_DAY ?? 1_000_000),
  downloadsPerMonth: Number(process.env.BENCH_DOWNLOADS_PER_MONTH ?? 1_000_000_000),
  // An installed app asks at each start; a tester installs a build once (assumptions, printed).
  checksPerDownload: Number(process.env.BENCH_CHECKS_PER_DOWNLOAD ?? 10),
  installPagesPerDownload: Number(process.env.BENCH_PAGES_PER_DOWNLOAD ?? 1),
  appsListsPerBuild: Number(process.env.BENCH_APPS_LISTS_PER_BUILD ?? 1),
  peakFactor: Number(process.env.BENCH_PEAK_FACTOR ?? 10),
};
// Every cache of the gateway and the services sized 0 (libs/config, the services' configs).
const COLD = { APP_VIEW_CACHE_SIZE: '0', AUTH_CACHE_SIZE: '0', UPDATE_CHECK_CACHE_SIZE: '0', RELEASES_CACHE_MAX_DOCS: '0', CHANNEL_CACHE_SIZE: '0' };
const progress = (line) => process.stderr.write(`[capacity bench] ${new Date().toISOString().slice(11, 19)} ${line}\n`);
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
const fixtureBytes = fs.statSync(path.join(root, 'tests', 'fixtures', 'apps', 'android.apk')).size;

console.log(`capacity benchmark — ${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString()}, load average at start ${load()}`);
const infra = await benchInfrastructure(root, 'bench-capacity', progress);
/**
 * One installation's figures: CPU ms per request of each part for each kind, idle taken off.
 * `cold`: every cache of the gateway and the services sized 0, so each request does the reads a
 * request for a build nobody asked for lately does (the long tail of 100k apps); warm: as shipped,
 * the same few builds asked again and again (their caches answer).
 */
async function measureInstallation(label, extraEnv) {
  progress(`${label}: starting Hangar`);
  const hangar = await startHangar({ S3_BUCKET: `bench-capacity-${Date.now()}`, LOG_LEVEL: 'warn', ...extraEnv });
  try {
    const auth = { authorization: `Bearer ${hangar.adminToken}` };
    const call = async (method, url, body) => {
      const res = await fetch(`${hangar.baseUrl}${url}`, { method, headers: { ...auth, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
      if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
      return res.json();
    };

    progress(`seeding ${APPS} apps (a scheme and a channel each) and two builds`);
    for (let i = 0; i < APPS; i += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, APPS - i) }, async (_, j) => {
          const app = await call('POST', '/api/apps', { name: `Capacity app ${String(i + j).padStart(3, '0')}` });
          const scheme = await call('POST', `/api/apps/${app.id}/schemes`, { name: 'Beta', new_build_callout: false });
          await call('POST', `/api/schemes/${scheme.id}/channels`, { name: 'Android', device_type: 'android' });
        }),
      );
    }
    const older = await uploadFixture(hangar);
    const channel = older.channel.slug;
    const newer = await uploadFixture(hangar, channel);
    await call('PUT', `/api/releases/${older.id}`, { release_version: '1.0', build_version: '5' });
    await call('PUT', `/api/releases/${newer.id}`, { release_version: '2.0', build_version: '1' });

    const groups = processGroups(hangar);
    const ticksOf = () => Object.fromEntries(Object.entries(groups).map(([name, pids]) => [name, cpuTicks(pids)]));
    const settle = () => new Promise((r) => setTimeout(r, 3_000));

    // What the parts spend doing nothing (polls, heartbeats), per second: taken off each figure.
    await settle();
    const idleStart = ticksOf();
    const idleFrom = Date.now();
    await new Promise((r) => setTimeout(r, 10_000));
    const idleSeconds = (Date.now() - idleFrom) / 1000;
    const idleEnd = ticksOf();
    const idlePerSecond = Object.fromEntries(Object.keys(groups).map((g) => [g, (idleEnd[g] - idleStart[g]) / ticksPerSecond / idleSeconds]));

    /** CPU ms per request of each part while `drive` ran (and the settling after it, for work it queued). */
    async function measure(kind, drive) {
      await settle();
      const before = ticksOf();
      const from = Date.now();
      const requests = await drive();
      await settle();
      const seconds = (Date.now() - from) / 1000;
      const after = ticksOf();
      const perRequest = Object.fromEntries(
        Object.keys(groups).map((g) => [g, Math.max(0, ((after[g] - before[g]) / ticksPerSecond - idlePerSecond[g] * seconds) * 1000) / requests]),
      );
      progress(`${label}, ${kind}: ${requests} requests; CPU ms each ${JSON.stringify(Object.fromEntries(Object.entries(perRequest).map(([g, ms]) => [g, +ms.toFixed(2)])))}`);
      return { kind, requests, perRequest };
    }

    const autocannonRun = async (opts) => {
      const result = await loadRun({ duration: SECONDS, ...opts });
      const bad = result.non2xx - (opts.expectStatus === 302 ? result['3xx'] ?? 0 : 0);
      if (result.errors > 0 || bad > 0) throw new Error(`${opts.url}: ${result.errors} errors, ${bad} answers not ${opts.expectStatus ?? '2xx'}`);
      return result.requests.total;
    };

    const results = [];
    results.push(
      await measure('upload', async () => {
        let done = 0;
        const until = Date.now() + SECONDS * 1000;
        await Promise.all(
          Array.from({ length: UPLOAD_CONNECTIONS }, async () => {
            while (Date.now() < until) {
              const release = await uploadFixture(hangar, channel);
              done += 1;
              // Recorded and parsed: the 201 comes once the package is read (metadata in the answer).
              if (!release.bundle_id) throw new Error('an upload answered without its metadata');
            }
          }),
        );
        return done;
      }),
    );
    results.push(await measure('download', () => autocannonRun({ url: `${hangar.baseUrl}/api/releases/${newer.id}/download`, connections: 50, expectStatus: 302 })));
    const checkUrl = `${hangar.baseUrl}/api/apps/update_check?${new URLSearchParams({ channel_key: channel, bundle_id: newer.bundle_id, release_version: '1.0', build_version: '5' })}`;
    results.push(await measure('update check', () => autocannonRun({ url: checkUrl, connections: 100 })));
    results.push(await measure('install page', () => autocannonRun({ url: `${hangar.baseUrl}/channels/${channel}`, connections: 50 })));
    results.push(await measure('apps list (100 apps)', () => autocannonRun({ url: `${hangar.baseUrl}/api/apps?per_page=100`, connections: 40, headers: auth })));
    return { results, idlePerSecond, parts: Object.keys(groups) };
  } finally {
    await hangar.stop();
  }
}

try {
  const warm = await measureInstallation('warm', {});
  const cold = await measureInstallation('cold', COLD);
  // The plan's rates, per second.
  const day = 86_400;
  const downloadsPerSecond = plan.downloadsPerMonth / (30 * day);
  const mean = {
    upload: plan.buildsPerDay / day,
    download: downloadsPerSecond,
    'update check': downloadsPerSecond * plan.checksPerDownload,
    'install page': downloadsPerSecond * plan.installPagesPerDownload,
    'apps list (100 apps)': (plan.buildsPerDay / day) * plan.appsListsPerBuild,
  };
  const { parts } = warm;
  const pad = (s, n) => String(s).padEnd(n);
  const num = (v, d = 2) => v.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

  for (const [label, { results, idlePerSecond }] of [['warm caches', warm], ['cold (every cache off)', cold]]) {
    console.log(`
Measured on this machine, ${label} (${os.cpus().length} cores; load average now ${load()}): CPU ms per request, idle taken off`);
    console.log(`${pad('kind', 22)}${pad('requests', 10)}${parts.map((p) => pad(p, 20)).join('')}total`);
    for (const r of results) {
      const total = parts.reduce((sum, p) => sum + r.perRequest[p], 0);
      console.log(`${pad(r.kind, 22)}${pad(r.requests, 10)}${parts.map((p) => pad(num(r.perRequest[p]), 20)).join('')}${num(total)}`);
    }
    console.log(`idle, CPU per second: ${parts.map((p) => `${p} ${num(idlePerSecond[p] * 1000, 0)} ms`).join(', ')}`);
  }

  console.log(
    `\nExtrapolated (not measured): ${num(plan.buildsPerDay, 0)} builds a day, ${num(plan.downloadsPerMonth, 0)} downloads a month, ` +
      `${plan.checksPerDownload} update checks and ${plan.installPagesPerDownload} install page per download, ${plan.appsListsPerBuild} apps list per build, peaks ${plan.peakFactor}× the mean`,
  );
  console.log(`${pad('kind', 22)}${pad('mean req/s', 14)}peak req/s`);
  for (const kind of Object.keys(mean)) console.log(`${pad(kind, 22)}${pad(num(mean[kind], 1), 14)}${num(mean[kind] * plan.peakFactor, 1)}`);
  console.log(`\ncores = Σ kinds (req/s × CPU ms per request) / 1000, per part, at this machine's speed per core; warm caches, then every request cold (the bound):`);
  console.log(`${pad('part', 20)}${pad('warm mean', 12)}${pad('warm peak', 12)}${pad('cold mean', 12)}${pad('cold peak', 12)}largest share of the cold peak`);
  const coresAt = (results, factor) => Object.fromEntries(parts.map((p) => [p, results.reduce((sum, r) => sum + (mean[r.kind] * factor * r.perRequest[p]) / 1000, 0)]));
  const figures = [coresAt(warm.results, 1), coresAt(warm.results, plan.peakFactor), coresAt(cold.results, 1), coresAt(cold.results, plan.peakFactor)];
  for (const p of parts) {
    const top = cold.results.map((r) => ({ kind: r.kind, cores: (mean[r.kind] * plan.peakFactor * r.perRequest[p]) / 1000 })).sort((a, b) => b.cores - a.cores)[0];
    console.log(`${pad(p, 20)}${figures.map((f) => pad(num(f[p], 1), 12)).join('')}${top.kind} (${num(top.cores, 1)} cores)`);
  }
  console.log(`${pad('all parts', 20)}${figures.map((f) => pad(num(parts.reduce((sum, p) => sum + f[p], 0), 1), 12)).join('')}`);
  const bytesPerDay = plan.buildsPerDay * fixtureBytes;
  console.log(
    `\nBytes (extrapolated from the fixture's ${num(fixtureBytes / 1024 / 1024)} MiB; scale by your packages' size): ` +
      `${num(bytesPerDay / 2 ** 40)} TiB stored a day, ${num((plan.downloadsPerMonth * fixtureBytes) / 2 ** 50)} PiB served a month by S3 or a CDN (the gateway answers a 302)`,
  );
} finally {
  await infra.stop();
}
