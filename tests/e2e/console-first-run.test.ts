import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ApiClient, RunningHangar, TestUser, apiClient, createUserWithToken, fixturesDir, startHangar, uniqueName } from '@hangar/testing';
import { launchChromium, lookAt, signIn } from './console/console-browser';
import { atEachSize, clipboardText, fullyOnScreen } from './console/sizes';

const run = promisify(execFile);

/**
 * The console of a Hangar with nothing in it yet, in Chromium at phone and laptop sizes: the
 * empty apps page and an empty channel say what to do next — the exact commands that upload a
 * build to this server, each with a copy button — and what is copied, run as it is, does it.
 */
describe('the console of an empty Hangar', () => {
  let hangar: RunningHangar;
  let api: ApiClient;
  let browser: Browser;
  let member: TestUser;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-first-run-'));

  beforeAll(async () => {
    hangar = await startHangar();
    api = apiClient(hangar.baseUrl);
    member = await createUserWithToken(api, hangar.adminToken, 'member', 'member');
    // The commands name the package app.apk in the directory they run in.
    fs.copyFileSync(path.join(fixturesDir(), 'apps', 'android.apk'), path.join(workDir, 'app.apk'));
    browser = await launchChromium();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await hangar?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  const contexts: BrowserContext[] = [];
  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    contexts.push(context);
    return context.newPage();
  }
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });

  /** A copied command run by sh as a person would paste it, with their token in the environment. */
  async function runCopied(command: string, token: string): Promise<string> {
    const { stdout } = await run('sh', ['-c', command], { cwd: workDir, env: { ...process.env, HANGAR_TOKEN: token, PATH: `${path.resolve(__dirname, '..', '..', 'node_modules', '.bin')}:${process.env.PATH}` }, timeout: 120_000 });
    return stdout;
  }

  const snippet = (page: Page, title: string) => page.getByRole('heading', { name: title, exact: true }).locator('xpath=ancestor::div[contains(concat(" ", @class, " "), " snippet ")][1]').locator('pre');

  it('when the admin opens the apps page of a Hangar with no apps, then it shows the curl and hangar commands for this server, each copyable, and the copied curl command makes the first build', async () => {
    const page = await newPage();
    await signIn(page, hangar.baseUrl, 'admin@e2e.test', hangar.adminPassword);
    await atEachSize(page, async ({ width }) => {
      await page.getByRole('heading', { name: /upload your first build/i }).waitFor();
      const curl = await snippet(page, 'curl').innerText();
      expect(curl).toContain(`${hangar.baseUrl}/api/apps/upload`);
      expect(curl).toContain('-F file=@app.apk');
      expect(await snippet(page, 'hangar CLI').innerText()).toMatch(new RegExp(`HANGAR_URL=${hangar.baseUrl.replace(/[.]/g, '\\.')} hangar upload app\\.apk`));
      // On a phone too the commands and their buttons are on the screen, not past its edge.
      expect(await fullyOnScreen(page.getByRole('button', { name: 'Copy curl command' }), width)).toBe(true);
      expect(await fullyOnScreen(snippet(page, 'curl'), width)).toBe(true);
    });
    await lookAt(page, 'first-run-apps');

    await page.getByRole('button', { name: 'Copy curl command' }).click();
    await page.getByRole('status').getByText('Copied').first().waitFor();
    const copied = await clipboardText(page);
    expect(copied).toBe(await snippet(page, 'curl').innerText());

    const answer = JSON.parse(await runCopied(copied, hangar.adminToken));
    expect(answer).toMatchObject({ app_name: 'AppInfoDemo', release_version: '1.2.3' });
    await page.reload();
    await page.getByRole('link', { name: 'AppInfoDemo' }).waitFor();
    expect(await page.getByRole('heading', { name: /upload your first build/i }).count()).toBe(0);
  });

  it("when a channel has no builds, then the app's page shows curl, hangar and fastlane with that channel's key, and the copied hangar command uploads into it", async () => {
    const app = await api('POST', '/api/apps', { token: hangar.adminToken, json: { name: uniqueName('Empty Channel App').replace(/-/g, ' ') } });
    const scheme = await api('POST', `/api/apps/${app.body.id}/schemes`, { token: hangar.adminToken, json: { name: 'Beta', new_build_callout: false } });
    const channel = await api('POST', `/api/schemes/${scheme.body.id}/channels`, { token: hangar.adminToken, json: { name: 'Android', device_type: 'android' } });
    const key: string = channel.body.slug;

    const page = await newPage();
    await signIn(page, hangar.baseUrl, 'admin@e2e.test', hangar.adminPassword);
    await page.goto(`${hangar.baseUrl}/apps/${app.body.id}`);
    await atEachSize(page, async ({ width }) => {
      await page.getByRole('heading', { name: /No builds in this channel yet/ }).waitFor();
      expect(await snippet(page, 'curl').innerText()).toContain(`-F channel_key=${key} -F file=@app.apk ${hangar.baseUrl}/api/apps/upload`);
      expect(await snippet(page, 'hangar CLI').innerText()).toContain(`hangar upload app.apk --channel-key ${key}`);
      const fastlane = await snippet(page, 'fastlane (Zealot plugin)').innerText();
      expect(fastlane).toContain(`endpoint: '${hangar.baseUrl}'`);
      expect(fastlane).toContain(`channel_key: '${key}'`);
      expect(await fullyOnScreen(page.getByRole('button', { name: 'Copy fastlane action' }), width)).toBe(true);
    });
    await lookAt(page, 'first-run-channel');

    await page.getByRole('button', { name: 'Copy hangar command' }).click();
    const copied = await clipboardText(page);
    expect(copied).toBe(await snippet(page, 'hangar CLI').innerText());
    await runCopied(copied, hangar.adminToken);
    await page.reload();
    await page.getByRole('link', { name: '1.2.3 (5)' }).waitFor();
    const versions = await api('GET', `/api/apps/versions?channel_key=${key}`, { token: hangar.adminToken });
    expect(versions.body.releases).toHaveLength(1);
  });

  it('when a member of no app signs in, then the apps page says whom to ask, and shows no upload commands', async () => {
    const page = await newPage();
    await signIn(page, hangar.baseUrl, member.email, 'long-enough-pw');
    await atEachSize(page, async () => {
      await page.getByText('Ask an admin to add you to an app').waitFor();
      expect(await page.getByRole('heading', { name: /upload your first build/i }).count()).toBe(0);
    });
  });
});
