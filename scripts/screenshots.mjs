#!/usr/bin/env node
// `npm run screenshots`: every page of the console at a phone's size (390×844) and a laptop's
// (1440×900), written to docs/screenshots/<page>-<phone|desktop>.png. It builds (unless
// HANGAR_SKIP_BUILD=1), starts a Hangar of its own as the end-to-end tests do (libs/testing's
// startHangar, on servers resolved under .hangar/screenshots), fills it with the real fixture
// packages of tests/fixtures over the HTTP API, and looks at each page in Chromium
// (CHROMIUM_PATH, else /usr/bin/chromium). The first two are taken before anything is uploaded:
// what a new Hangar shows.
import { benchInfrastructure } from '../bench/lib/bench-infrastructure.mjs';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const OUT = path.join(root, 'docs', 'screenshots');
const SIZES = [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1440, height: 900 }],
];

if (process.env.HANGAR_SKIP_BUILD !== '1') execFileSync('npm', ['run', '--silent', 'build:unchecked'], { cwd: root, stdio: 'inherit' });
const { startHangar, fixturesDir, apiClient } = require(path.join(root, 'libs', 'testing', 'dist', 'index.js'));
const { chromium } = require('playwright-core');

// The servers as the benches resolve them (bench/lib), their data under .hangar/screenshots.
const infra = await benchInfrastructure(root, 'screenshots', (line) => process.stderr.write(`${line}\n`));
const hangar = await startHangar();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
try {
  fs.mkdirSync(OUT, { recursive: true });
  for (const file of fs.readdirSync(OUT)) if (file.endsWith('.png')) fs.rmSync(path.join(OUT, file));
  const api = apiClient(hangar.baseUrl);
  const admin = { token: hangar.adminToken };
  const fixture = (name) => fs.readFileSync(path.join(fixturesDir(), ...name.split('/')));
  const must = async (answer, what) => {
    const res = await answer;
    if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
    return res.body;
  };

  const page = await (await browser.newContext({ viewport: SIZES[1][1] })).newPage();
  const shoot = async (name, ready) => {
    for (const [label, viewport] of SIZES) {
      await page.setViewportSize(viewport);
      if (ready) await ready();
      // Icons and QR codes are requests of their own: shot once they have drawn (lazy ones below the fold may not).
      // (Functions, not strings: the console's CSP refuses eval.)
      await page.waitForFunction(() => [...document.images].every((i) => i.complete), undefined, { timeout: 10_000 }).catch(() => undefined);
      await page.screenshot({ path: path.join(OUT, `${name}-${label}.png`), fullPage: true });
    }
    process.stdout.write(`${name}\n`);
  };
  /** The sign-in link of the newest e-mail to `to` in the mailbox `npm run up` writes (quoted-printable undone). */
  const mailedLink = async (to) => {
    const dir = path.join(hangar.dataDir, 'mailbox');
    for (let i = 0; i < 200; i++) {
      const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.includes(to)).sort() : [];
      const text = files.length ? fs.readFileSync(path.join(dir, files.at(-1)), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=') : '';
      const link = /https?:\/\/\S+\/tester\/sign-in\?token=[A-Za-z0-9]+/.exec(text)?.[0];
      if (link) return link;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no e-mail to ${to} in ${dir}`);
  };
  const visit = async (url, ready) => {
    await page.goto(`${hangar.baseUrl}${url}`);
    await ready();
  };

  await page.goto(`${hangar.baseUrl}/`);
  await shoot('sign-in', () => page.getByRole('heading', { name: 'Sign in to Hangar' }).waitFor());
  await page.getByLabel('Email').fill('admin@e2e.test');
  await page.getByLabel('Password').fill(hangar.adminPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await shoot('apps-empty', () => page.getByRole('heading', { name: /upload your first build/i }).waitFor());

  // A team's apps: an Android app with a few builds of a channel, iOS apps (one signed with a
  // profile long expired), a Wear and a TV app, and a channel no build has reached yet.
  const app = await must(api('POST', '/api/apps', { ...admin, json: { name: 'Field Service' } }), 'app');
  const scheme = await must(api('POST', `/api/apps/${app.id}/schemes`, { ...admin, json: { name: 'Beta', new_build_callout: false } }), 'scheme');
  const channel = await must(api('POST', `/api/schemes/${scheme.id}/channels`, { ...admin, json: { name: 'Android', device_type: 'android', git_url: 'https://git.example.com/team/field-service' } }), 'channel');
  const nightly = await must(api('POST', `/api/schemes/${scheme.id}/channels`, { ...admin, json: { name: 'Nightly', device_type: 'android' } }), 'channel');
  let newest;
  for (const [i, branch] of ['main', 'release/2.0', 'release/2.1'].entries()) {
    newest = await must(
      api('POST', '/api/apps/upload', {
        ...admin,
        form: { channel_key: channel.slug, branch, git_commit: `${'4f2a9c1d'.slice(i)}e7b3${i}`, changelog: ['- Faster start', '- Offline job list\n- Fixed a crash on rotation', '- Dark mode\n- Signature capture'][i], ci_url: `https://ci.example.com/jobs/${120 + i}` },
        files: { file: { data: fixture('apps/android.apk'), fileName: 'field-service.apk' } },
      }),
      'apk',
    );
  }
  const ios = await must(api('POST', '/api/apps/upload', { ...admin, form: { name: 'Field Service iOS', changelog: '- Signed with last year\'s profile', branch: 'main' }, files: { file: { data: fixture('apps/iphone.ipa'), fileName: 'iphone.ipa' } } }), 'ipa');
  await must(api('POST', '/api/apps/upload', { ...admin, form: { name: 'Inspector for iPad' }, files: { file: { data: fixture('apps/ipad.ipa'), fileName: 'ipad.ipa' } } }), 'ipad');
  await must(api('POST', '/api/apps/upload', { ...admin, form: { name: 'Field Service Wear' }, files: { file: { data: fixture('apps/wear.apk'), fileName: 'wear.apk' } } }), 'wear');
  await must(api('POST', '/api/apps/upload', { ...admin, form: { name: 'Lobby TV' }, files: { file: { data: fixture('apps/tv.apk'), fileName: 'tv.apk' } } }), 'tv');
  await must(api('POST', '/api/users', { ...admin, form: { username: 'dana', email: 'dana@example.com', password: 'long-enough-pw', role: 'developer' } }), 'user');
  await must(api('POST', '/api/users/me/tokens', { ...admin, form: { name: 'CI upload', scopes: 'upload', app_ids: String(app.id), expires_at: new Date(Date.now() + 90 * 86_400_000).toISOString() } }), 'token');
  for (const ua of ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1']) {
    await must(api('POST', '/api/sessions', { json: { email: 'admin@e2e.test', password: hangar.adminPassword }, headers: { 'user-agent': ua } }), 'session');
  }

  await visit('/apps', () => page.getByRole('link', { name: 'Lobby TV' }).waitFor());
  // Each card loads its channels' newest builds once it is scrolled into view.
  await shoot('apps', async () => {
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
    await page.waitForFunction(() => ![...document.querySelectorAll('.newest-text')].some((e) => e.textContent.includes('…')));
    await page.evaluate('window.scrollTo(0, 0)');
  });
  await visit(`/apps/${app.id}?channel=${channel.slug}`, () => page.getByRole('cell', { name: /release\/2\.1/ }).first().waitFor());
  await shoot('app');
  await visit(`/apps/${app.id}?channel=${nightly.slug}`, () => page.getByRole('heading', { name: /No builds in this channel yet/ }).waitFor());
  await shoot('app-empty-channel');
  await visit(`/builds/${newest.id}`, () => page.getByRole('heading', { name: 'Details' }).waitFor());
  await shoot('build');
  await visit(`/builds/${ios.id}`, () => page.getByRole('alert').waitFor());
  await shoot('build-ios-expired');
  await visit('/upload', () => page.getByLabel('Channel').waitFor());
  await shoot('upload');
  // Testers of the Android channel: one has signed in (through the link the mailbox holds).
  const testers = await must(api('POST', `/api/apps/${app.id}/tester_groups`, { ...admin, json: { name: 'Field testers', channel_ids: [channel.id] } }), 'tester group');
  await must(api('POST', `/api/apps/${app.id}/tester_groups/${testers.id}/testers`, { ...admin, json: { emails: 'ana@example.com\nbo@example.com\ncy@example.com' } }), 'testers');
  const signInLink = await mailedLink('ana@example.com');
  await visit(`/apps/${app.id}/settings`, () => page.getByRole('heading', { name: 'Collaborators' }).waitFor());
  await shoot('app-settings');
  // What the tester sees: their builds, after the e-mail's link.
  const testerPage = await (await browser.newContext({ viewport: SIZES[1][1] })).newPage();
  await testerPage.goto(signInLink);
  await testerPage.getByRole('heading', { name: 'Your builds' }).waitFor();
  for (const [label, viewport] of SIZES) {
    await testerPage.setViewportSize(viewport);
    await testerPage.screenshot({ path: path.join(OUT, `tester-builds-${label}.png`), fullPage: true });
  }
  process.stdout.write('tester-builds\n');
  await visit(`/apps/${app.id}/debug-files`, () => page.getByRole('heading', { name: 'Upload a debug file' }).waitFor());
  await shoot('debug-files');
  await visit('/people', () => page.getByRole('cell', { name: 'dana@example.com' }).waitFor());
  await shoot('people');
  await visit('/account', () => page.getByText('Firefox 133 on Windows').waitFor());
  await shoot('account');
} finally {
  await browser.close();
  await hangar.stop();
  await infra.stop();
}
