import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Client } from 'minio';
import { Browser, chromium } from 'playwright-core';
import { ApiClient, RunningHangar, TestUser, apiClient, createUserWithToken, fixturesDir, startHangar, testS3Client, uniqueName } from '@hangar/testing';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = path.resolve(__dirname, '..', '..', 'test-output', 'signing');
// Short enough that expiry is seen within the test, long enough for the reads before it.
const RETENTION_DAYS = 0.0004; // about 35 s
const GiB = 1024 * 1024 * 1024;

/**
 * Signing details and teardown over HTTP: the signing details of real packages in
 * the Release shape and on the install page, and teardown — a package read
 * without a release, kept for its uploader only, deleted with its file once
 * it expires; a multi-GiB non-package refused before it is stored.
 */
describe('signing details and teardown', () => {
  const bucket = uniqueName('e2e-signing');
  let hangar: RunningHangar;
  let api: ApiClient;
  let s3: Client;
  let browser: Browser;
  let uploader: TestUser;
  let someoneElse: TestUser;
  let workDir: string;

  const fixture = (name: string) => fs.readFileSync(path.join(fixturesDir(), 'apps', name));

  beforeAll(async () => {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-signing-e2e-'));
    hangar = await startHangar({
      S3_BUCKET: bucket,
      TEARDOWN_RETENTION_DAYS: String(RETENTION_DAYS),
      TEARDOWN_SWEEP_INTERVAL_MS: '2000',
      // The orphan janitors run too, so a recorded teardown's file is seen surviving them (kept by its record).
      STORAGE_JANITOR_INTERVAL_MS: '2000',
      STORAGE_JANITOR_GRACE_MS: '20000',
    });
    api = apiClient(hangar.baseUrl);
    s3 = testS3Client();
    [uploader, someoneElse] = await Promise.all([createUserWithToken(api, hangar.adminToken, 'tearer'), createUserWithToken(api, hangar.adminToken, 'other')]);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  });

  afterAll(async () => {
    await browser?.close();
    await hangar?.stop();
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  });

  /** iphone.ipa re-packed with the real ad hoc profile of the fixtures (zip(1) replaces the member). */
  function adHocIpa(): Buffer {
    const ipa = path.join(workDir, 'adhoc.ipa');
    fs.copyFileSync(path.join(fixturesDir(), 'apps', 'iphone.ipa'), ipa);
    fs.chmodSync(ipa, 0o644);
    const member = path.join(workDir, 'Payload', 'AppInfoDemo.app', 'embedded.mobileprovision');
    fs.mkdirSync(path.dirname(member), { recursive: true });
    fs.copyFileSync(path.join(fixturesDir(), 'mobileprovisions', 'ios_adhoc.mobileprovision'), member);
    execFileSync('zip', ['-q', ipa, 'Payload/AppInfoDemo.app/embedded.mobileprovision'], { cwd: workDir });
    return fs.readFileSync(ipa);
  }

  async function upload(data: Buffer, fileName: string) {
    const res = await api('POST', '/api/apps/upload', { token: hangar.adminToken, form: { name: uniqueName('signed') }, files: { file: { data, fileName } } });
    expect(res.status).toBe(201);
    return res.body;
  }

  async function storedKeys(prefix: string): Promise<string[]> {
    const names: string[] = [];
    for await (const item of s3.listObjectsV2(bucket, prefix, true)) if (item.name) names.push(item.name);
    return names;
  }

  describe('signing on releases', () => {
    it('when iphone.ipa is uploaded, then the release carries its development profile: type, team, 100 devices, expiry, 13 certificates', async () => {
      const release = await upload(fixture('iphone.ipa'), 'iphone.ipa');
      expect(release.release_type).toBe('AdHoc'); // Zealot's precedence stays for release_type
      expect(release.signing.profile).toMatchObject({
        type: 'development',
        name: 'iOS Team Provisioning Profile: *',
        team: { name: 'QYER Inc', id: '5PJA6N5A3B' },
        devices_count: 100,
        devices_truncated: false,
        expires_at: '2017-07-27T09:44:49.000Z',
        expired: true,
      });
      expect(release.signing.profile.devices).toHaveLength(100);
      expect(release.signing.profile.entitlements['get-task-allow']).toBe(true);
      expect(release.signing.certificates).toHaveLength(13);
      expect(release.signing.certificates[0]).toMatchObject({ common_name: 'iPhone Developer: wangpeng wangpeng (U398GU648T)', expired: true });
      expect(release.android).toBeNull();
      // The same again when read back later (GET of the version list), not only in the upload's answer.
      const versions = await api('GET', `/api/apps/versions?channel_key=${release.channel.slug}`);
      expect(versions.body.releases[0].signing.profile.devices_count).toBe(100);
    });

    it('when android.apk is uploaded, then the release carries its v1 and v2 certificate, SDK levels, permissions and ABIs', async () => {
      const release = await upload(fixture('android.apk'), 'android.apk');
      expect(release.signing).toEqual({
        schemes: ['v1', 'v2'],
        certificates: [
          expect.objectContaining({
            common_name: 'Android Debug',
            sha256: 'EE:1C:4F:FC:2C:97:EA:DD:A1:0F:F2:23:AF:83:19:79:39:3C:8D:C6:03:3C:64:60:A4:BE:9B:E6:8C:E0:BB:94',
            expires_at: '2049-06-04T08:41:36.000Z',
            expired: false,
          }),
        ],
        certificates_truncated: false,
        profile: null,
      });
      expect(release.android).toMatchObject({ min_sdk_version: 14, target_sdk_version: 29 });
      expect(Array.isArray(release.android.permissions)).toBe(true);
      expect(Array.isArray(release.android.native_abis)).toBe(true);
    });
  });

  describe('the install page', () => {
    it('when an ad hoc build with an expired profile is opened, then the page says how many devices it admits and warns that it expired', async () => {
      const release = await upload(adHocIpa(), 'adhoc.ipa');
      expect(release.signing.profile).toMatchObject({ type: 'ad_hoc', devices_count: 1, expired: true });
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      expect((await page.goto(release.release_url))?.status()).toBe(200);
      const alert = page.getByRole('alert');
      await expect(alert.innerText()).resolves.toContain('The provisioning profile expired on 2020-10-24');
      const text = await page.locator('main').innerText();
      for (const expected of ['Ad hoc · iOS Full AdHoc', 'admits 1 device', 'Niceliving (Beijing) Technology Co., Ltd. (WKR87TTKML)', 'Profile expired', 'Device UDIDs (1)']) expect(text).toContain(expected);
      await page.getByText('Device UDIDs (1)').click();
      await expect(page.locator('.devices code').first().innerText()).resolves.toBe('e801228c2086d3aacc917b9c3d19bfa56efcab5b');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'release-adhoc-expired-phone.png'), fullPage: true });
      await context.close();
    });

    it('when an Android build signed with a current certificate is opened, then it shows the schemes and fingerprint and no warning', async () => {
      const release = await upload(fixture('android.apk'), 'android.apk');
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(release.release_url);
      expect(await page.getByRole('alert').count()).toBe(0);
      const text = await page.locator('main').innerText();
      for (const expected of ['Signature schemes', 'v1, v2', 'EE:1C:4F:FC', 'Android API', '14+ (targets 29)']) expect(text).toContain(expected);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'release-android-desktop.png'), fullPage: true });
      await context.close();
    });
  });

  describe('teardown', () => {
    it('when a user tears down a package, then it answers what the release would show, keeps it for them only, and creates no release', async () => {
      const appsBefore = (await api('GET', '/api/apps?per_page=1', { token: hangar.adminToken })).headers.get('x-total-count');
      const created = await api('POST', '/api/teardown', { token: uploader.token, files: { file: { data: fixture('embedded.ipa'), fileName: 'embedded.ipa' } } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        file_name: 'embedded.ipa',
        format: 'ipa',
        platform: 'iOS',
        bundle_id: 'com.icyleaf.test.Demo',
        release_version: '1.0',
        build_version: '1',
        release_type: 'Enterprise',
        android: null,
      });
      expect(created.body.signing.profile).toMatchObject({ type: 'enterprise', provisions_all_devices: true, uuid: '1f67e425-350e-434c-9077-9e0791347bbf' });
      expect(Date.parse(created.body.expires_at) - Date.parse(created.body.created_at)).toBe(Math.round(RETENTION_DAYS * 86_400_000));
      expect(created.body.url).toBe(`${hangar.baseUrl}/api/teardown/${created.body.id}`);

      const again = await api('GET', `/api/teardown/${created.body.id}`, { token: uploader.token });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(created.body);
      // Anyone else, the admin included, is told it does not exist; without a token, 401.
      for (const token of [someoneElse.token, hangar.adminToken]) {
        const res = await api('GET', `/api/teardown/${created.body.id}`, { token });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: 'Teardown not found' });
      }
      expect((await api('GET', `/api/teardown/${created.body.id}`)).status).toBe(401);
      expect((await api('GET', '/api/teardown/doesnotexist', { token: uploader.token })).status).toBe(404);
      expect((await api('GET', '/api/apps?per_page=1', { token: hangar.adminToken })).headers.get('x-total-count')).toBe(appsBefore);
    });

    it('when the retention has passed, then the teardown is gone for its uploader too, and so is its file', async () => {
      const keysBefore = new Set(await storedKeys('teardowns/'));
      const created = await api('POST', '/api/teardown', { token: uploader.token, files: { file: { data: fixture('wear.apk'), fileName: 'wear.apk' } } });
      expect(created.status).toBe(201);
      expect(created.body.android).toMatchObject({ min_sdk_version: 21 });
      const [key] = (await storedKeys('teardowns/')).filter((k) => !keysBefore.has(k));
      expect(key).toBeDefined();
      expect((await api('GET', `/api/teardown/${created.body.id}`, { token: uploader.token })).status).toBe(200);

      const deadline = Date.now() + RETENTION_DAYS * 86_400_000 + 60_000;
      while ((await storedKeys('teardowns/')).includes(key!) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1000));
      expect(await storedKeys('teardowns/')).not.toContain(key);
      expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(created.body.expires_at));
      expect((await api('GET', `/api/teardown/${created.body.id}`, { token: uploader.token })).status).toBe(404);
    }, 120_000);

    it('when the file is a broken package, then 422 names the problem and nothing is kept', async () => {
      const keysBefore = await storedKeys('teardowns/');
      const truncated = fixture('android.apk').subarray(0, 200_000);
      const res = await api('POST', '/api/teardown', { token: uploader.token, files: { file: { data: truncated, fileName: 'broken.apk' } } });
      expect(res.status).toBe(422);
      expect(res.body.entry.file[0]).toMatch(/is not a valid package|is not a package Hangar can read/);
      expect(await storedKeys('teardowns/')).toEqual(keysBefore);
    });

    it('when 4 GiB of something that is not a package is posted, then 422 comes at once, before the body is read, and nothing is stored', async () => {
      const keysBefore = await storedKeys('teardowns/');
      const boundary = 'hangar-teardown-boundary';
      const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${uploader.token}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const chunk = Buffer.alloc(1024 * 1024, 'not a package, just a lot of text. ');
      const started = Date.now();
      let sent = 0;
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(`${hangar.baseUrl}/api/teardown`, {
          method: 'POST',
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + 4 * GiB + tail.length) },
        });
        let answered = false;
        req.on('response', (res) => {
          answered = true;
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => {
            req.destroy();
            resolve({ status: res.statusCode ?? 0, body });
          });
        });
        req.on('error', (err) => (answered ? undefined : reject(err)));
        req.write(head);
        const pump = () => {
          while (!answered && sent < 4 * GiB) {
            sent += chunk.length;
            if (!req.write(chunk)) return void req.once('drain', pump);
          }
        };
        pump();
      });
      expect(answer.status).toBe(422);
      expect(JSON.parse(answer.body)).toEqual({ error: expect.any(String), entry: { file: [expect.stringContaining('first bytes match no')] } });
      expect(Date.now() - started).toBeLessThan(15_000);
      // Refused within the first few MiB of a 4 GiB body (the rest is never read past the linger bound).
      expect(sent).toBeLessThan(256 * 1024 * 1024);
      expect(await storedKeys('teardowns/')).toEqual(keysBefore);
    }, 60_000);

    it('when no token is sent, then 401 before anything is stored', async () => {
      const res = await api('POST', '/api/teardown', { files: { file: { data: fixture('android.apk'), fileName: 'android.apk' } } });
      expect(res.status).toBe(401);
    });
  });
});
