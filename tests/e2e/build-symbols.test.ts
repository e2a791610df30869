import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Browser, chromium } from 'playwright-core';
import { ApiResponse, RunningHangar, apiClient, fixturesDir, sharedHangar, uniqueName } from '@hangar/testing';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = path.resolve(__dirname, '..', '..', 'test-output', 'build-symbols');

/**
 * Builds and their symbols, linked: a release's answer lists the debug files
 * of its version and build (its anonymous install page does not); a debug file's answer lists the releases of its
 * version and build. The fixture APK is 1.2.3 (5); its mapping is uploaded with those versions.
 */
describe('builds and their debug files, linked', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-e2e-linked-'));
  let hangar: RunningHangar;
  let api: ReturnType<typeof apiClient>;
  let admin: string;
  let channelKey: string;
  let bundleId: string;
  let firstRelease: ApiResponse;
  let secondRelease: ApiResponse;
  let mapping: ApiResponse;
  let otherBuildMapping: ApiResponse;
  let mappingBytes: Buffer;

  /** A real zip made with Info-ZIP's zip holding one mapping.txt. */
  function mappingZip(content: string): Buffer {
    const stage = fs.mkdtempSync(path.join(workDir, 'stage-'));
    fs.writeFileSync(path.join(stage, 'mapping.txt'), content);
    execFileSync('zip', ['-q', '-X', 'out.zip', 'mapping.txt'], { cwd: stage });
    return fs.readFileSync(path.join(stage, 'out.zip'));
  }

  const uploadApk = (fields: Record<string, string>) =>
    api('POST', '/api/apps/upload', { token: admin, form: fields, files: { file: { data: fs.readFileSync(path.join(fixturesDir(), 'apps', 'android.apk')), fileName: 'android.apk' } } });
  const uploadMapping = (data: Buffer, fileName: string, buildVersion: string) =>
    api('POST', '/api/debug_files/upload', { token: admin, form: { channel_key: channelKey, release_version: '1.2.3', build_version: buildVersion }, files: { file: { data, fileName } } });

  beforeAll(async () => {
    // The debug-files service frozen, which needs a Hangar of its own, is kill-each-service's test.
    hangar = await sharedHangar();
    api = apiClient(hangar.baseUrl);
    admin = hangar.adminToken;
    firstRelease = await uploadApk({ name: uniqueName('Linked') });
    expect(firstRelease.status).toBe(201);
    channelKey = firstRelease.body.channel.slug;
    bundleId = firstRelease.body.bundle_id;
    mappingBytes = mappingZip('com.example.linked.Main -> a.a:\n    void run() -> a\n');
    mapping = await uploadMapping(mappingBytes, 'mapping-1.2.3-5.zip', '5');
    otherBuildMapping = await uploadMapping(mappingZip('com.example.linked.Other -> a.b:\n    void go() -> b\n'), 'mapping-1.2.3-6.zip', '6');
    expect([mapping.status, otherBuildMapping.status]).toEqual([200, 200]);
    // A second upload of the same build, after its mapping: its 201 already names the mapping.
    secondRelease = await uploadApk({ channel_key: channelKey });
    expect(secondRelease.status).toBe(201);
  });

  afterAll(async () => {
    await hangar?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  const expectedLink = () => ({
    id: mapping.body.id,
    kind: 'proguard',
    file_name: 'mapping-1.2.3-5.zip',
    size: mappingBytes.length,
    debug_ids: [mapping.body.metadata[0].uuid.toLowerCase()],
    file_url: `${hangar.baseUrl}/api/debug_files/${mapping.body.id}/download?channel_key=${channelKey}`,
  });

  it('when a release is uploaded before its mapping, then its answer lists none; after, every read lists exactly the mapping of its build', async () => {
    expect(firstRelease.body.debug_files).toEqual([]);
    expect(secondRelease.body.debug_files).toEqual([expectedLink()]);

    const exists = await api('GET', `/api/apps/version_exist?channel_key=${channelKey}&bundle_id=${bundleId}&release_version=1.2.3&build_version=5`);
    expect(exists.status).toBe(200);
    expect(exists.body.debug_files).toEqual([expectedLink()]);

    const versions = await api('GET', `/api/apps/versions?channel_key=${channelKey}`);
    expect(versions.status).toBe(200);
    expect(versions.body.releases.map((r: { id: number }) => r.id)).toEqual([secondRelease.body.id, firstRelease.body.id]);
    for (const release of versions.body.releases) expect(release.debug_files).toEqual([expectedLink()]);

    const edited = await api('PUT', `/api/releases/${firstRelease.body.id}`, { token: admin, form: { branch: 'main' } });
    expect(edited.status).toBe(200);
    expect(edited.body.debug_files).toEqual([expectedLink()]);
  });

  it("when a release's debug file is followed by its file_url, then it downloads that exact archive", async () => {
    const redirect = await fetch(expectedLink().file_url, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const bytes = Buffer.from(await (await fetch(redirect.headers.get('location')!)).arrayBuffer());
    expect(bytes.equals(mappingBytes)).toBe(true);
  });

  it('when a debug file is read or listed, then it names the releases of its version and build, newest first, and no others', async () => {
    const releaseLink = (r: ApiResponse) => ({ id: r.body.id, version: r.body.version, release_version: '1.2.3', build_version: '5', release_url: r.body.release_url });
    const one = await api('GET', `/api/debug_files/${mapping.body.id}?channel_key=${channelKey}`, { token: admin });
    expect(one.status).toBe(200);
    expect(one.body.kind).toBe('proguard');
    expect(one.body.releases).toEqual([releaseLink(secondRelease), releaseLink(firstRelease)]);

    const list = await api('GET', `/api/debug_files?channel_key=${channelKey}`, { token: admin });
    expect(list.status).toBe(200);
    const byId = new Map(list.body.map((f: { id: number; releases: unknown[] }) => [f.id, f.releases]));
    expect(byId.get(mapping.body.id)).toEqual([releaseLink(secondRelease), releaseLink(firstRelease)]);
    expect(byId.get(otherBuildMapping.body.id)).toEqual([]);
    // The mapping of build 6 has no release: its upload answer said so too.
    expect(otherBuildMapping.body.releases).toEqual([]);
    expect(mapping.body.releases).toEqual([releaseLink(firstRelease)]);
  });

  describe('on the install page', () => {
    let browser: Browser;
    beforeAll(async () => {
      fs.mkdirSync(SCREENSHOTS, { recursive: true });
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
    });
    afterAll(async () => {
      await browser?.close();
    });

    it.each([
      ['phone', { width: 390, height: 844 }],
      ['desktop', { width: 1280, height: 900 }],
    ])('when the release page is opened on a %s, then it lists none of the build\'s debug files: a mapping de-obfuscates the app for anyone with the link', async (label, viewport) => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      expect((await page.goto(secondRelease.body.release_url))?.status()).toBe(200);
      expect(await page.locator('h2', { hasText: 'Debug symbols' }).count()).toBe(0);
      const html = await page.content();
      expect(html).not.toContain('mapping-1.2.3-5.zip');
      expect(html).not.toContain(expectedLink().debug_ids[0]);
      expect(html).not.toContain('/api/debug_files/');
      expect(await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({ path: path.join(SCREENSHOTS, `release-${label}.png`), fullPage: true });
      await context.close();
    });
  });

  it('when the debug file is deleted, then the releases of its build list none', async () => {
    const deleted = await api('DELETE', `/api/debug_files/${mapping.body.id}?channel_key=${channelKey}`, { token: admin });
    expect(deleted.status).toBe(200);
    const versions = await api('GET', `/api/apps/versions?channel_key=${channelKey}`);
    for (const release of versions.body.releases) expect(release.debug_files).toEqual([]);
  });
});
