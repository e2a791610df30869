#!/usr/bin/env node
// The tester view of a channel with 1,000 builds (#36): a tester's builds page (`/tester`), their
// devices page (`/tester/devices`, every build checked against three registered devices) and the
// tester API (`GET /api/tester`), against the console's budget: a page interactive within 1 s of
// navigation (bench/console.bench.mjs). The pages are rendered by the gateway without script, so
// "interactive" is the load event with the builds listed.
//   BENCH_BUILDS=1000 BENCH_RUNS=5 node bench/tester-view.bench.mjs
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
if (process.env.BENCH_SKIP_BUILD !== '1') execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
const { resolveInfrastructure } = require(path.join(root, 'libs/infra/dist'));
const { startHangar, makeTestDevice, signedDeviceAnswer } = require(path.join(root, 'libs/testing/dist'));
const { chromium } = require(require.resolve('playwright-core', { paths: [path.join(root, 'tests')] }));

const BUILDS = Number(process.env.BENCH_BUILDS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const UPLOADERS = 4;

const infra = await resolveInfrastructure({ dataDir: path.join(root, '.hangar', 'bench') });
Object.assign(process.env, { MONGO_URL: infra.mongoUrl, NATS_URL: infra.natsUrl, S3_ENDPOINT: infra.s3.endpoint, S3_ACCESS_KEY: infra.s3.accessKey, S3_SECRET_KEY: infra.s3.secretKey, HANGAR_SKIP_BUILD: '1' });
const mailbox = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-bench-mailbox-'));
const hangar = await startHangar({ S3_BUCKET: `bench-tester-view-${Date.now()}`, LOG_LEVEL: 'warn', MAILBOX_DIR: mailbox });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
try {
  const call = async (method, url, body) => {
    const res = await fetch(`${hangar.baseUrl}${url}`, { method, headers: { authorization: `Bearer ${hangar.adminToken}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  // An ad hoc iOS build (its profile lists 100 devices): every build of the channel is checked against the tester's devices.
  const ipa = fs.readFileSync(path.join(root, 'tests', 'fixtures', 'apps', 'iphone.ipa'));
  const upload = async (channelKey) => {
    const form = new FormData();
    if (channelKey) form.append('channel_key', channelKey);
    form.append('file', new Blob([ipa]), 'iphone.ipa');
    const res = await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', headers: { authorization: `Bearer ${hangar.adminToken}` }, body: form });
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const first = await upload();
  const channelKey = first.channel.slug;
  const started = Date.now();
  let next = 1;
  await Promise.all(Array.from({ length: UPLOADERS }, async () => {
    while (next < BUILDS) {
      next += 1;
      await upload(channelKey);
    }
  }));
  console.log(`${BUILDS} builds uploaded in ${((Date.now() - started) / 1000).toFixed(0)} s`);

  const app = await call('GET', `/api/apps/${first.app.id}`);
  const channelId = app.schemes[0].channels[0].id;
  const group = await call('POST', `/api/apps/${first.app.id}/tester_groups`, { name: 'Bench', channel_ids: [channelId] });
  await call('POST', `/api/apps/${first.app.id}/tester_groups/${group.id}/testers`, { emails: 'viewer@bench.example' });
  // The invitation's sign-in link, from the mailbox folder the webhooks service writes.
  let link;
  for (let i = 0; i < 300 && !link; i += 1) {
    for (const file of fs.readdirSync(mailbox)) {
      const text = fs.readFileSync(path.join(mailbox, file), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      link = /https?:\/\/\S+\/tester\/sign-in\?token=[A-Za-z0-9]+/.exec(text)?.[0];
    }
    if (!link) await sleep(100);
  }
  const signedIn = await fetch(link, { redirect: 'manual' });
  const [name, value] = signedIn.headers.get('set-cookie').split(';')[0].split('=');
  const cookie = `${name}=${value}`;
  // Three devices: one the profile lists, two it does not.
  const profileDevices = first.signing.profile.devices;
  const profile = await (await fetch(`${hangar.baseUrl}/udid/profile.mobileconfig`, { headers: { cookie } })).text();
  const url = /<key>URL<\/key>\s*<string>([^<]+)<\/string>/.exec(profile)[1];
  const phone = makeTestDevice('Bench iPhone');
  for (const udid of [profileDevices[0], '00008030-0000000000000001', '00008030-0000000000000002']) {
    const res = await fetch(url, { method: 'POST', body: signedDeviceAnswer(phone, { UDID: udid, PRODUCT: 'iPhone15,2', VERSION: '21A329' }), headers: { 'content-type': 'application/pkcs7-signature' }, redirect: 'manual' });
    if (res.status !== 301) throw new Error(`device registration answered ${res.status}`);
  }

  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.addCookies([{ name, value, url: hangar.baseUrl }]);
  const page = await context.newPage();
  const navigate = async (pathname, selector) => {
    const times = [];
    for (let i = 0; i <= RUNS; i += 1) {
      const t0 = Date.now();
      await page.goto(`${hangar.baseUrl}${pathname}`, { waitUntil: 'load' });
      await page.waitForSelector(selector);
      if (i > 0) times.push(Date.now() - t0); // the first fills the caches
    }
    return times;
  };
  const home = await navigate('/tester', 'ol.releases li');
  const devices = await navigate('/tester/devices', 'ul.device-fits li');
  const apiTimes = [];
  for (let i = 0; i <= 20; i += 1) {
    const t0 = process.hrtime.bigint();
    const res = await fetch(`${hangar.baseUrl}/api/tester`, { headers: { cookie } });
    const view = await res.json();
    if (i === 0 && view.channels[0].builds.length === 0) throw new Error('no builds in the tester view');
    if (i > 0) apiTimes.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(`\nTester view: one channel with ${BUILDS} builds (ad hoc iOS, 100 devices each profile), 3 registered devices; ${os.cpus().length} cores, load ${load}`);
  console.log(`  /tester (builds listed, load event):          median ${percentile(home, 0.5)} ms, max ${Math.max(...home)} ms — budget 1000 ms  (${home.join(', ')})`);
  console.log(`  /tester/devices (every listed build checked): median ${percentile(devices, 0.5)} ms, max ${Math.max(...devices)} ms — budget 1000 ms  (${devices.join(', ')})`);
  console.log(`  GET /api/tester:                              p50 ${percentile(apiTimes, 0.5).toFixed(1)} ms, p95 ${percentile(apiTimes, 0.95).toFixed(1)} ms`);
} finally {
  await browser.close();
  await hangar.stop();
  await infra.stop();
  fs.rmSync(mailbox, { recursive: true, force: true });
}
