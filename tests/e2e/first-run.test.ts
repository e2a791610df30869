import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ApiClient, RunningHangar, apiClient, createUserWithToken, fixturesDir, isProcessRunning, startHangar, uniqueName } from '@hangar/testing';
import { launchChromium, lookAt, signIn as signInWith } from './console/console-browser';
import { atEachSize, clipboardText, fullyOnScreen } from './console/sizes';

const run = promisify(execFile);

/**
 * A person's first run of Hangar, on one installation that nobody has used yet (a Hangar of its
 * own: its first start and its empty console are the subject).
 *
 * What `npm run up` tells them about the bootstrap admin: on the start that creates it, the URL,
 * the e-mail and the password to sign in to the console with (and the token); on later starts
 * not the password again; and, on Ctrl-C, an orderly stop. A password the operator set in
 * HANGAR_ADMIN_PASSWORD is never echoed: system.test.ts reads that in the shared Hangar's start.
 *
 * The console of that empty Hangar, in Chromium at phone and laptop sizes: the empty apps page and
 * an empty channel say what to do next — the exact commands that upload a build to this server,
 * each with a copy button — and what is copied, run as it is, does it.
 */
describe('the first run of an installation', () => {
  let hangar: RunningHangar | undefined;
  let api: ApiClient;
  let dataDir: string | undefined;
  let browser: Browser | undefined;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-first-run-'));

  afterAll(async () => {
    await browser?.close();
    await hangar?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  /** One installation across two starts: its databases, subjects and bucket, and a token the launcher makes up and keeps. */
  const prefix = uniqueName('e2e_first').replace(/-/g, '_');
  const installation = {
    HANGAR_DB_PREFIX: prefix,
    NATS_SUBJECT_PREFIX: prefix.replace(/_/g, '-'),
    S3_BUCKET: uniqueName('e2e-first-start'),
    HANGAR_ADMIN_PASSWORD: undefined,
    HANGAR_ADMIN_TOKEN: undefined,
  };
  const kept = () => JSON.parse(fs.readFileSync(path.join(dataDir!, 'admin-credentials.json'), 'utf8')) as { password: string; token: string };
  // The launcher made both up (HANGAR_ADMIN_PASSWORD and HANGAR_ADMIN_TOKEN unset): read where it keeps them.
  const adminPassword = () => kept().password;
  const adminToken = () => kept().token;

  const signIn = (baseUrl: string, email: string, password: string) =>
    fetch(`${baseUrl}/api/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });

  it('when the password is generated, then the first start prints the URL, e-mail, password and token, and the password signs in', async () => {
    // No HANGAR_ADMIN_PASSWORD: the launcher makes one up, as for anyone trying Hangar.
    hangar = await startHangar(installation, { keepDataDir: true });
    api = apiClient(hangar.baseUrl);
    dataDir = hangar.dataDir;
    const { password, token } = kept();
    const output = hangar.output();
    expect(output).toContain(`Hangar is running at ${hangar.baseUrl}`);
    expect(output).toContain('  admin:       admin@e2e.test\n');
    expect(output).toContain(`  password:    ${password}\n               (shown on this first start only)\n`);
    expect(output).toContain(`  admin token: ${token}\n`);
    expect(output).toContain(`(generated values are kept in ${path.join(dataDir, 'admin-credentials.json')}, readable by you only)`);
    const signedIn = await signIn(hangar.baseUrl, 'admin@e2e.test', password);
    expect(signedIn.status).toBe(201);
  });

  describe('the console of the empty Hangar', () => {
    let member: { email: string };

    beforeAll(async () => {
      expect(hangar).toBeDefined();
      member = await createUserWithToken(api, adminToken(), 'member', 'member');
      // The commands name the package app.apk in the directory they run in.
      fs.copyFileSync(path.join(fixturesDir(), 'apps', 'android.apk'), path.join(workDir, 'app.apk'));
      browser = await launchChromium();
    }, 240_000);

    const contexts: BrowserContext[] = [];
    async function newPage(): Promise<Page> {
      const context = await browser!.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
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
      await signInWith(page, hangar!.baseUrl, 'admin@e2e.test', adminPassword());
      await atEachSize(page, async ({ width }) => {
        await page.getByRole('heading', { name: /upload your first build/i }).waitFor();
        const curl = await snippet(page, 'curl').innerText();
        expect(curl).toContain(`${hangar!.baseUrl}/api/apps/upload`);
        expect(curl).toContain('-F file=@app.apk');
        expect(await snippet(page, 'hangar CLI').innerText()).toMatch(new RegExp(`HANGAR_URL=${hangar!.baseUrl.replace(/[.]/g, '\\.')} hangar upload app\\.apk`));
        // On a phone too the commands and their buttons are on the screen, not past its edge.
        expect(await fullyOnScreen(page.getByRole('button', { name: 'Copy curl command' }), width)).toBe(true);
        expect(await fullyOnScreen(snippet(page, 'curl'), width)).toBe(true);
      });
      await lookAt(page, 'first-run-apps');

      await page.getByRole('button', { name: 'Copy curl command' }).click();
      await page.getByRole('status').getByText('Copied').first().waitFor();
      const copied = await clipboardText(page);
      expect(copied).toBe(await snippet(page, 'curl').innerText());

      const answer = JSON.parse(await runCopied(copied, adminToken()));
      expect(answer).toMatchObject({ app_name: 'AppInfoDemo', release_version: '1.2.3' });
      await page.reload();
      await page.getByRole('link', { name: 'AppInfoDemo' }).waitFor();
      expect(await page.getByRole('heading', { name: /upload your first build/i }).count()).toBe(0);
    });

    it("when a channel has no builds, then the app's page shows curl, hangar and fastlane with that channel's key, and the copied hangar command uploads into it", async () => {
      const app = await api('POST', '/api/apps', { token: adminToken(), json: { name: uniqueName('Empty Channel App').replace(/-/g, ' ') } });
      const scheme = await api('POST', `/api/apps/${app.body.id}/schemes`, { token: adminToken(), json: { name: 'Beta', new_build_callout: false } });
      const channel = await api('POST', `/api/schemes/${scheme.body.id}/channels`, { token: adminToken(), json: { name: 'Android', device_type: 'android' } });
      const key: string = channel.body.slug;

      const page = await newPage();
      await signInWith(page, hangar!.baseUrl, 'admin@e2e.test', adminPassword());
      await page.goto(`${hangar!.baseUrl}/apps/${app.body.id}`);
      await atEachSize(page, async ({ width }) => {
        await page.getByRole('heading', { name: /No builds in this channel yet/ }).waitFor();
        expect(await snippet(page, 'curl').innerText()).toContain(`-F channel_key=${key} -F file=@app.apk ${hangar!.baseUrl}/api/apps/upload`);
        expect(await snippet(page, 'hangar CLI').innerText()).toContain(`hangar upload app.apk --channel-key ${key}`);
        const fastlane = await snippet(page, 'fastlane (Zealot plugin)').innerText();
        expect(fastlane).toContain(`endpoint: '${hangar!.baseUrl}'`);
        expect(fastlane).toContain(`channel_key: '${key}'`);
        expect(await fullyOnScreen(page.getByRole('button', { name: 'Copy fastlane action' }), width)).toBe(true);
      });
      await lookAt(page, 'first-run-channel');

      await page.getByRole('button', { name: 'Copy hangar command' }).click();
      const copied = await clipboardText(page);
      expect(copied).toBe(await snippet(page, 'hangar CLI').innerText());
      await runCopied(copied, adminToken());
      await page.reload();
      await page.getByRole('link', { name: '1.2.3 (5)' }).waitFor();
      const versions = await api('GET', `/api/apps/versions?channel_key=${key}`, { token: adminToken() });
      expect(versions.body.releases).toHaveLength(1);
    });

    it('when a member of no app signs in, then the apps page says whom to ask, and shows no upload commands', async () => {
      const page = await newPage();
      await signInWith(page, hangar!.baseUrl, member.email, 'long-enough-pw');
      await atEachSize(page, async () => {
        await page.getByText('Ask an admin to add you to an app').waitFor();
        expect(await page.getByRole('heading', { name: /upload your first build/i }).count()).toBe(0);
      });
    });
  });

  it('when the same installation starts again, then the password is not printed again and the token still is, and Ctrl-C stops it with exit 0 and nothing left running', async () => {
    expect(dataDir).toBeDefined();
    await hangar?.stop();
    hangar = await startHangar(installation, { dataDir: dataDir!, keepDataDir: true });
    const { password, token } = kept();
    const output = hangar.output();
    expect(output).not.toContain(password);
    expect(output).toContain('  password:    printed by the first start, not again\n');
    expect(output).toContain(`  admin token: ${token}\n`);

    const pids = ['gateway', 'users', 'apps', 'releases', 'debug-files', 'webhooks'].flatMap((name) => hangar!.pidsOf(name));
    const code = await hangar.stop();
    hangar = undefined;
    expect(code).toBe(0);
    expect(pids.filter(isProcessRunning)).toEqual([]);
  });
});
