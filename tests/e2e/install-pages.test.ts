import fs from 'node:fs';
import path from 'node:path';
import jsQR from 'jsqr';
import plist from 'plist';
import { PNG } from 'pngjs';
import { Browser, chromium } from 'playwright-core';
import { ApiResponse, RunningHangar, apiClient, fixturesDir, sharedHangar, testInfrastructure, fetchChecked, uniqueName, validateResponse } from '@hangar/testing';

/** The little of the DOM these tests read inside the page (the suite compiles without DOM types). */
interface BrowserGlobals {
  document: { documentElement: { scrollWidth: number }; activeElement: { textContent: string | null } | null };
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = path.resolve(__dirname, '..', '..', 'test-output', 'install-pages');

/**
 * What a tester sees, in a real browser (Debian's Chromium driven by
 * playwright-core): the release page on a phone and on a desktop, the
 * password gate, the download, the QR code and the iOS manifest.
 */
describe('install pages', () => {
  let hangar: RunningHangar;
  let api: ReturnType<typeof apiClient>;
  let browser: Browser;
  let android: ApiResponse;
  let ios: ApiResponse;

  async function upload(file: string, fields: Record<string, string> = {}): Promise<ApiResponse> {
    const form = new FormData();
    form.append('token', hangar.adminToken);
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([fs.readFileSync(path.join(fixturesDir(), 'apps', file))]), file);
    const res = await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', body: form });
    const text = await res.text();
    const result = { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
    await validateResponse(hangar.baseUrl, 'POST', '/api/apps/upload', result);
    return result;
  }

  beforeAll(async () => {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    hangar = await sharedHangar();
    api = apiClient(hangar.baseUrl);
    android = await upload('android.apk', {
      name: `Pages ${Date.now()}`,
      changelog: '- Faster start\n- Fixed login',
      branch: 'origin/release/2.0',
      git_commit: 'deadbeefcafe1234',
      custom_fields: JSON.stringify([{ name: 'Environment', value: 'Staging', icon: 'fa-solid fa-flask' }]),
    });
    ios = await upload('ipad.ipa', { name: `Pages iOS ${Date.now()}` });
    expect(android.status).toBe(201);
    expect(ios.status).toBe(201);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await hangar?.stop();
  });

  it.each([
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1280, height: 900 }],
  ])('when the release page is opened on a %s, then it shows the build and a working Download button', async (label, viewport) => {
    const context = await browser.newContext({ viewport, acceptDownloads: true });
    const page = await context.newPage();
    // Hangar's own origins: the gateway and its object storage (presigned files).
    const ours = [hangar.baseUrl, testInfrastructure().s3.endpoint, 'data:'];
    const thirdParty: string[] = [];
    page.on('request', (r) => {
      if (!ours.some((origin) => r.url().startsWith(origin))) thirdParty.push(r.url());
    });
    const response = await page.goto(android.body.release_url);
    expect(response?.status()).toBe(200);
    await expect(page.locator('h1').textContent()).resolves.toContain(android.body.app_name);
    const text = await page.locator('main').innerText();
    for (const expected of ['1.2.3 (5)', 'Android', 'Faster start', 'Fixed login', 'Environment', 'Staging', 'release/2.0', 'deadbeefcafe']) {
      expect(text).toContain(expected);
    }
    expect(await page.locator('i.fa-solid.fa-flask').count()).toBe(1);
    expect(await page.locator('img.app-icon').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    expect(await page.locator('.qrcode img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    // Nothing wider than the screen: the page fits a phone.
    expect(await page.evaluate(() => (globalThis as unknown as BrowserGlobals).document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: path.join(SCREENSHOTS, `release-${label}.png`), fullPage: true });

    const download = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download' }).click()]).then(([d]) => d);
    const saved = path.join(SCREENSHOTS, `download-${label}.apk`);
    await download.saveAs(saved);
    expect(fs.readFileSync(saved).equals(fs.readFileSync(path.join(fixturesDir(), 'apps', 'android.apk')))).toBe(true);
    expect(download.suggestedFilename()).toMatch(/\.apk$/);
    fs.rmSync(saved);
    expect(thirdParty).toEqual([]);
    await context.close();
  });

  it('when a keyboard user tabs through the page, then the button is reachable and focus is visible', async () => {
    const page = await browser.newPage();
    await page.goto(android.body.release_url);
    let found = false;
    for (let i = 0; i < 10 && !found; i++) {
      await page.keyboard.press('Tab');
      found = (await page.evaluate(() => (globalThis as unknown as BrowserGlobals).document.activeElement?.textContent ?? '')).includes('Download');
    }
    expect(found).toBe(true);
    await page.close();
  });

  it('when the channel is password protected, then the page asks first, refuses a wrong password and unlocks with the right one', async () => {
    await upload('android.apk', { channel_key: android.body.channel.slug, password: 'open-sesame' });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const gate = await page.goto(android.body.release_url);
    expect(gate?.status()).toBe(401);
    await expect(page.getByLabel('Password').isVisible()).resolves.toBe(true);
    expect(await page.locator('main').innerText()).not.toContain('Faster start');
    // The download is closed too without the unlock.
    expect((await fetchChecked(hangar.baseUrl, `${hangar.baseUrl}/api/releases/${android.body.id}/download`, { redirect: 'manual' })).status).toBe(401);

    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: 'Unlock' }).click();
    expect(await page.getByRole('alert').innerText()).toContain('not right');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'password-wrong.png') });

    await page.getByLabel('Password').fill('open-sesame');
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.waitForURL(android.body.release_url.replace(hangar.baseUrl, `${hangar.baseUrl}`));
    expect(await page.locator('main').innerText()).toContain('Faster start');
    const cookies = await context.cookies();
    const unlock = cookies.find((c) => c.name.startsWith('hangar_unlock_'));
    expect(unlock?.httpOnly).toBe(true);
    expect(unlock?.expires).toBeGreaterThan(Date.now() / 1000);
    const download = await page.request.get(`${hangar.baseUrl}/api/releases/${android.body.id}/download`, { maxRedirects: 0 });
    expect(download.status()).toBe(302);
    // The API's own channel_key routes are not behind the gate.
    expect((await api('GET', `/api/apps/versions?channel_key=${android.body.channel.slug}`)).status).toBe(200);
    await context.close();
    await upload('android.apk', { channel_key: android.body.channel.slug, password: '' });
  });

  it('when wrong passwords keep coming, then they are refused with 429', async () => {
    const slug = (await upload('tv.apk', { name: `Locked ${Date.now()}`, password: 'secret-pass' })).body.channel.slug;
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await fetchChecked(hangar.baseUrl, `${hangar.baseUrl}/channels/${slug}/unlock`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'password=nope',
        redirect: 'manual',
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });

  it('when the QR code is decoded, then it is the release page URL; bad sizes are 422', async () => {
    const res = await fetchChecked(hangar.baseUrl, android.body.qrcode_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = PNG.sync.read(Buffer.from(await res.arrayBuffer()));
    expect(png.width).toBe(256);
    const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(code?.data).toBe(android.body.release_url);
    const sized = PNG.sync.read(Buffer.from(await (await fetchChecked(hangar.baseUrl, `${android.body.qrcode_url}?size=512`)).arrayBuffer()));
    expect(sized.width).toBe(512);
    for (const size of ['63', '1025', 'abc', '100.5']) {
      expect((await fetchChecked(hangar.baseUrl, `${android.body.qrcode_url}?size=${size}`)).status).toBe(422);
    }
  });

  it('when the iOS install link is followed, then the manifest is a valid plist pointing at the package and icon', async () => {
    expect(ios.body.install_url).toMatch(/^itms-services:\/\/\?action=download-manifest&url=/);
    const manifestUrl = decodeURIComponent(new URL(ios.body.install_url.replace('itms-services://', 'https://x/')).searchParams.get('url')!);
    const res = await fetchChecked(hangar.baseUrl, manifestUrl);
    expect(res.status).toBe(200);
    const manifest = plist.parse(await res.text()) as { items: { assets: { kind: string; url: string }[]; metadata: Record<string, string> }[] };
    const item = manifest.items[0]!;
    expect(item.metadata).toEqual({ 'bundle-identifier': 'com.icyleaf.bundle', 'bundle-version': '1.0', kind: 'software', title: ios.body.app_name });
    const kinds = Object.fromEntries(item.assets.map((a) => [a.kind, a.url]));
    expect(Object.keys(kinds).sort()).toEqual(['display-image', 'full-size-image', 'software-package']);
    const pkg = await fetchChecked(hangar.baseUrl, kinds['software-package']!);
    expect(pkg.status).toBe(200);
    expect(Buffer.from(await pkg.arrayBuffer()).equals(fs.readFileSync(path.join(fixturesDir(), 'apps', 'ipad.ipa')))).toBe(true);
    const icon = Buffer.from(await (await fetchChecked(hangar.baseUrl, kinds['display-image']!)).arrayBuffer());
    expect(icon.subarray(0, 4).toString('hex')).toBe('89504e47');
  });

  // X-Forwarded-Proto / -Host are believed only from TRUSTED_PROXIES: password-gate-and-proxies.test.ts.

  it('when the channel page is opened, then it lists the channel builds newest first', async () => {
    const page = await browser.newPage();
    const res = await page.goto(`${hangar.baseUrl}/channels/${android.body.channel.slug}`);
    expect(res?.status()).toBe(200);
    const versions = await page.locator('.releases li .muted').allInnerTexts();
    const numbers = versions.map((v) => Number(/#(\d+)/.exec(v)![1]));
    expect(numbers.length).toBeGreaterThanOrEqual(2);
    expect([...numbers].sort((a, b) => b - a)).toEqual(numbers);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'channel-desktop.png'), fullPage: true });
    await page.close();
  });
});
