#!/usr/bin/env node
// The console: the apps page with 100 apps, from navigation until every app is
// listed and the filter answers a keystroke ("interactive"), in Chromium against Hangar
// started as the README does; and the initial JavaScript the page loads, gzipped.
// Targets: interactive within 1 s of navigation; initial JS <= 150 KB gzipped.
//   BENCH_APPS=100 BENCH_BUILDS=12 BENCH_RUNS=5 node bench/console.bench.mjs
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
if (process.env.BENCH_SKIP_BUILD !== '1') execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
const { resolveInfrastructure } = require(path.join(root, 'libs/infra/dist'));
const { startHangar } = require(path.join(root, 'libs/testing/dist'));
const { chromium } = require(require.resolve('playwright-core', { paths: [path.join(root, 'tests')] }));

const apps = Number(process.env.BENCH_APPS ?? 100);
const builds = Number(process.env.BENCH_BUILDS ?? 12);
const runs = Number(process.env.BENCH_RUNS ?? 5);

// Initial JavaScript: the module scripts and preloads index.html names, as the browser fetches them.
const dist = path.join(root, 'clients', 'console', 'dist');
const index = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const scripts = [...index.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
const jsGzip = scripts.reduce((sum, s) => sum + zlib.gzipSync(fs.readFileSync(path.join(dist, s)), { level: 9 }).length, 0);
const jsRaw = scripts.reduce((sum, s) => sum + fs.statSync(path.join(dist, s)).size, 0);

const infra = await resolveInfrastructure({ dataDir: path.join(root, '.hangar', 'bench') });
Object.assign(process.env, { MONGO_URL: infra.mongoUrl, NATS_URL: infra.natsUrl, S3_ENDPOINT: infra.s3.endpoint, S3_ACCESS_KEY: infra.s3.accessKey, S3_SECRET_KEY: infra.s3.secretKey, HANGAR_SKIP_BUILD: '1' });
console.log('infrastructure ready; starting Hangar');
const hangar = await startHangar({ S3_BUCKET: `bench-console-${Date.now()}`, LOG_LEVEL: 'warn' });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const call = async (method, url, body) => {
    const res = await fetch(`${hangar.baseUrl}${url}`, { method, headers: { authorization: `Bearer ${hangar.adminToken}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  console.log(`Hangar at ${hangar.baseUrl}; creating ${apps} apps`);
  const apk = fs.readFileSync(path.join(root, 'tests', 'fixtures', 'apps', 'android.apk'));
  for (let i = 0; i < apps; i += 1) {
    const app = await call('POST', '/api/apps', { name: `Bench app ${String(i).padStart(3, '0')}` });
    const scheme = await call('POST', `/api/apps/${app.id}/schemes`, { name: 'Beta', new_build_callout: false });
    const channel = await call('POST', `/api/schemes/${scheme.id}/channels`, { name: 'Android', device_type: 'android' });
    // Builds in the newest apps: the first screen, whose newest builds the page fetches.
    if (i >= apps - builds) {
      const form = new FormData();
      form.append('channel_key', channel.slug);
      form.append('file', new Blob([apk]), 'android.apk');
      const res = await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', headers: { authorization: `Bearer ${hangar.adminToken}` }, body: form });
      if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
    }
  }

  const signIn = await fetch(`${hangar.baseUrl}/api/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@e2e.test', password: hangar.adminPassword }) });
  const cookie = signIn.headers.getSetCookie()[0].split(';')[0].split('=');
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies([{ name: cookie[0], value: cookie[1], url: hangar.baseUrl }]);
  const page = await context.newPage();
  // A failed call is named with the server's answer, so a refused navigation says why.
  page.on('response', async (res) => {
    if (res.status() >= 500) console.log(`  ${res.status()} ${res.request().method()} ${res.url()}: ${await res.text().catch(() => '')}`);
  });
  const timings = [];
  let refused = 0;
  for (let attempt = 0; timings.length < runs && attempt < runs * 4; attempt += 1) {
    const started = Date.now();
    await page.goto(`${hangar.baseUrl}/apps`, { waitUntil: 'commit' });
    const outcome = await page.waitForFunction((n) => (document.querySelectorAll('.cards > li').length === n ? 'listed' : document.querySelector('[role=alert]') ? 'refused' : false), apps, { polling: 'raf', timeout: 30_000 });
    // GET /api/apps?per_page=100 answers 500 now and then at 100 apps (pre-existing; the page shows
    // "Internal error" and Try again): such a navigation is counted, not timed.
    if ((await outcome.jsonValue()) === 'refused') {
      refused += 1;
      continue;
    }
    await page.getByLabel('Filter apps').fill(`Bench app ${String(Math.floor(apps / 2)).padStart(3, '0')}`);
    await page.waitForFunction(() => document.querySelectorAll('.cards > li').length === 1, undefined, { polling: 'raf' });
    const ms = Date.now() - started;
    if (attempt > 0) timings.push(ms); // the first load fills the browser's and the servers' caches
  }
  const sorted = [...timings].sort((a, b) => a - b);
  console.log(`console bench: ${apps} apps (${builds} with a build), ${runs} warm navigations after one cold`);
  console.log(`  interactive (every app listed, the filter answered): median ${sorted[Math.floor(sorted.length / 2)]} ms, max ${sorted.at(-1)} ms — target 1000 ms`);
  console.log(`  initial JS: ${scripts.length} file(s), ${(jsRaw / 1024).toFixed(1)} KB, ${(jsGzip / 1024).toFixed(1)} KB gzipped — target 150 KB gzipped`);
  console.log(`  runs: ${timings.join(', ')} ms; navigations refused by a 500 from GET /api/apps: ${refused}`);
} finally {
  await browser.close();
  await hangar.stop();
  // The servers it started itself (FerretDB, PostgreSQL, S3): left running, they kept this
  // process alive after its figures (a run ended only by a timeout).
  await infra.stop();
}
