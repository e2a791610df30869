#!/usr/bin/env node
// Upload paths at wire speed, the same file in one run:
//   (a) one direct S3 PUT (a presigned URL, streamed from disk: no signing, one request)
//   (a2) a multipart upload straight to S3 by this script: 16 MiB parts, four at once, then the
//        completion — no Hangar at all. Every mode below is a multipart upload to S3 (a build's
//        size is not known before its bytes, or it is resumable), so this is what the S3 server
//        itself lets any of them reach; each mode's ratio to it is printed beside the target's.
//   (b) the hangar CLI through the gateway over tus, four parallel parts (--parallel 4), and
//   (b1) the same with the CLI's default for this route: one stream, no parts to join
//   (c) the hangar CLI with presigned parts straight to S3 (S3_PUBLIC_ENDPOINT)
//   (d) the legacy multipart POST /api/apps/upload
// then 20 concurrent CLI uploads of 50 MB against 20 concurrent direct PUTs. Before them, the
// memory target's floor: a bare Node HTTP server on the same Node (bench/lib/bare-http-sink.mjs)
// receives and hashes the same file, and its peak RSS is printed beside the gateway's.
// Each Hangar mode's time runs until its 201 (finishing call, parse and record included);
// the gateway's peak RSS is reset before each mode (/proc/<pid>/clear_refs) and read after.
// Each mode's CPU time is printed too, by where it went (the client — this script or the CLI
// processes it ran —, the gateway, the services, the S3 server, the database and NATS), with the
// SHA-256 rate of one core of this machine: every Hangar mode hashes every byte (the
// release records its SHA-256), and on a CPU without SHA extensions that, not the network, is what bounds it. Beside each
// target the bench prints the mode's ceiling here (bench/lib/ceiling.mjs): the ratio a Hangar
// with no cost but receiving and hashing every byte (and the CLI's own hash of it) would reach,
// built from this run's own CPU figures. A target above its ceiling cannot be met on this machine.
// Then each Hangar mode's CPU per MiB by process, each beside the least that process could spend
// here (the client: the direct PUT's client plus one SHA-256; the gateway: the bare server; S3: the
// direct PUT's S3), so a regression names its process; and the CLI's start-up CPU.
// Targets: (b)/(a) >= 1.0, (c)/(a) >= 1.0, (d)/(a) >= 0.9, gateway peak < 100 MB,
// 20 CLI / 20 direct >= 0.9; the CLI's CPU per byte <= 1.3 × the direct PUT client's on every
// route, and <= 150 ms for `hangar --version` and for a whole upload of a 1 KiB file.
//   node bench/resumable-upload.bench.mjs            # 1 GiB
//   BENCH_SIZE_MB=256 node bench/resumable-upload.bench.mjs
//   BENCH_CLI=/elsewhere/clients/cli/bin/hangar.js BENCH_SIZE_MB=256 node bench/resumable-upload.bench.mjs
import { execFile, execFileSync, spawn } from 'node:child_process';
import { createHash, randomFillSync, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { benchInfrastructure } from './lib/bench-infrastructure.mjs';
import { ceilingRatio, leastAddedCpu } from './lib/ceiling.mjs';
import { childrenTicks, cpuTicks, ownAndChildrenTicks, pidsByName, ticksPerSecond } from './lib/process-cpu.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
// BENCH_SKIP_BUILD=1: the built tree as it is (another change in progress may not build).
if (!process.env.BENCH_SKIP_BUILD) execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
const { startHangar } = require(path.join(root, 'libs/testing/dist'));
const { ObjectStorage } = require(path.join(root, 'libs/storage/dist'));
const run = promisify(execFile);

const sizeMb = Number(process.env.BENCH_SIZE_MB ?? 1024);
const concurrentMb = Number(process.env.BENCH_CONCURRENT_MB ?? 50);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 20);
const MiB = 1024 * 1024;
const mib = (n) => (n / MiB).toFixed(1);
const seconds = (from) => Number(process.hrtime.bigint() - from) / 1e9;
// BENCH_CLI: another build of the CLI to run instead (a checkout of an earlier commit), for a before/after in one bench's terms.
const cli = process.env.BENCH_CLI ?? path.join(root, 'clients', 'cli', 'bin', 'hangar.js');
/** Where a mode's CPU goes, in this order in the output. */
const CPU_GROUPS = ['client', 'gateway', 'services', 'S3', 'database', 'NATS'];
/** Runs of `hangar --version` and of a 1 KiB upload whose CPU is averaged. */
const STARTUP_RUNS = 10;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-bench-'));

const infra = await benchInfrastructure(root);
const bucket = `bench-${Date.now()}`;
// The same S3 server as clients reach it: turns on presigned parts (c).
const hangar = await startHangar({ S3_BUCKET: bucket, LOG_LEVEL: 'warn', MAX_UPLOAD_BYTES: String((sizeMb + 64) * MiB), S3_PUBLIC_ENDPOINT: infra.s3.endpoint });
const storage = new ObjectStorage({ ...infra.s3, bucket });
const gatewayPid = hangar.pidOf('gateway');
/** A memory figure of the gateway's /proc status (VmRSS now, VmHWM its peak), in bytes. */
const gatewayMemory = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${gatewayPid}/status`, 'utf8'))[1]) * 1024;
const peakRss = () => gatewayMemory('VmHWM');
const resetPeak = () => fs.writeFileSync(`/proc/${gatewayPid}/clear_refs`, '5');
const gatewayAtRest = gatewayMemory('VmRSS');
const canDropCaches = (() => {
  try {
    fs.accessSync('/proc/sys/vm/drop_caches', fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
})();

try {
  const big = randomFile('big.bin', sizeMb);
  const size = fs.statSync(big).size;

  // A channel to upload into: the real Android fixture creates it.
  const form = new FormData();
  form.append('token', hangar.adminToken);
  form.append('file', new Blob([fs.readFileSync(path.join(root, 'tests', 'fixtures', 'apps', 'android.apk'))]), 'android.apk');
  const channelKey = (await (await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', body: form })).json()).channel.slug;
  // Separate cache and config dirs: no resume state from an earlier run is picked up.
  const cliEnv = { ...process.env, HANGAR_URL: hangar.baseUrl, HANGAR_TOKEN: hangar.adminToken, XDG_CACHE_HOME: path.join(work, 'cache'), XDG_CONFIG_HOME: path.join(work, 'config'), CI: 'true' };
  let build = 0;
  const cliUpload = (file, via, flags = []) =>
    run('node', [cli, 'upload', file, '--channel-key', channelKey, '--release-version', '9.9.9', '--build-version', String(++build), '--via', via, '--json', ...flags], { env: cliEnv, maxBuffer: 64 * MiB });

  const results = [];
  const measure = async (name, fn, sources = [big]) => {
    settle(sources);
    resetPeak();
    const cpu = cpuMeter();
    const t = process.hrtime.bigint();
    await fn();
    const s = seconds(t);
    results.push({ name, s, peak: peakRss(), cpu: cpu.used() });
    console.error(`${name}: ${s.toFixed(2)} s`);
    return s;
  };

  const sha256Rate = sha256MiBPerSecond();
  const floor = await bareSinkPeak(big, size);
  const direct = await measure('(a) direct S3 PUT', () => presignedPut(big, size));
  const multipart = await measure('(a2) multipart straight to S3', () => presignedMultipart(big, size));
  const viaTus = await measure('(b) CLI over tus', () => cliUpload(big, 'tus', ['--parallel', '4']));
  await measure('(b1) CLI over tus, one stream', () => cliUpload(big, 'tus'));
  const viaS3 = await measure('(c) CLI, presigned parts', () => cliUpload(big, 's3'));
  const legacy = await measure('(d) legacy POST', async () => {
    const status = await postMultipart(`${hangar.baseUrl}/api/apps/upload`, hangar.adminToken, channelKey, big, size, ++build);
    if (status !== 201) throw new Error(`legacy upload answered ${status}`);
  });

  // Many at once: 20 CLI uploads of 50 MB against 20 direct PUTs of the same files.
  const small = Array.from({ length: concurrency }, (_, i) => randomFile(`small-${i}.bin`, concurrentMb));
  const manyDirect = await measure(`${concurrency} direct PUTs`, () => Promise.all(small.map((f) => presignedPut(f, fs.statSync(f).size))), small);
  const manyMultipart = await measure(`${concurrency} multipart uploads straight to S3`, () => Promise.all(small.map((f) => presignedMultipart(f, fs.statSync(f).size))), small);
  const manyCli = await measure(`${concurrency} CLI uploads`, () => Promise.all(small.map((f) => cliUpload(f, 'tus'))), small);

  // The CLI's own start: CPU of its processes, one after another (their CPU is in this process's cutime once awaited).
  const tiny = path.join(work, 'tiny.bin');
  fs.writeFileSync(tiny, randomFillSync(Buffer.alloc(1024)));
  const childCpuMs = async (fn) => {
    const before = childrenTicks();
    for (let i = 0; i < STARTUP_RUNS; i++) await fn();
    return (((childrenTicks() - before) / ticksPerSecond) * 1000) / STARTUP_RUNS;
  };
  const startup = {
    bareNode: await childCpuMs(() => run(process.execPath, ['-e', '0'])),
    version: await childCpuMs(() => run(process.execPath, [cli, '--version'], { env: cliEnv })),
    tinyUpload: await childCpuMs(() => cliUpload(tiny, 'tus')),
  };

  const rate = (s, bytes = size) => `${(bytes / MiB / s).toFixed(1)} MiB/s`;
  console.log(`\nresumable upload benchmark — ${os.cpus().length} cores, ${mib(os.totalmem())} MiB RAM, ${new Date().toISOString()}, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`file: ${mib(size)} MiB; many: ${concurrency} × ${concurrentMb} MiB; before each mode: sync${canDropCaches ? ', page cache dropped, sources read back in' : ' only (not root: the page cache was not dropped, and figures depend on its state)'}`);
  console.log('| mode | time | throughput | ratio to (a) | target | ceiling here | ratio to (a2) | gateway peak RSS |');
  console.log('|---|---|---|---|---|---|---|---|');
  // Each Hangar mode's target, and whether its client hashes the file: the CLI sends the SHA-256 it
  // computed for the server to check (point 2); the legacy POST sends none.
  // gatewayReceives: every byte reaches the gateway, which hashes it — in the upload, or (c) read
  // back from S3 at the finishing call, as S3 keeps no SHA-256 of a whole multipart object.
  const hangarModes = {
    '(b) CLI over tus': { target: 1.0, clientHashes: true, gatewayReceives: true },
    '(b1) CLI over tus, one stream': { target: 1.0, clientHashes: true, gatewayReceives: true },
    '(c) CLI, presigned parts': { target: 1.0, clientHashes: true, gatewayReceives: true },
    '(d) legacy POST': { target: 0.9, clientHashes: false, gatewayReceives: true },
  };
  const byName = Object.fromEntries(results.map((r) => [r.name, r]));
  const cpuOf = (name) => Object.values(byName[name].cpu).reduce((a, b) => a + b, 0);
  const cores = os.cpus().length;
  const added = (bytes, hashesInClient) => leastAddedCpu({ bytes, receiveAndHashPerByte: floor.cpuSeconds / size, sha256BytesPerSecond: sha256Rate * MiB, clientHashes: hashesInClient });
  for (const name of ['(a) direct S3 PUT', '(a2) multipart straight to S3', ...Object.keys(hangarModes)]) {
    const r = byName[name];
    const ratio = direct / r.s;
    const mode = hangarModes[name];
    const target = mode?.target;
    const hangarMode = mode !== undefined;
    const ceiling = mode && ceilingRatio({ baselineWall: direct, baselineCpu: cpuOf('(a) direct S3 PUT'), extraCpu: added(size, mode.clientHashes), cores });
    console.log(
      `| ${name} | ${r.s.toFixed(2)} s | ${rate(r.s)} | ${name === '(a) direct S3 PUT' ? '—' : ratio.toFixed(2)} | ${target ? `≥ ${target}${ratio >= target ? ' met' : ' missed'}` : '—'} | ` +
        `${hangarMode ? ceiling.toFixed(2) : '—'} | ${hangarMode ? (multipart / r.s).toFixed(2) : '—'} | ${hangarMode ? `${mib(r.peak)} MiB` : '—'} |`,
    );
  }
  const manyBytes = concurrency * concurrentMb * MiB;
  console.log(`| ${concurrency} direct PUTs | ${manyDirect.toFixed(2)} s | ${rate(manyDirect, manyBytes)} | — | — | — | — | — |`);
  console.log(`| ${concurrency} multipart straight to S3 | ${manyMultipart.toFixed(2)} s | ${rate(manyMultipart, manyBytes)} | — | — | — | — | — |`);
  const manyRatio = manyDirect / manyCli;
  const manyCeiling = ceilingRatio({ baselineWall: manyDirect, baselineCpu: cpuOf(`${concurrency} direct PUTs`), extraCpu: added(manyBytes, true), cores });
  console.log(
    `| ${concurrency} CLI uploads | ${manyCli.toFixed(2)} s | ${rate(manyCli, manyBytes)} | ${manyRatio.toFixed(2)} | ≥ 0.9${manyRatio >= 0.9 ? ' met' : ' missed'} | ${manyCeiling.toFixed(2)} | ` +
      `${(manyMultipart / manyCli).toFixed(2)} | ${mib(byName[`${concurrency} CLI uploads`].peak)} MiB |`,
  );
  console.log(
    `ceiling here: the best ratio any implementation could reach on this machine — (a)'s own CPU plus the least a mode adds ` +
      `(a Node process receiving and hashing every byte: ${floor.cpuSeconds.toFixed(2)} s for ${mib(size)} MiB in the bare server below; ` +
      `the client's SHA-256 where it sends one), spread over ${cores} cores with nothing else; a target above its ceiling cannot be met here`,
  );
  console.log(`\nCPU seconds of each mode, by where they went (${os.cpus().length} cores: a mode whose processes kept them busy used ${os.cpus().length} × its wall time)`);
  console.log(`| mode | wall | CPU | busy | ${CPU_GROUPS.join(' | ')} |`);
  console.log(`|---|---|---|---|${CPU_GROUPS.map(() => '---|').join('')}`);
  for (const r of results) {
    const total = Object.values(r.cpu).reduce((a, b) => a + b, 0);
    console.log(`| ${r.name} | ${r.s.toFixed(2)} s | ${total.toFixed(2)} s | ${((total / r.s / os.cpus().length) * 100).toFixed(0)} % | ${CPU_GROUPS.map((g) => r.cpu[g].toFixed(2)).join(' | ')} |`);
  }
  console.log(
    `SHA-256 on one core of this machine (${os.cpus()[0].model.trim()}): ${sha256Rate.toFixed(0)} MiB/s — hashing the ${mib(size)} MiB file once takes ${(size / MiB / sha256Rate).toFixed(2)} s of one core; (a) took ${direct.toFixed(2)} s`,
  );
  // Per MiB by process, beside the least that process could spend on it here (its floor), so a
  // regression names the process it is in: the client's floor is (a)'s client (sending the bytes,
  // as a direct PUT) plus one SHA-256 of them where it sends a checksum; the gateway's, the bare
  // Node server's receiving and hashing where the bytes pass through it; S3's, (a)'s S3 (taking
  // the bytes once). The CLI's own target: its CPU per byte at most 1.3 × the direct PUT client's.
  const msPerMiB = (cpuSeconds, bytes) => (cpuSeconds * 1000) / (bytes / MiB);
  const sha256MsPerMiB = 1000 / sha256Rate;
  const receiveMsPerMiB = msPerMiB(floor.cpuSeconds, size);
  const perMiBRows = [
    ...Object.entries(hangarModes).map(([name, mode]) => ({ name, mode, bytes: size, baseline: byName['(a) direct S3 PUT'].cpu })),
    { name: `${concurrency} CLI uploads`, mode: { clientHashes: true, gatewayReceives: true }, bytes: manyBytes, baseline: byName[`${concurrency} direct PUTs`].cpu },
  ];
  console.log(`\nCPU ms per MiB of each Hangar mode by process, and in brackets the floor here: what that process could not spend less on (client: the direct PUT's client + one SHA-256 where it sends a checksum; gateway: the bare server receiving and hashing; S3: the direct PUT's S3)`);
  console.log(`| mode | ${CPU_GROUPS.join(' | ')} | client / direct PUT client (CLI target ≤ 1.3) |`);
  console.log(`|---|${CPU_GROUPS.map(() => '---|').join('')}---|`);
  for (const { name, mode, bytes, baseline } of perMiBRows) {
    const cpu = byName[name].cpu;
    const floors = {
      client: msPerMiB(baseline.client, bytes) + (mode.clientHashes ? sha256MsPerMiB : 0),
      gateway: mode.gatewayReceives ? receiveMsPerMiB : 0,
      S3: msPerMiB(baseline.S3, bytes),
    };
    const cell = (group) => `${msPerMiB(cpu[group], bytes).toFixed(2)}${group in floors ? ` (${floors[group].toFixed(2)})` : ''}`;
    const clientRatio = cpu.client / baseline.client;
    const isCli = name !== '(d) legacy POST';
    console.log(`| ${name} | ${CPU_GROUPS.map(cell).join(' | ')} | ${clientRatio.toFixed(2)}${isCli ? (clientRatio <= 1.3 ? ' met' : ' missed') : ''} |`);
  }
  console.log(
    `the CLI's start-up (target ≤ 150 ms of CPU each): \`hangar --version\` ${startup.version.toFixed(0)} ms, a whole upload of a 1 KiB file over tus ${startup.tinyUpload.toFixed(0)} ms ` +
      `(mean of ${STARTUP_RUNS} runs each, the CLI processes' CPU; a bare \`node -e 0\` ${startup.bareNode.toFixed(0)} ms)`,
  );
  const worstPeak = Math.max(...results.filter((r) => r.name in hangarModes || r.name.endsWith('CLI uploads')).map((r) => r.peak));
  console.log(`gateway peak RSS over the Hangar modes: ${mib(worstPeak)} MiB (target < 100 MB: ${worstPeak < 100e6 ? 'met' : 'missed'})`);
  console.log(
    `the floor on ${process.version}: a bare Node HTTP server hashing the same ${mib(size)} MiB body peaks at ${mib(floor.peak)} MiB (${mib(floor.atRest)} MiB at rest, ` +
      `${mib(floor.peak - floor.atRest)} MiB for the body); the gateway at rest: ${mib(gatewayAtRest)} MiB`,
  );
} finally {
  fs.rmSync(work, { recursive: true, force: true });
  await hangar.stop();
  // Several GiB per run: the bench's bucket goes, not only its local files.
  await emptyBucket().catch((err) => console.error(`the bench bucket ${bucket} was not emptied: ${err.message}`));
  await infra.stop();
}

/**
 * CPU time from now on, by group: `used()` answers seconds per group. The client is this script
 * and the CLI processes it ran and awaited; the pids are taken now (FerretDB's PostgreSQL
 * backends come and go with connections).
 */
function cpuMeter() {
  const groups = {
    gateway: hangar.pidsOf('gateway'),
    services: ['users', 'apps', 'releases', 'debug-files', 'webhooks'].flatMap((name) => hangar.pidsOf(name)),
    S3: pidsByName('versitygw'),
    database: [...pidsByName('ferretdb'), ...pidsByName('postgres')],
    NATS: pidsByName('nats-server'),
  };
  const read = () => ({ client: ownAndChildrenTicks(), ...Object.fromEntries(Object.entries(groups).map(([group, pids]) => [group, cpuTicks(pids)])) });
  const before = read();
  return {
    used() {
      const after = read();
      return Object.fromEntries(CPU_GROUPS.map((group) => [group, (after[group] - before[group]) / ticksPerSecond]));
    },
  };
}

/** SHA-256 throughput of one core here (Node's crypto, OpenSSL), over 256 MiB in 1 MiB updates. */
function sha256MiBPerSecond() {
  const chunk = randomFillSync(Buffer.alloc(MiB));
  const hash = createHash('sha256');
  const t = process.hrtime.bigint();
  for (let i = 0; i < 256; i++) hash.update(chunk);
  hash.digest();
  return 256 / seconds(t);
}

/**
 * Every mode starts from the same memory state. On this project's machine (a VM) the S3 server
 * completed a 1 GiB multipart upload in 0.85 s right after the page cache was dropped and in
 * 4.0 s (sys time, in the copy of the parts) once earlier runs had filled it: which mode met
 * which state depended on its place in the run (docs/performance.md). So, before each mode,
 * what earlier modes wrote goes to disk, the cache is dropped where this process may (root),
 * and the mode's sources are read back in, so no mode reads its file from disk.
 */
function settle(sources) {
  execFileSync('sync');
  if (canDropCaches) fs.writeFileSync('/proc/sys/vm/drop_caches', '3');
  const buffer = Buffer.allocUnsafe(8 * MiB);
  for (const file of sources) {
    const fd = fs.openSync(file, 'r');
    while (fs.readSync(fd, buffer, 0, buffer.length, null) > 0);
    fs.closeSync(fd);
  }
}

/** Removes every object of the bench's bucket, and the bucket. */
async function emptyBucket() {
  for await (const page of storage.listObjectPages('')) {
    await storage.client.removeObjects(bucket, page.map((o) => o.key));
  }
  await storage.client.removeBucket(bucket);
}

/** The file PUT to a bare Node HTTP server (bench/lib/bare-http-sink.mjs) on this Node: its RSS at rest and at peak. */
async function bareSinkPeak(file, size) {
  const sink = spawn(process.execPath, [path.join(root, 'bench', 'lib', 'bare-http-sink.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    sink.stdout.once('data', (d) => resolve(Number(String(d).trim())));
    sink.once('exit', (code) => reject(new Error(`the bare sink exited (${code})`)));
  });
  const answer = await new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'PUT', headers: { 'content-length': String(size) } });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve(JSON.parse(body)));
    });
    req.on('error', reject);
    fs.createReadStream(file, { highWaterMark: MiB }).pipe(req);
  });
  if (answer.bytes !== size) throw new Error(`the bare sink received ${answer.bytes} of ${size} bytes`);
  // Waited for here: a child reaped during a mode would add its CPU to that mode's client.
  await new Promise((resolve) => {
    sink.once('exit', resolve);
    sink.kill();
  });
  return answer;
}

/** Random bytes: nothing along the way can compress them away. */
function randomFile(name, megabytes) {
  const file = path.join(work, name);
  const chunk = Buffer.alloc(8 * MiB);
  const fd = fs.openSync(file, 'w');
  for (let written = 0; written < megabytes * MiB; written += chunk.length) fs.writeSync(fd, randomFillSync(chunk), 0, Math.min(chunk.length, megabytes * MiB - written));
  fs.closeSync(fd);
  return file;
}

/** One PUT of the whole file to a presigned URL, streamed from disk. */
async function presignedPut(file, size) {
  const url = await storage.client.presignedPutObject(bucket, `bench/direct-${randomUUID()}`, 3600);
  await new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'PUT', headers: { 'content-length': String(size) } });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`direct PUT answered ${res.statusCode}`))));
    });
    req.on('error', reject);
    fs.createReadStream(file, { highWaterMark: MiB }).pipe(req);
  });
}

/** The file as a multipart upload straight to S3: presigned 16 MiB parts, four at once, then completed. */
async function presignedMultipart(file, size) {
  const key = `bench/multipart-${randomUUID()}`;
  const uploadId = await storage.beginMultipart(key);
  const partSize = 16 * MiB;
  const count = Math.ceil(size / partSize);
  const parts = [];
  let next = 0;
  const putPart = async (index) => {
    const url = await storage.presignedPartUrl(key, uploadId, index + 1, 3600);
    const start = index * partSize;
    const end = Math.min(size, start + partSize);
    const etag = await new Promise((resolve, reject) => {
      const req = http.request(url, { method: 'PUT', headers: { 'content-length': String(end - start) } });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve(String(res.headers.etag).replaceAll('"', '')) : reject(new Error(`part PUT answered ${res.statusCode}`))));
      });
      req.on('error', reject);
      fs.createReadStream(file, { start, end: end - 1, highWaterMark: MiB }).pipe(req);
    });
    parts.push({ part: index + 1, etag });
  };
  await Promise.all(Array.from({ length: Math.min(4, count) }, async () => {
    for (let index = next++; index < count; index = next++) await putPart(index);
  }));
  await storage.completeMultipart(key, uploadId, parts);
}

/** A multipart body streamed from disk, fields first as Zealot clients send them. */
function postMultipart(url, token, channelKey, filePath, size, buildNumber) {
  const boundary = `hangar${randomUUID()}`;
  const field = (name, value) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    field('token', token) + field('channel_key', channelKey) + field('release_version', '9.9.9') + field('build_version', String(buildNumber)) +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + size + tail.length) } });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.write(head);
    const stream = fs.createReadStream(filePath, { highWaterMark: MiB });
    stream.on('end', () => req.end(tail));
    stream.pipe(req, { end: false });
  });
}
