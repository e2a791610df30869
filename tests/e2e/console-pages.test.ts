import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ApiClient, RunningHangar, TestUser, apiClient, createUserWithToken, fixturesDir, sharedHangar } from '@hangar/testing';
import { launchChromium, lookAt, signIn } from './console/console-browser';
import { atEachSize, clipboardText, fullyOnScreen } from './console/sizes';

const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_ON_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

/**
 * iphone.ipa with its profile listing its first developer certificate twice, as profiles of
 * teams with renewed certificates do: the build's signing then has 14 certificates, 13 distinct.
 */
function ipaWithRepeatedCertificate(): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-repeated-cert-'));
  try {
    const ipa = path.join(dir, 'iphone.ipa');
    fs.copyFileSync(path.join(fixturesDir(), 'apps', 'iphone.ipa'), ipa);
    fs.chmodSync(ipa, 0o644);
    const member = 'Payload/AppInfoDemo.app/embedded.mobileprovision';
    const profile = execFileSync('unzip', ['-p', ipa, member]).toString('latin1');
    const list = profile.indexOf('<key>DeveloperCertificates</key>');
    const first = /<data>[^<]+<\/data>/.exec(profile.slice(list))!;
    const at = list + first.index + first[0].length;
    fs.mkdirSync(path.join(dir, path.dirname(member)), { recursive: true });
    fs.writeFileSync(path.join(dir, member), Buffer.from(`${profile.slice(0, at)}\n\t\t${first[0]}${profile.slice(at)}`, 'latin1'));
    execFileSync('zip', ['-q', ipa, member], { cwd: dir });
    return fs.readFileSync(ipa);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The console's pages as a developer uses them, in Chromium at phone and laptop sizes, against
 * Hangar started as the README does and filled with the real fixture packages: the upload page
 * chooses no channel for them, a channel's builds fit a phone, a build's page warns of an expired
 * profile and lists each certificate once, and the account page names sessions and makes
 * limited tokens. Each page is checked by axe in light and dark (lookAt).
 */
describe('the console pages at phone and laptop sizes', () => {
  let hangar: RunningHangar;
  let api: ApiClient;
  let browser: Browser;
  let developer: TestUser;
  // A long name: the upload page's channel list must not cut it off on a phone.
  const android = { name: 'Alpha Field Service Companion for Android', id: 0, channelKey: '', releaseId: 0 };
  const ios = { name: 'Zeta iOS', id: 0, channelKey: '', releaseId: 0 };

  beforeAll(async () => {
    hangar = await sharedHangar();
    api = apiClient(hangar.baseUrl);
    developer = await createUserWithToken(api, hangar.adminToken, 'dev', 'developer');
    const app = await api('POST', '/api/apps', { token: developer.token, json: { name: android.name } });
    android.id = app.body.id;
    const scheme = await api('POST', `/api/apps/${android.id}/schemes`, { token: developer.token, json: { name: 'Beta', new_build_callout: false } });
    const channel = await api('POST', `/api/schemes/${scheme.body.id}/channels`, { token: developer.token, json: { name: 'Android', device_type: 'android' } });
    android.channelKey = channel.body.slug;
    const apk = await api('POST', '/api/apps/upload', {
      token: developer.token,
      form: { channel_key: android.channelKey, changelog: '- Faster start\n- Dark mode', branch: 'release/2.0', git_commit: 'deadbeefcafe1234' },
      files: { file: { data: fs.readFileSync(path.join(fixturesDir(), 'apps', 'android.apk')), fileName: 'android.apk' } },
    });
    expect(apk.status).toBe(201);
    android.releaseId = apk.body.id;
    // No channel key: the upload makes the app, an Adhoc scheme and an iOS channel.
    const ipa = await api('POST', '/api/apps/upload', {
      token: developer.token,
      form: { name: ios.name, changelog: '- Signed with an old profile' },
      files: { file: { data: ipaWithRepeatedCertificate(), fileName: 'iphone.ipa' } },
    });
    expect(ipa.status).toBe(201);
    Object.assign(ios, { id: ipa.body.app.id, channelKey: ipa.body.channel.slug, releaseId: ipa.body.id });
    browser = await launchChromium();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await hangar?.stop();
  });

  const contexts: BrowserContext[] = [];
  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    contexts.push(context);
    const page = await context.newPage();
    await signIn(page, hangar.baseUrl, developer.email, 'long-enough-pw');
    return page;
  }
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });

  it('when the upload page is opened from the menu, then no channel is chosen and no file can be picked until one is; opened from an app, that app\'s channel is chosen', async () => {
    const page = await newPage();
    await page.getByRole('link', { name: 'Upload', exact: true }).click();
    const select = page.getByLabel('Channel');
    // What the select shows fits its box: measured with the select's own font.
    const textFits = () =>
      select.evaluate((el: any) => {
        const browser = globalThis as any;
        const text = el.options[el.selectedIndex].text;
        const style = browser.getComputedStyle(el);
        const context = browser.document.createElement('canvas').getContext('2d');
        context.font = style.font;
        const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20; // the arrow
        return context.measureText(text).width <= room;
      });
    await atEachSize(page, async ({ width }) => {
      await page.reload();
      await select.waitFor();
      // The longest app name's channel, chosen, is not cut off.
      await select.selectOption(android.channelKey);
      expect(await textFits()).toBe(true);
      await page.reload();
      await select.waitFor();
      expect(await textFits()).toBe(true);
      expect(await select.inputValue()).toBe('');
      expect(await page.locator('#package-file').isDisabled()).toBe(true);
      expect(await fullyOnScreen(select, width)).toBe(true);
      await select.selectOption(ios.channelKey);
      expect(await page.locator('#package-file').isDisabled()).toBe(false);
      await page.getByText(`Goes to ${ios.name}`).waitFor();
      expect(await textFits()).toBe(true);
    });
    await lookAt(page, 'pages-upload');

    await page.goto(`${hangar.baseUrl}/apps/${ios.id}`);
    await page.getByRole('link', { name: 'Upload a build' }).click();
    await page.getByText(`Goes to ${ios.name}`).waitFor();
    expect(await select.inputValue()).toBe(ios.channelKey);
  });

  it("when a channel's builds are listed, then on a phone every column shows on the screen, with the platform and how long ago, the exact time on hover", async () => {
    const page = await newPage();
    await page.goto(`${hangar.baseUrl}/apps/${android.id}`);
    const release = (await api('GET', `/api/releases/${android.releaseId}`, { token: developer.token })).body;
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: '1.2.3 (5)' }) });
    await atEachSize(page, async ({ width }) => {
      await row.waitFor();
      // The last column, Uploaded, is on the screen (it was cut off at a phone's edge, with no cue).
      expect(await fullyOnScreen(row.getByRole('cell').last(), width)).toBe(true);
      const uploaded = row.locator('time');
      expect(await uploaded.getAttribute('datetime')).toBe(release.created_at);
      expect(await uploaded.getAttribute('title')).toBeTruthy();
      expect(await uploaded.innerText()).toMatch(/ago$|^just now$/);
      expect(await fullyOnScreen(uploaded, width)).toBe(true);
      expect(await fullyOnScreen(row.getByText('deadbeef'), width)).toBe(true);
      await row.getByText('Android', { exact: true }).waitFor();
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
    });
    await lookAt(page, 'pages-app');

    await page.goto(`${hangar.baseUrl}/apps`);
    await atEachSize(page, async ({ width }) => {
      const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: ios.name }) });
      await card.getByText('iOS', { exact: true }).waitFor();
      await card.locator('time').waitFor();
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
    });
    await lookAt(page, 'pages-apps');
  });

  it("when an iOS build signed with an expired profile is opened, then the page warns as the install page does, shows the release notes before the details, and lists each certificate once", async () => {
    const release = (await api('GET', `/api/releases/${ios.releaseId}`, { token: developer.token })).body;
    const distinct = new Set(release.signing.certificates.map((c: { sha256: string }) => c.sha256));
    expect(release.signing.certificates).toHaveLength(14);
    expect(distinct.size).toBe(13);
    const page = await newPage();
    await page.goto(`${hangar.baseUrl}/builds/${ios.releaseId}`);
    await atEachSize(page, async () => {
      await page.getByRole('alert').getByText('The provisioning profile expired on 2017-07-27').waitFor();
      const notes = await page.getByRole('heading', { name: "What's new" }).boundingBox();
      const details = await page.getByRole('heading', { name: 'Details' }).boundingBox();
      expect(notes!.y).toBeLessThan(details!.y);
      await page.getByText('Signed with an old profile', { exact: true }).waitFor();
      const certificates = page.getByRole('group').filter({ has: page.getByText('13 certificates', { exact: true }) });
      await certificates.getByText('13 certificates', { exact: true }).waitFor();
      // Folded by default (13 is a long list): opened, each is listed once.
      if (!(await certificates.evaluate((details: any) => details.open))) await certificates.getByText('13 certificates', { exact: true }).click();
      expect(await certificates.getByRole('listitem').count()).toBe(13);
      await page.getByRole('heading', { level: 1 }).locator('xpath=..').getByText('iOS', { exact: true }).waitFor();
    });
    await lookAt(page, 'pages-build-ios');
  });

  it('when a developer signed in on other devices opens their account, then each session is named by browser and system, this device marked, and "Sign out everywhere else" ends the others only', async () => {
    const others = await Promise.all(
      [FIREFOX_ON_WINDOWS, SAFARI_ON_IPHONE].map(async (ua) => {
        const res = await api('POST', '/api/sessions', { json: { email: developer.email, password: 'long-enough-pw' }, headers: { 'user-agent': ua } });
        return res.headers.getSetCookie().find((c) => c.startsWith('hangar_session='))!.split(';')[0]!;
      }),
    );
    const page = await newPage();
    await page.goto(`${hangar.baseUrl}/account`);
    const sessions = page.getByRole('region', { name: 'Where you are signed in' });
    await atEachSize(page, async () => {
      const here = sessions.getByRole('listitem').filter({ hasText: 'this device' });
      await expect(here.innerText()).resolves.toMatch(/Chrome \d+ on Linux/);
      // As the issue asked: "Chrome 131 on Linux · 127.0.0.1 · signed in 2 hours ago · this device".
      await expect(here.innerText()).resolves.toMatch(/127\.0\.0\.1 · signed in (just now|\d+ seconds? ago|\d+ minutes? ago)/);
      await sessions.getByText('Firefox 133 on Windows').waitFor();
      await sessions.getByText('Safari 18 on iOS').waitFor();
      expect(await sessions.innerText()).not.toContain('Mozilla/5.0');
    });
    await lookAt(page, 'pages-account-sessions');
    // The two above, and those of this file's earlier tests.
    const elsewhere = (await sessions.getByRole('listitem').count()) - 1;
    expect(elsewhere).toBeGreaterThanOrEqual(2);
    await sessions.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await sessions.getByText(`Signed out of ${elsewhere} other sessions`).waitFor();
    for (const cookie of others) expect((await api('GET', '/api/sessions/current', { headers: { cookie } })).status).toBe(401);
    await page.reload();
    await sessions.getByText('this device').waitFor();
    expect(await sessions.getByRole('listitem').count()).toBe(1);
  });

  it('when DELETE /api/sessions/others is called, then a token is 401, a cookie without its CSRF token 403, and with it every other session ends and this one stays', async () => {
    const signInAs = async (ua: string) => {
      const res = await api('POST', '/api/sessions', { json: { email: developer.email, password: 'long-enough-pw' }, headers: { 'user-agent': ua } });
      return { cookie: res.headers.getSetCookie().find((c) => c.startsWith('hangar_session='))!.split(';')[0]!, csrf: res.body.csrf_token as string };
    };
    const [here, a, b] = [await signInAs('here'), await signInAs('a'), await signInAs('b')];
    expect((await api('DELETE', '/api/sessions/others', { token: developer.token })).status).toBe(401);
    expect((await api('DELETE', '/api/sessions/others', { headers: { cookie: here.cookie } })).status).toBe(403);
    const ended = await api('DELETE', '/api/sessions/others', { headers: { cookie: here.cookie, 'x-csrf-token': here.csrf } });
    expect(ended.status).toBe(200);
    expect(ended.body.ended).toBeGreaterThanOrEqual(2);
    for (const gone of [a, b]) expect((await api('GET', '/api/sessions/current', { headers: { cookie: gone.cookie } })).status).toBe(401);
    expect((await api('GET', '/api/sessions/current', { headers: { cookie: here.cookie } })).status).toBe(200);
    const left = await api('GET', '/api/sessions', { headers: { cookie: here.cookie } });
    expect(left.body).toEqual([expect.objectContaining({ current: true })]);
  });

  it('when a developer makes a CI token limited to upload on one app for 30 days, then the token has those limits and its copy button copies it', async () => {
    const page = await newPage();
    await page.goto(`${hangar.baseUrl}/account`);
    const tokens = page.getByRole('region', { name: 'Personal access tokens' });
    await atEachSize(page, async ({ width }) => {
      await tokens.getByLabel(/^upload/).waitFor();
      await tokens.getByLabel(android.name).waitFor();
      expect(await fullyOnScreen(tokens.getByLabel('Expires'), width)).toBe(true);
    });
    await tokens.getByLabel('New token name').fill('ci');
    await tokens.getByLabel(/^upload/).check();
    await tokens.getByLabel(android.name).check();
    await tokens.getByLabel('Expires').selectOption({ label: 'In 30 days' });
    await tokens.getByRole('button', { name: 'Create token' }).click();
    const secret = (await tokens.locator('.secret code').innerText()).trim();
    await lookAt(page, 'pages-account-token');
    await tokens.getByRole('button', { name: 'Copy token' }).click();
    expect(await clipboardText(page)).toBe(secret);

    const listed = (await api('GET', '/api/users/me/tokens', { token: developer.token })).body.find((t: { name: string }) => t.name === 'ci');
    expect(listed).toMatchObject({ scopes: ['upload'], app_ids: [android.id] });
    const days = (Date.parse(listed.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
    // An upload-only token reads no account.
    expect((await api('GET', '/api/users/me', { token: secret })).status).toBe(403);
    await tokens.getByText('upload · Alpha Field Service Companion for Android').waitFor();
  });
});
