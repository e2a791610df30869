#!/usr/bin/env node
// Upload throughput: the same file (default 1 GiB) (a) put straight
// into S3 with the minio client and (b) posted through POST /api/apps/upload,
// in one run; prints both throughputs, their ratio, and the peak RSS of the
// gateway and the releases service (VmHWM). Targets: (b)/(a) >= 0.7, gateway
// peak RSS < 200 MB.
//   node bench/upload.bench.mjs            # 1 GiB
//   BENCH_SIZE_MB=256 node bench/upload.bench.mjs
import { execFileSync } from 'node:child_process';
import { randomFillSync, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { benchInfrastructure } from './lib/bench-infrastructure.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
const { startHangar } = require(path.join(root, 'libs/testing/dist'));
const { ObjectStorage } = require(path.join(root, 'libs/storage/dist'));

const sizeMb = Number(process.env.BENCH_SIZE_MB ?? 1024);
const mib = (n) => (n / 1024 / 1024).toFixed(1);

const infra = await benchInfrastructure(root);
const bucket = `bench-${Date.now()}`;
const hangar = await startHangar({ S3_BUCKET: bucket, LOG_LEVEL: 'warn', MAX_UPLOAD_BYTES: String((sizeMb + 64) * 1024 * 1024) });
const file = path.join(os.tmpdir(), `hangar-bench-${randomUUID()}.bin`);
try {
  // Random bytes: nothing along the way can compress them away.
  const chunk = Buffer.alloc(8 * 1024 * 1024);
  const fd = fs.openSync(file, 'w');
  for (let written = 0; written < sizeMb * 1024 * 1024; written += chunk.length) fs.writeSync(fd, randomFillSync(chunk));
  fs.closeSync(fd);
  const size = fs.statSync(file).size;

  // A channel to upload into: the real Android fixture creates it.
  const fixture = path.join(root, 'tests', 'fixtures', 'apps', 'android.apk');
  const form = new FormData();
  form.append('token', hangar.adminToken);
  form.append('file', new Blob([fs.readFileSync(fixture)]), 'android.apk');
  const seeded = await (await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', body: form })).json();
  const channelKey = seeded.channel.slug;

  const storage = new ObjectStorage({ ...infra.s3, bucket });
  await storage.ensureBucket();
  let t = process.hrtime.bigint();
  await storage.putStream(`bench/direct-${randomUUID()}`, fs.createReadStream(file, { highWaterMark: 1024 * 1024 }));
  const directSeconds = Number(process.hrtime.bigint() - t) / 1e9;

  t = process.hrtime.bigint();
  const status = await postMultipart(`${hangar.baseUrl}/api/apps/upload`, hangar.adminToken, channelKey, file, size);
  const apiSeconds = Number(process.hrtime.bigint() - t) / 1e9;
  if (status !== 201) throw new Error(`upload answered ${status}`);

  const peak = (name) => {
    const status = fs.readFileSync(`/proc/${hangar.pidOf(name)}/status`, 'utf8');
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) * 1024;
  };
  console.log(`\nupload benchmark — ${os.cpus().length} cores, ${mib(os.totalmem())} MiB RAM, ${new Date().toISOString()}`);
  console.log(`file size:                ${mib(size)} MiB`);
  console.log(`(a) direct S3 put:        ${directSeconds.toFixed(2)} s  ${(size / 1024 / 1024 / directSeconds).toFixed(1)} MiB/s`);
  console.log(`(b) POST /api/apps/upload: ${apiSeconds.toFixed(2)} s  ${(size / 1024 / 1024 / apiSeconds).toFixed(1)} MiB/s (includes parsing and the 201)`);
  console.log(`ratio (b)/(a) throughput: ${(directSeconds / apiSeconds).toFixed(2)}   target >= 0.7`);
  console.log(`gateway peak RSS:         ${mib(peak('gateway'))} MiB   target < 200`);
  console.log(`releases peak RSS:        ${mib(peak('releases'))} MiB`);
} finally {
  fs.rmSync(file, { force: true });
  await hangar.stop();
  await infra.stop();
}

/** A multipart body streamed from disk, fields first as Zealot clients send them. */
function postMultipart(url, token, channelKey, filePath, size) {
  const boundary = `hangar${randomUUID()}`;
  const field = (name, value) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    field('token', token) + field('channel_key', channelKey) + field('release_version', '9.9.9') + field('build_version', '1') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + size + tail.length) },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.write(head);
    const stream = fs.createReadStream(filePath, { highWaterMark: 1024 * 1024 });
    stream.on('end', () => req.end(tail));
    stream.pipe(req, { end: false });
  });
}
