#!/usr/bin/env node
// A large Linux debug archive read the way the debug-files service reads it now — by range in the
// parsing pool, hashed in one GET beside, its ELF member streamed from the archive straight to
// storage (libs/parse-jobs parseDebugFileObject) — against the way it read it before: the whole
// object fetched to a temporary file while hashing, the member extracted to another file, then
// uploaded from there. Same archive, same S3, same parsers; each way in a fresh process of its own
// so its peak RSS is its own (both load the same libraries first); turns alternate so load drift
// hits both.
//
//   npm run build && node bench/debug-file-parse.bench.mjs
//
// Env: S3_ENDPOINT / S3_ACCESS_KEY / S3_SECRET_KEY (default: the servers `npm run up` would use —
// running already, else started here under .hangar/bench and stopped at the end), BENCH_RUNS
// (default 3 per way), BENCH_FILLER_MIB (default 512: a stored section of random bytes in the ELF
// file; under DEBUG_FILE_MAX_INFLATED_BYTES). Needs gcc, objcopy and zip. Temp files and the
// bucket are removed at the end.
import { ROOT, built, mainOrChild, median, runChild as runChildOf, s3Settings } from './lib/child-process-runs.mjs';
import { benchInfrastructure } from './lib/bench-infrastructure.mjs';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';

const MiB = 1024 * 1024;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const FILLER_MIB = Number(process.env.BENCH_FILLER_MIB ?? 512);

const fmtMiB = (n) => `${(n / MiB).toFixed(1)} MiB`;

/** A zip (stored, as a build's symbols of random bytes would barely compress) of one ELF binary padded to FILLER_MIB. */
async function buildArchive(dir) {
  const binary = path.join(dir, 'app');
  execFileSync('gcc', ['-g', '-Wl,--build-id', '-o', binary, '-x', 'c', '-'], { input: 'int main(void) { return 0; }\n' });
  const filler = path.join(dir, 'filler.bin');
  const handle = await fs.open(filler, 'w');
  for (let written = 0; written < FILLER_MIB * MiB; written += 8 * MiB) await handle.write(randomBytes(8 * MiB));
  await handle.close();
  execFileSync('objcopy', ['--add-section', `.padding=${filler}`, binary, path.join(dir, 'app.debug')]);
  await fs.rm(filler);
  execFileSync('zip', ['-0', '-q', 'symbols.zip', 'app.debug'], { cwd: dir });
  await fs.rm(path.join(dir, 'app.debug'));
  return path.join(dir, 'symbols.zip');
}

/** Now: parseDebugFileObject, as the pool's worker runs it. */
async function byRange(storage, objectKey) {
  const { parseDebugFileObject } = loadLibs();
  const reply = await parseDebugFileObject(storage, { objectKey, limits: {} });
  if (!reply.ok) throw new Error(`by range: ${reply.message}`);
  return { checksum: reply.checksum, uuid: reply.parsed.entries[0].uuid, memberKeys: reply.memberKeys.filter(Boolean) };
}

/** Before: the debug-files service's reader up to e596394, on the same parsers (members into a folder). */
async function viaTempFolder(storage, objectKey) {
  const { parseDebugFile, memberFolder } = loadLibs();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hangar-debug-bench-'));
  try {
    const file = path.join(dir, 'archive.zip');
    const hash = createHash('sha256');
    const tap = new Transform({ transform: (chunk, _e, done) => (hash.update(chunk), done(null, chunk)) });
    await pipeline(await storage.getStream(objectKey), tap, createWriteStream(file));
    await fs.mkdir(path.join(dir, 'members'));
    const members = memberFolder(path.join(dir, 'members'));
    const parsed = await parseDebugFile(file, { members });
    const memberKeys = [];
    for (const [index, entry] of parsed.entries.entries()) {
      if (!entry.stored) continue;
      const key = `${objectKey}.member-${index}`;
      await storage.putStream(key, createReadStream(members.pathOf(index)));
      memberKeys.push(key);
    }
    return { checksum: hash.digest('hex'), uuid: parsed.entries[0].uuid, memberKeys };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Both ways' code, loaded before anything is measured: the pool's lib brings telemetry and metrics along, which a parse does not use. */
const loadLibs = () => ({ ...built('libs/parsers'), ...built('libs/parse-jobs') });

const WAYS = { 'by range (now)': byRange, 'via temp folder (before)': viaTempFolder };

/** One way, once, in this fresh process: wall time, CPU, peak RSS, bytes written to local disk. */
async function child([way, bucket, objectKey]) {
  const { ObjectStorage } = built('libs/storage');
  const storage = new ObjectStorage({ ...s3Settings(), bucket });
  loadLibs();
  const loaded = process.memoryUsage.rss();
  const written = () => Number(/write_bytes: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? NaN);
  const cpu = process.cpuUsage();
  const disk = written();
  const started = performance.now();
  const result = await WAYS[way](storage, objectKey);
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  for (const key of result.memberKeys) await storage.delete(key);
  process.stdout.write(JSON.stringify({ ms, cpuMs: (used.user + used.system) / 1000, maxRss: process.resourceUsage().maxRSS * 1024, loaded, diskWritten: written() - disk, checksum: result.checksum, uuid: result.uuid }));
}

const runChild = (args) => runChildOf(fileURLToPath(import.meta.url), args);

async function main() {
  const infra = process.env.S3_ENDPOINT ? undefined : await benchInfrastructure(ROOT);
  const { ObjectStorage } = built('libs/storage');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hangar-debug-bench-'));
  const bucket = `hangar-bench-${randomBytes(4).toString('hex')}`;
  const storage = new ObjectStorage({ ...s3Settings(), bucket });
  const objectKey = `debug-files/bench-${randomBytes(4).toString('hex')}`;
  try {
    await storage.ensureBucket();
    const archive = await buildArchive(dir);
    const size = (await fs.stat(archive)).size;
    await storage.putStream(objectKey, createReadStream(archive));
    await fs.rm(archive);
    console.log(`symbols.zip: ${fmtMiB(size)} (one stored ELF .debug file, ${FILLER_MIB} MiB of it a random-bytes section), in ${s3Settings().endpoint}/${bucket}`);
    console.log(`node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);

    const results = Object.fromEntries(Object.keys(WAYS).map((way) => [way, []]));
    for (let run = 0; run < RUNS; run++) for (const way of Object.keys(WAYS)) results[way].push(runChild([way, bucket, objectKey]));
    const answers = new Set(Object.values(results).flat().map((r) => `${r.checksum} ${r.uuid}`));
    if (answers.size !== 1) throw new Error(`the ways disagree: ${[...answers].join(' | ')}`);

    console.table(
      Object.entries(results).map(([way, runs]) => ({
        way,
        'median s': (median(runs.map((r) => r.ms)) / 1000).toFixed(2),
        'min..max s': `${(Math.min(...runs.map((r) => r.ms)) / 1000).toFixed(2)}..${(Math.max(...runs.map((r) => r.ms)) / 1000).toFixed(2)}`,
        'CPU s (median)': (median(runs.map((r) => r.cpuMs)) / 1000).toFixed(2),
        'peak RSS (max)': fmtMiB(Math.max(...runs.map((r) => r.maxRss))),
        'above loaded libs (max)': fmtMiB(Math.max(...runs.map((r) => r.maxRss - r.loaded))),
        'local disk written': fmtMiB(median(runs.map((r) => r.diskWritten))),
      })),
    );
    const [now, before] = Object.values(results).map((runs) => median(runs.map((r) => r.ms)));
    console.log(`by range / via temp folder, median time: ${(now / before).toFixed(2)}x; same checksum and build-id both ways (${[...answers][0]})`);
  } finally {
    await storage.delete(objectKey).catch(() => undefined);
    await storage.client.removeBucket(bucket).catch(() => undefined);
    await fs.rm(dir, { recursive: true, force: true });
    await infra?.stop();
  }
}

mainOrChild(main, child);
