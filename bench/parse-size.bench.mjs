#!/usr/bin/env node
// Parse time of a ~1 GiB apk vs a 3 MB apk, both parsed from S3 through
// ObjectStorage.openRangeSource (ranged GETs, block cache), target: within 2x.
//
//   npx tsc -b libs/parsers libs/storage && node bench/parse-size.bench.mjs
//
// Env: S3_ENDPOINT / S3_ACCESS_KEY / S3_SECRET_KEY (default: the servers `npm run up` would use —
// running already, else started here under .hangar/bench and stopped at the end), BENCH_RUNS (default 15),
// BENCH_FILLER_MIB (default 1024), BENCH_BASELINE=1 to also time the old download-then-parse once.
// Needs zip(1) to append the filler to the real apk. Temp files and the bucket are removed at the end.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { benchInfrastructure } from './lib/bench-infrastructure.mjs';
import { mainOrChild, median, runChild as runChildOf, s3Settings } from './lib/child-process-runs.mjs';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { parsePackage } = require(path.join(ROOT, 'libs/parsers/dist/index.js'));
const { ObjectStorage } = require(path.join(ROOT, 'libs/storage/dist/index.js'));

const MiB = 1024 * 1024;
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const FILLER_MIB = Number(process.env.BENCH_FILLER_MIB ?? 1024);
const FIXTURE = path.resolve(ROOT, 'tests', 'fixtures', 'apps', 'android.apk');

const fmtBytes = (n) => (n >= MiB ? `${(n / MiB).toFixed(2)} MiB` : `${(n / 1024).toFixed(1)} KiB`);

/** Samples RSS every 5 ms while `work` runs; returns its result and the peak seen. */
async function withPeakRss(work) {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, peak };
  } finally {
    clearInterval(timer);
  }
}

async function buildBigApk(dir) {
  const apk = path.join(dir, 'big.apk');
  await fs.copyFile(FIXTURE, apk);
  await fs.mkdir(path.join(dir, 'assets'));
  const filler = path.join(dir, 'assets', 'filler.bin');
  const handle = await fs.open(filler, 'w');
  const zeros = Buffer.alloc(8 * MiB);
  for (let written = 0; written < FILLER_MIB * MiB; written += zeros.length) await handle.write(zeros);
  await handle.close();
  // -0: stored, so the archive really is that large; zip(1) appends it after the apk's members.
  execFileSync('zip', ['-0', '-q', apk, 'assets/filler.bin'], { cwd: dir, stdio: 'pipe' });
  await fs.rm(filler);
  return apk;
}

async function parseFromS3(storage, key) {
  const started = performance.now();
  const source = await storage.openRangeSource(key);
  const parsed = await parsePackage(source); // closes the source
  const ms = performance.now() - started;
  return { ms, id: `${parsed.bundleId} ${parsed.releaseVersion} (${parsed.buildVersion})`, stats: { ...source.stats } };
}

/**
 * The measuring half, run in a fresh process so its peak RSS is the parser's and not what
 * building and uploading 1 GiB left behind. Runs alternate small/big so load drift hits both.
 */
async function child([bucket, smallKey, bigKey]) {
  const storage = new ObjectStorage({ ...s3Settings(), bucket });
  const results = { small: { times: [] }, big: { times: [] } };
  const rssBefore = process.memoryUsage.rss();
  await parseFromS3(storage, smallKey); // warm-up (JIT, connection pool)
  await parseFromS3(storage, bigKey);
  const { peak } = await withPeakRss(async () => {
    for (let run = 0; run < RUNS; run++) {
      for (const [name, key] of [['small', smallKey], ['big', bigKey]]) {
        const { ms, id, stats } = await parseFromS3(storage, key);
        results[name].times.push(ms);
        results[name].id = id;
        results[name].stats = stats;
      }
    }
  });
  process.stdout.write(JSON.stringify({ ...results, rssBefore, peakSampled: peak, maxRss: process.resourceUsage().maxRSS * 1024 }));
}

const runChild = (args) => runChildOf(fileURLToPath(import.meta.url), args);

async function main() {
  try {
    execFileSync('zip', ['-v'], { stdio: 'ignore' });
  } catch {
    throw new Error('zip(1) is needed to build the large apk (apt-get install zip)');
  }
  // Servers of its own only when none is configured: the child reads S3_* from the environment.
  const infra = process.env.S3_ENDPOINT ? undefined : await benchInfrastructure(ROOT);
  const s3 = s3Settings();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hangar-parse-bench-'));
  const bucket = `hangar-bench-${randomBytes(4).toString('hex')}`;
  const storage = new ObjectStorage({ ...s3, bucket, partSize: 16 * MiB, partConcurrency: 4 });
  const keys = [];
  try {
    if (!(await storage.ping())) {
      throw new Error(`no S3 server at ${s3.endpoint} (check S3_ENDPOINT / S3_ACCESS_KEY / S3_SECRET_KEY)`);
    }
    await storage.ensureBucket();

    let t = performance.now();
    const bigPath = await buildBigApk(dir);
    const bigSize = (await fs.stat(bigPath)).size;
    const smallSize = (await fs.stat(FIXTURE)).size;
    console.log(`built ${path.basename(bigPath)}: ${fmtBytes(bigSize)} (android.apk + ${FILLER_MIB} MiB stored filler) in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    t = performance.now();
    const smallKey = `bench/small-${randomBytes(4).toString('hex')}.apk`;
    const bigKey = `bench/big-${randomBytes(4).toString('hex')}.apk`;
    keys.push(smallKey, bigKey);
    await storage.putStream(smallKey, createReadStream(FIXTURE));
    await storage.putStream(bigKey, createReadStream(bigPath));
    console.log(`uploaded both to ${s3.endpoint}/${bucket} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    await fs.rm(bigPath); // parsing reads from S3 only

    const measured = runChild([bucket, smallKey, bigKey]);
    const small = { label: 'android.apk', size: smallSize, ...measured.small, median: median(measured.small.times) };
    const big = { label: 'big.apk', size: bigSize, ...measured.big, median: median(measured.big.times) };
    if (small.id !== big.id) throw new Error(`the two parses disagree: ${small.id} vs ${big.id}`);

    console.log(`\nparse from S3 via openRangeSource, ${RUNS} runs each (alternating, after one warm-up each), node ${process.version}`);
    const rows = [small, big].map((r) => ({
      package: r.label,
      size: fmtBytes(r.size),
      'median ms': r.median.toFixed(1),
      'min..max ms': `${Math.min(...r.times).toFixed(1)}..${Math.max(...r.times).toFixed(1)}`,
      'bytes read': fmtBytes(r.stats.bytesRead),
      'bytes fetched': fmtBytes(r.stats.bytesFetched),
      GETs: r.stats.requests,
    }));
    console.table(rows);
    const ratio = big.median / small.median;
    console.log(`parsed: ${big.id}`);
    console.log(`ratio big/small median parse time: ${ratio.toFixed(2)}x (target <= 2x: ${ratio <= 2 ? 'PASS' : 'FAIL'})`);
    console.log(`size ratio: ${(big.size / small.size).toFixed(0)}x; fetched ${((big.stats.bytesFetched / big.size) * 100).toFixed(3)}% of the big object`);
    console.log(
      `peak RSS of the parsing process: ${fmtBytes(measured.maxRss)} (RSS after loading the libs: ${fmtBytes(measured.rssBefore)}, ` +
        `peak sampled while parsing: ${fmtBytes(measured.peakSampled)})`,
    );

    if (process.env.BENCH_BASELINE === '1') {
      // The old worker: download the whole object to a temp file, then parse the file.
      const file = path.join(dir, 'download.apk');
      const started = performance.now();
      await pipeline(await storage.getStream(bigKey), createWriteStream(file));
      await parsePackage(file);
      console.log(`baseline (download whole object, then parse): ${(performance.now() - started).toFixed(0)} ms for big.apk`);
      await fs.rm(file);
    }
    console.log(`peak RSS of the driver process (building, uploading${process.env.BENCH_BASELINE === '1' ? ', baseline' : ''}): ${fmtBytes(process.resourceUsage().maxRSS * 1024)}`);
  } finally {
    for (const key of keys) await storage.delete(key).catch(() => undefined);
    await storage.client.removeBucket(bucket).catch(() => undefined);
    await fs.rm(dir, { recursive: true, force: true });
    await infra?.stop();
  }
}

mainOrChild(main, child);
