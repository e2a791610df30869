import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ApiClient, RunningHangar, TestUser, apiClient, createUserWithToken, fixturesDir, sharedHangar, uniqueName } from '@hangar/testing';
import { launchChromium, lookAt, signIn } from './console/console-browser';

/**
 * The console in Chromium against Hangar started as the README does, as an
 * admin, a developer and a member of one app. Every page is looked at at
 * phone and desktop widths in light and dark (screenshots in
 * test-output/console/) and checked by axe-core; a member sees no edit
 * controls, and the API refuses their forged call anyway.
 */
describe('the console in a browser', () => {
  let hangar: RunningHangar;
  let api: ApiClient;
  let browser: Browser;
  let developer: TestUser;
  let member: TestUser;
  const appName = uniqueName('Console App').replace(/-/g, ' ');
  const fixture = { appId: 0, schemeId: 0, channelKey: '', releaseId: 0 };
  const apk = path.join(fixturesDir(), 'apps', 'android.apk');

  beforeAll(async () => {
    hangar = await sharedHangar();
    api = apiClient(hangar.baseUrl);
    [developer, member] = await Promise.all([createUserWithToken(api, hangar.adminToken, 'dev', 'developer'), createUserWithToken(api, hangar.adminToken, 'member', 'member')]);
    const app = await api('POST', '/api/apps', { token: developer.token, json: { name: appName } });
    fixture.appId = app.body.id;
    const scheme = await api('POST', `/api/apps/${fixture.appId}/schemes`, { token: developer.token, json: { name: 'Beta', new_build_callout: false } });
    fixture.schemeId = scheme.body.id;
    const channel = await api('POST', `/api/schemes/${fixture.schemeId}/channels`, { token: developer.token, json: { name: 'Android', device_type: 'android', git_url: 'https://git.example.com/team/app' } });
    fixture.channelKey = channel.body.slug;
    const build = await api('POST', '/api/apps/upload', {
      token: developer.token,
      form: { channel_key: fixture.channelKey, changelog: '- Faster start', branch: 'release/2.0', git_commit: 'deadbeefcafe', ci_url: 'https://ci.example.com/1' },
      files: { file: { data: fs.readFileSync(apk), fileName: 'android.apk' } },
    });
    expect(build.status).toBe(201);
    fixture.releaseId = build.body.id;
    expect((await api('POST', `/api/apps/${fixture.appId}/collaborators/${member.id}`, { token: developer.token, json: { role: 'member' } })).status).toBe(201);
    browser = await launchChromium();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await hangar?.stop();
  });

  const contexts: BrowserContext[] = [];
  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    return context.newPage();
  }
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });

  const text = (page: Page) => page.locator('main').innerText();

  it('when a wrong password is typed, then the server\'s message shows; with the right one, by keyboard alone, the apps page opens', async () => {
    const page = await newPage();
    await page.goto(`${hangar.baseUrl}/`);
    await page.getByRole('heading', { name: 'Sign in to Hangar' }).waitFor();
    await lookAt(page, 'sign-in');
    await page.getByLabel('Email').fill('admin@e2e.test');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('Email or password is incorrect').waitFor();
    await lookAt(page, 'sign-in-refused');

    await page.reload();
    await page.getByLabel('Email').waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.type('admin@e2e.test');
    await page.keyboard.press('Tab');
    await page.keyboard.type(hangar.adminPassword);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Apps', exact: true }).waitFor();
    // A new page takes the focus, so the next Tab is inside it, not back in the menu.
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.closest("main") !== null')).toBe(true);
    for (let i = 0; i < 6 && (await page.evaluate('document.activeElement.id')) !== 'app-filter'; i += 1) await page.keyboard.press('Tab');
    await page.keyboard.type('no app is called this');
    await page.getByText('No app matches').waitFor();
  });

  it('when the admin walks through apps, an app, a build, settings, debug files, upload, people and their account, then each page shows its data and edit controls', async () => {
    const page = await newPage();
    await signIn(page, hangar.baseUrl, 'admin@e2e.test', hangar.adminPassword);
    await page.getByRole('link', { name: appName }).waitFor();
    await page.getByRole('button', { name: 'Create app' }).waitFor();
    // The newest build of the channel, with its icon.
    await page.getByRole('link', { name: '1.2.3 (5)' }).first().waitFor();
    await lookAt(page, 'apps');
    await page.getByLabel('Filter apps').fill('no app is called this');
    await page.getByText('No app matches').waitFor();
    await page.getByLabel('Filter apps').fill('');

    await page.getByRole('link', { name: appName }).click();
    await page.getByRole('heading', { name: appName }).waitFor();
    await page.getByRole('cell', { name: 'release/2.0' }).waitFor();
    await lookAt(page, 'app');
    // The filter is the server's: a branch no build has empties the list, a commit prefix in
    // any case finds the build, and the filter rides in the URL (a reload keeps it).
    await page.getByLabel('Branch').fill('no-such-branch');
    await page.getByText('No build in this channel matches the filter.').waitFor();
    await page.waitForURL(/branch=no-such-branch/);
    await page.getByLabel('Branch').fill('');
    await page.getByLabel('Commit').fill('DEADBEEF');
    await page.waitForURL(/git_commit=DEADBEEF/);
    await page.reload();
    expect(await page.getByLabel('Commit').inputValue()).toBe('DEADBEEF');
    await page.getByRole('link', { name: '1.2.3 (5)' }).click();

    await page.getByRole('heading', { name: 'Details' }).waitFor();
    const build = await text(page);
    for (const field of ['release/2.0', 'deadbeefcafe', 'https://ci.example.com/1', 'Faster start', 'Android']) expect(build).toContain(field);
    expect(await page.getByRole('link', { name: 'deadbeefcafe' }).getAttribute('href')).toBe('https://git.example.com/team/app/commit/deadbeefcafe');
    // The QR code is its own request: wait for it to load (a loaded machine answers it late), then check it drew.
    await page.locator('.install img').evaluate((img) => {
      const image = img as unknown as { complete: boolean; naturalWidth: number; addEventListener(type: string, listener: () => void): void };
      if (image.complete && image.naturalWidth > 0) return undefined;
      return new Promise<void>((resolve) => {
        image.addEventListener('load', () => resolve());
        image.addEventListener('error', () => resolve());
      });
    });
    expect(await page.locator('.install img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    await page.getByRole('heading', { name: 'Edit this build' }).waitFor();
    await lookAt(page, 'build');

    await page.goto(`${hangar.baseUrl}/apps/${fixture.appId}/settings`);
    await page.getByRole('heading', { name: 'Collaborators' }).waitFor();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByLabel('Webhook URL').fill(`${hangar.baseUrl}/api/health`);
    await page.getByLabel('Message format').selectOption('slack');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByText('it is not shown again').waitFor();
    // The format chosen is the one stored: the list shows it.
    await page.getByText('every event · Slack').waitFor();
    const secret = await page.locator('.secret code').innerText();
    expect(secret.length).toBeGreaterThan(10);
    await lookAt(page, 'settings');
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByText(/Test sent:/).waitFor();
    await page.getByRole('cell', { name: 'webhook.test' }).or(page.getByRole('cell', { name: /test/ })).first().waitFor();
    await lookAt(page, 'settings-deliveries');

    await page.goto(`${hangar.baseUrl}/apps/${fixture.appId}/debug-files`);
    await page.getByRole('heading', { name: 'Upload a debug file' }).waitFor();
    await page.getByLabel('File').setInputFiles(path.join(fixturesDir(), 'proguards', 'single_mapping.zip'));
    await page.getByLabel('Release version (ProGuard)').fill('1.0');
    await page.getByLabel('Build version (ProGuard)').fill('1');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('heading', { name: '1.0 (1)' }).waitFor();
    await lookAt(page, 'debug-files');

    await page.goto(`${hangar.baseUrl}/people`);
    const newcomer = uniqueName('newcomer').replace(/[^a-z0-9]/g, '');
    await page.getByLabel('Name').fill(newcomer);
    await page.getByLabel('Email').fill(`${newcomer}@example.com`);
    await page.getByLabel('Initial password').fill('long-enough-pw');
    await page.getByRole('button', { name: 'Add person' }).click();
    await page.getByRole('cell', { name: `${newcomer}@example.com` }).waitFor();
    await lookAt(page, 'people');

    await page.goto(`${hangar.baseUrl}/account`);
    await page.getByLabel('New token name').fill('laptop');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.locator('.secret code').innerText()).trim();
    expect((await api('GET', '/api/users/me', { token })).body.email).toBe('admin@e2e.test');
    await page.getByText('this device').waitFor();
    await lookAt(page, 'account');
    // The secret is shown once: a reload lists the token without it.
    await page.reload();
    await page.getByRole('button', { name: 'Revoke laptop' }).waitFor();
    expect(await text(page)).not.toContain(token);
  });

  it('when a developer uploads a package from the browser, then progress runs, the build is made, and they can edit it', async () => {
    const page = await newPage();
    await signIn(page, hangar.baseUrl, developer.email, 'long-enough-pw');
    await page.goto(`${hangar.baseUrl}/upload?app=${fixture.appId}`);
    await page.getByText('Drop an .ipa').waitFor();
    await lookAt(page, 'upload');
    await page.locator('#package-file').setInputFiles(apk);
    await page.getByText('Uploaded:').waitFor({ timeout: 60_000 });
    await lookAt(page, 'upload-done');
    await page.getByRole('link', { name: /AppInfoDemo 1\.2\.3 \(5\)/ }).click();
    await page.getByLabel('Branch').fill('main-from-console');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    const versions = await api('GET', `/api/apps/versions?channel_key=${fixture.channelKey}`, { token: developer.token });
    expect(versions.body.releases.map((r: { branch: string }) => r.branch)).toContain('main-from-console');
  });

  it('when the page is reloaded in the middle of an upload, then choosing the same file carries on from where the server stopped and makes the exact build', async () => {
    const page = await newPage();
    await signIn(page, hangar.baseUrl, developer.email, 'long-enough-pw');
    // A slow uplink, so the reload lands mid-way.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 200 * 1024 });
    await page.goto(`${hangar.baseUrl}/upload?app=${fixture.appId}`);
    await page.locator('#package-file').setInputFiles(apk);
    await page.waitForFunction(() => Number((globalThis as unknown as { document: { querySelector(s: string): { value: number } | null } }).document.querySelector('progress')?.value ?? 0) > 1024 * 1024, undefined, {
      timeout: 60_000,
    });
    await page.reload();
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.getByText('did not finish').waitFor();
    await lookAt(page, 'upload-resume');

    const offsets: number[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PATCH' && r.url().includes('/api/uploads/')) offsets.push(Number(r.headers()['upload-offset']));
    });
    await page.locator('#package-file').setInputFiles(apk);
    await page.getByText('Uploaded:').waitFor({ timeout: 60_000 });
    expect(offsets[0]).toBeGreaterThan(0);
    const href = await page.getByRole('link', { name: /AppInfoDemo 1\.2\.3 \(5\)/ }).getAttribute('href');
    const made = await api('GET', `/api/releases/${href!.split('/').pop()}`, { token: developer.token });
    expect(made.body.sha256).toBe(createHash('sha256').update(fs.readFileSync(apk)).digest('hex'));
    // Finished: a later visit has nothing to resume.
    await page.reload();
    await page.getByText('Drop an .ipa').waitFor();
    expect(await page.getByText('did not finish').count()).toBe(0);
  });

  it('when a member opens the same pages, then no edit control shows, and the same write forged with their cookie and CSRF token is refused', async () => {
    const page = await newPage();
    await signIn(page, hangar.baseUrl, member.email, 'long-enough-pw');
    await page.getByRole('link', { name: appName }).waitFor();
    expect(await page.getByRole('button', { name: 'Create app' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'People' }).count()).toBe(0);
    await lookAt(page, 'apps-member');

    await page.goto(`${hangar.baseUrl}/apps/${fixture.appId}`);
    await page.getByRole('cell', { name: 'release/2.0' }).waitFor();
    expect(await page.getByRole('link', { name: 'Settings' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Upload a build' }).count()).toBe(0);

    await page.goto(`${hangar.baseUrl}/builds/${fixture.releaseId}`);
    await page.getByRole('heading', { name: 'Details' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Edit this build' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Delete/ }).count()).toBe(0);
    await lookAt(page, 'build-member');

    await page.goto(`${hangar.baseUrl}/apps/${fixture.appId}/debug-files`);
    await page.getByLabel('Find by UUID or debug id').waitFor();
    expect(await page.getByRole('heading', { name: 'Upload a debug file' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);

    // What the hidden Delete button would have sent, sent anyway from the member's page.
    const forged = (await page.evaluate(`(async () => {
      const session = await (await fetch('/api/sessions/current')).json();
      const res = await fetch('/api/releases/${fixture.releaseId}', { method: 'DELETE', headers: { 'X-CSRF-Token': session.csrf_token } });
      return { status: res.status, body: await res.json() };
    })()`)) as { status: number; body: { error: string } };
    expect(forged.status).toBe(403);
    expect(forged.body.error).toEqual(expect.any(String));
    expect((await api('GET', `/api/releases/${fixture.releaseId}`, { token: developer.token })).status).toBe(200);
  });

  it('when a call fails, then the page shows the server\'s message, not a blank page', async () => {
    const page = await newPage();
    await signIn(page, hangar.baseUrl, member.email, 'long-enough-pw');
    const answer = await api('GET', '/api/releases/987654321', { token: member.token });
    expect(answer.status).toBe(404);
    await page.goto(`${hangar.baseUrl}/builds/987654321`);
    await page.getByRole('alert').getByText(answer.body.error).waitFor();
    await page.getByRole('button', { name: 'Try again' }).waitFor();
    await lookAt(page, 'error');
  });
});
