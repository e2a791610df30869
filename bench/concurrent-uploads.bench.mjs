#!/usr/bin/env node
// Concurrent uploads: N uploads of M MiB at once (default 20 × 50)
// (a) straight into S3 and (b) through POST /api/apps/upload, in one run;
// prints total throughput of both, the ratio, and the peak RSS (VmHWM) of
// every Hangar process. Targets: (b)/(a) >= 0.7, no process above 300 MB.
//   BENCH_UPLOADS=20 BENCH_SIZE_MB=50 node bench/concurrent-uploads.bench.mjs
import { execFileSync } from 'node:child_process';
import { randomFillSync, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
if (process.env.BENCH_SKIP_BUILD !== '1') execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
const { resolveInfrastructure } = require(path.join(root, 'libs/infra/dist'));
const { startHangar } = require(path.join(root, 'libs/testing/dist'));
const { ObjectStorage } = require(path.join(root, 'libs/storage/dist'));

const uploads = Number(process.env.BENCH_UPLOADS ?? 20);
const sizeMb = Number(process.env.BENCH_SIZE_MB ?? 50);
const mib = (n) => (n / 1024 / 1024).toFixed(1);
const PROCESSES = ['gateway', 'users', 'apps', 'releases', 'debug-files'];

const infra = await resolveInfrastructure({ dataDir: path.join(root, '.hangar', 'bench') });
Object.assign(process.env, { MONGO_URL: infra.mongoUrl, NATS_URL: infra.natsUrl, S3_ENDPOINT: infra.s3.endpoint, S3_ACCESS_KEY: infra.s3.accessKey, S3_SECRET_KEY: infra.s3.secretKey, HANGAR_SKIP_BUILD: '1' });
const bucket = `bench-${Date.now()}`;
const hangar = await startHangar({ S3_BUCKET: bucket, LOG_LEVEL: 'warn' });
const file = path.join(os.tmpdir(), `hangar-bench-${randomUUID()}.bin`);
try {
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < sizeMb; i++) fs.writeSync(fd, randomFillSync(chunk));
  fs.closeSync(fd);
  const size = fs.statSync(file).size;

  const form = new FormData();
  form.append('token', hangar.adminToken);
  form.append('file', new Blob([fs.readFileSync(path.join(root, 'tests', 'fixtures', 'apps', 'android.apk'))]), 'android.apk');
  const channelKey = (await (await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', body: form })).json()).channel.slug;

  const storage = new ObjectStorage({ ...infra.s3, bucket });
  await storage.ensureBucket();
  let t = process.hrtime.bigint();
  await Promise.all(Array.from({ length: uploads }, () => storage.putStream(`bench/${randomUUID()}`, fs.createReadStream(file, { highWaterMark: 1024 * 1024 }))));
  const direct = Number(process.hrtime.bigint() - t) / 1e9;

  // Where the gateway's memory is while (b) runs: its heap, the memory outside the heap
  // (Buffers), and the resident set, sampled from its /metrics (prom-client's defaults).
  const sampler = sampleMemory(hangar.metricsPortOf('gateway'));
  t = process.hrtime.bigint();
  const statuses = await Promise.all(Array.from({ length: uploads }, (_, i) => postMultipart(`${hangar.baseUrl}/api/apps/upload`, hangar.adminToken, channelKey, file, size, i)));
  const api = Number(process.hrtime.bigint() - t) / 1e9;
  const failed = statuses.filter((s) => s !== 201).length;
  const peaks = await sampler.stop();

  const total = uploads * size;
  console.log(`\nconcurrent uploads — ${os.cpus().length} cores, ${new Date().toISOString()}, ${uploads} × ${mib(size)} MiB`);
  console.log(`(a) direct S3:   ${direct.toFixed(2)} s  ${mib(total / direct)} MiB/s`);
  console.log(`(b) through API: ${api.toFixed(2)} s  ${mib(total / api)} MiB/s  (${failed} not 201)`);
  console.log(`ratio (b)/(a):   ${(direct / api).toFixed(2)}   target >= 0.7`);
  console.log(`gateway during (b), peaks of ${peaks.samples} samples: heap used ${mib(peaks.heapUsed)} MiB, external (Buffers) ${mib(peaks.external)} MiB, RSS ${mib(peaks.rss)} MiB`);
  for (const name of PROCESSES) {
    const status = fs.readFileSync(`/proc/${hangar.pidOf(name)}/status`, 'utf8');
    console.log(`peak RSS ${name.padEnd(12)} ${mib(Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) * 1024)} MiB   target < 300`);
  }
} finally {
  fs.rmSync(file, { force: true });
  await hangar.stop();
  await infra.stop();
}

/** Polls a process's Prometheus metrics every 200 ms and keeps the peak of each memory figure. */
function sampleMemory(port) {
  const peaks = { heapUsed: 0, external: 0, rss: 0, samples: 0 };
  const read = (text, name) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? 0);
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        peaks.heapUsed = Math.max(peaks.heapUsed, read(text, 'nodejs_heap_size_used_bytes'));
        peaks.external = Math.max(peaks.external, read(text, 'nodejs_external_memory_bytes'));
        peaks.rss = Math.max(peaks.rss, read(text, 'process_resident_memory_bytes'));
        peaks.samples++;
      } catch {
        // A scrape that fails under load is skipped.
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return { stop: async () => ((running = false), await loop, peaks) };
}

function postMultipart(url, token, channelKey, filePath, size, n) {
  const boundary = `hangar${randomUUID()}`;
  const field = (name, value) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(field('token', token) + field('channel_key', channelKey) + field('release_version', '9.0') + field('build_version', String(n)) + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b.bin"\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + size + tail.length) } });
    req.on('response', (res) => (res.resume(), res.on('end', () => resolve(res.statusCode))));
    req.on('error', reject);
    req.write(head);
    const stream = fs.createReadStream(filePath, { highWaterMark: 1024 * 1024 });
    stream.on('end', () => req.end(tail));
    stream.pipe(req, { end: false });
  });
}
