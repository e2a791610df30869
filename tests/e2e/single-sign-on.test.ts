import fs from 'node:fs';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { ApiClient, RunningHangar, apiClient, createUserWithToken, eventuallyValue, startGatewayReplica, startHangar, uniqueName } from '@hangar/testing';
import { cliHome, startCli } from './cli-runner';
import { launchChromium, lookAt } from './console/console-browser';
import { RunningIdentityProvider, startIdentityProvider } from './oidc/identity-provider-process';

const PROVIDER_NAME = 'Example ID';
const STATE_TTL_MS = 20_000;

/**
 * Single sign-on through OpenID Connect against a real OpenID
 * Provider (oidc-provider, started here) and Hangar started as the README
 * does, driven in Chromium through the provider's own login form: first-time
 * provisioning with the default role, an existing account matched by email,
 * a sign-in started on one gateway replica and finished on another,
 * a refused domain, an unverified email, an expired state, a replayed
 * callback, ID tokens that fail verification (forged, expired, for another
 * audience, a replayed nonce — the provider's real answers, altered by it),
 * SSO-only refusing a member's password while an admin's break-glass
 * sign-in works and is audited, and `hangar login --web` receiving a token
 * on its loopback port.
 */
describe('single sign-on through an OpenID provider', () => {
  let provider: RunningIdentityProvider;
  let hangar: RunningHangar;
  let api: ApiClient;
  let browser: Browser;
  let adminId: number;
  /** The expiry test's sign-in, at the provider's login form since beforeAll (its own browser context). */
  let slowSignIn: { page: Page; formShownAt: number };

  beforeAll(async () => {
    provider = await startIdentityProvider();
    hangar = await startHangar({
      OIDC_ISSUER_URL: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_ALLOW_HTTP_ISSUER: 'true',
      OIDC_PROVIDER_NAME: PROVIDER_NAME,
      OIDC_DEFAULT_ROLE: 'developer',
      OIDC_ALLOWED_DOMAINS: 'corp.test, example.com',
      OIDC_SSO_ONLY: 'true',
      OIDC_STATE_TTL_MS: String(STATE_TTL_MS),
    });
    api = apiClient(hangar.baseUrl);
    adminId = (await api('GET', '/api/users/me', { token: hangar.adminToken })).body.id;
    browser = await launchChromium();
    // The state's life (20 s, long enough for every other sign-in here on a busy machine) passes
    // while the other tests run, rather than as 21 s of waiting in the expiry test.
    const slowPage = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await atProviderLoginForm(slowPage);
    slowSignIn = { page: slowPage, formShownAt: Date.now() };
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await hangar?.stop();
    await provider?.stop();
  });

  const contexts: BrowserContext[] = [];
  async function newPage(): Promise<Page> {
    // A context of its own each time: no provider session, so its login form always shows.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    return context.newPage();
  }
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
    await provider.setMode('normal');
  });

  const isCallback = (r: Response) => new URL(r.url()).pathname === '/api/sessions/oidc/callback';

  /** From the console's button to the provider's login form, filled in with this login. */
  async function atProviderLoginForm(page: Page): Promise<void> {
    await page.goto(`${hangar.baseUrl}/`);
    await page.getByRole('link', { name: `Sign in with ${PROVIDER_NAME}` }).click();
    await page.locator('input[name="login"]').waitFor();
  }

  async function submitLogin(page: Page, login: string): Promise<Response> {
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('whatever-the-provider-accepts');
    const callback = page.waitForResponse(isCallback);
    await page.getByRole('button', { name: 'Sign-in' }).click();
    return callback;
  }

  async function signInThroughProvider(page: Page, login: string): Promise<Response> {
    await atProviderLoginForm(page);
    return submitLogin(page, login);
  }

  async function userByEmail(email: string): Promise<{ id: number; role: string } | undefined> {
    const found = await api('GET', `/api/users/search?email=${encodeURIComponent(email)}`, { token: hangar.adminToken });
    expect(found.status).toBe(200);
    return (found.body as { id: number; role: string; email: string }[]).find((u) => u.email === email);
  }

  /** The audit log is fed by a stream: poll until the entry arrives. */
  async function auditEntry(operation: string, matches: (e: { user_id: number | null; status: number; fields: Record<string, string> }) => boolean) {
    const find = async () => {
      const listed = await api('GET', `/api/audit?operation=${operation}&per_page=100`, { token: hangar.adminToken });
      expect(listed.status).toBe(200);
      return (listed.body as Parameters<typeof matches>[0][]).find(matches);
    };
    return (await eventuallyValue(find, (entry) => entry !== undefined, { timeoutMs: 20_000, stepMs: 100, what: `a ${operation} audit entry that matches` }))!;
  }

  /** Who the page's console session belongs to. */
  const sessionUser = (page: Page) =>
    page.evaluate(async () => ((await (await fetch('/api/sessions/current')).json()) as { user: { id: number; role: string; email: string } }).user);

  const refusal = async (page: Page, callback: Response) => ({ status: callback.status(), text: await page.getByRole('alert').innerText() });

  it('when a new person signs in through the provider, then they are created with the default role and hold a session with the same cookie and CSRF rules as a password sign-in', async () => {
    const email = `${uniqueName('newbie').replace(/[^a-z0-9]/g, '')}@corp.test`;
    expect(await userByEmail(email)).toBeUndefined();
    const page = await newPage();
    await page.goto(`${hangar.baseUrl}/`);
    await page.getByRole('link', { name: `Sign in with ${PROVIDER_NAME}` }).waitFor();
    await lookAt(page, 'sign-in-sso');

    const callback = await signInThroughProvider(page, email);
    expect(callback.status()).toBe(303);
    await page.getByRole('heading', { name: 'Apps', exact: true }).waitFor();

    const created = await userByEmail(email);
    expect(created?.role).toBe('developer');
    // The console's own calls: a write with the session's CSRF token is allowed, one without it is not.
    const statuses = await page.evaluate(async () => {
      const session = (await (await fetch('/api/sessions/current')).json()) as { csrf_token: string; user: { email: string } };
      const post = (headers: Record<string, string>, name: string) =>
        fetch('/api/apps', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ name }) }).then((r) => r.status);
      return { email: session.user.email, withCsrf: await post({ 'x-csrf-token': session.csrf_token }, 'SSO app'), withoutCsrf: await post({}, 'SSO app 2') };
    });
    expect(statuses).toEqual({ email, withCsrf: 201, withoutCsrf: 403 });
    const audited = await auditEntry('finishSingleSignOn', (e) => e.user_id === created!.id);
    expect(audited).toMatchObject({ status: 303, fields: { sign_in: 'single_sign_on', created_user: 'true', role: 'developer' } });
  });

  it('when an existing account signs in with its verified email, then it is that account, its role untouched', async () => {
    const carol = await createUserWithToken(api, hangar.adminToken, 'carol', 'member');
    const page = await newPage();
    expect((await signInThroughProvider(page, carol.email)).status()).toBe(303);
    await page.getByRole('heading', { name: 'Apps', exact: true }).waitFor();
    const me = await sessionUser(page);
    expect(me).toEqual(expect.objectContaining({ id: carol.id, role: 'member' }));
  });

  it('when the provider renames a person, then their subject keeps their account; when it names someone new with a bound account\'s email, then the sign-in is refused and audited', async () => {
    const login = `${uniqueName('kim').replace(/[^a-z0-9]/g, '')}@corp.test`;
    const first = await newPage();
    expect((await signInThroughProvider(first, login)).status()).toBe(303);
    const kim = await userByEmail(login);
    expect(kim).toBeDefined();

    // The same address, another subject at the provider (the login's case differs: see identity-provider.mjs).
    const stranger = await newPage();
    const refused = await refusal(stranger, await signInThroughProvider(stranger, login.toUpperCase()));
    expect(refused.status).toBe(403);
    expect(refused.text).toMatch(/belongs to another person at the identity provider/);
    await lookAt(stranger, 'sign-in-sso-refused-bound-email');
    await auditEntry('finishSingleSignOn', (e) => e.status === 403 && /belongs to another person/.test(e.fields.refused ?? ''));

    // Kim's email changes at the provider; the subject does not.
    const renamed = `${uniqueName('kimlee').replace(/[^a-z0-9]/g, '')}@corp.test`;
    await provider.setEmail(login, renamed);
    const again = await newPage();
    expect((await signInThroughProvider(again, login)).status()).toBe(303);
    await again.getByRole('heading', { name: 'Apps', exact: true }).waitFor();
    expect(await sessionUser(again)).toEqual(expect.objectContaining({ id: kim!.id, email: login }));
    expect(await userByEmail(renamed)).toBeUndefined();
  });

  it('when the email is of a domain not allowed, or not verified, then the sign-in is refused with a page that says why, no user is made, and the refusal is audited', async () => {
    const outsider = `${uniqueName('mallory').replace(/[^a-z0-9]/g, '')}@elsewhere.test`;
    const page = await newPage();
    const refused = await refusal(page, await signInThroughProvider(page, outsider));
    expect(refused.status).toBe(403);
    expect(refused.text).toMatch(/elsewhere\.test may not sign in/);
    await page.getByRole('link', { name: 'Back to the sign-in page' }).waitFor();
    expect(await userByEmail(outsider)).toBeUndefined();
    await auditEntry('finishSingleSignOn', (e) => e.status === 403 && /elsewhere\.test/.test(e.fields.refused ?? ''));

    const unverified = `unverified${uniqueName('dan').replace(/[^a-z0-9]/g, '')}@corp.test`;
    const second = await newPage();
    const notVerified = await refusal(second, await signInThroughProvider(second, unverified));
    expect(notVerified.status).toBe(403);
    expect(notVerified.text).toMatch(/is not verified/);
    expect(await userByEmail(unverified)).toBeUndefined();
  });

  it('when a sign-in started on one gateway replica comes back to another, then that one finishes it, and the callback replayed on the first is refused', async () => {
    // Both behind one public URL, as in a Deployment: the first gateway's is the redirect URI of
    // both, so the provider sends the browser back there whichever replica started the sign-in.
    const replica = await startGatewayReplica(hangar, { OIDC_REDIRECT_BASE_URL: hangar.baseUrl });
    try {
      const email = `${uniqueName('replica').replace(/[^a-z0-9]/g, '')}@corp.test`;
      const page = await newPage();
      await page.goto(`${replica.baseUrl}/api/sessions/oidc/start`);
      await page.locator('input[name="login"]').waitFor();
      const callback = await submitLogin(page, email);
      expect({ status: callback.status(), origin: new URL(callback.url()).origin }).toEqual({ status: 303, origin: hangar.baseUrl });
      await page.getByRole('heading', { name: 'Apps', exact: true }).waitFor();
      expect((await userByEmail(email))?.role).toBe('developer');

      const replayed = await apiClient(replica.baseUrl)('GET', new URL(callback.url()).pathname + new URL(callback.url()).search);
      expect(replayed.status).toBe(400);
      expect(replayed.body.error).toMatch(/already used/);
    } finally {
      await replica.stop();
    }
  });

  it('when the callback URL (its code and state) is replayed, in the same browser or another, then it is refused with 400', async () => {
    const email = `${uniqueName('replay').replace(/[^a-z0-9]/g, '')}@corp.test`;
    const page = await newPage();
    const callback = await signInThroughProvider(page, email);
    expect(callback.status()).toBe(303);
    await page.getByRole('heading', { name: 'Apps', exact: true }).waitFor();

    const again = await page.goto(callback.url());
    expect(again?.status()).toBe(400);
    expect(await page.getByRole('alert').innerText()).toMatch(/already used/);
    const elsewhere = await (await newPage()).goto(callback.url());
    expect(elsewhere?.status()).toBe(400);
    // A client that is not a browser reads the contract's JSON.
    const asApi = await api('GET', `/api/sessions/oidc/callback${new URL(callback.url()).search}`);
    expect(asApi.status).toBe(400);
    expect(asApi.body.error).toMatch(/already used/);
  });

  describe('when the provider answers with an ID token that must not be trusted, then the callback is 401 and nobody is signed in or created', () => {
    const cases = [
      { mode: 'forged', reason: /signature/i },
      { mode: 'expired', reason: /"exp"/ },
      { mode: 'wrong-audience', reason: /"aud"/ },
      { mode: 'replayed-nonce', reason: /"nonce"/ },
    ] as const;
    for (const { mode, reason } of cases) {
      it(`${mode}`, async () => {
        // The replayed nonce is that of an earlier real sign-in.
        if (mode === 'replayed-nonce') expect((await signInThroughProvider(await newPage(), `${uniqueName('earlier').replace(/[^a-z0-9]/g, '')}@corp.test`)).status()).toBe(303);
        await provider.setMode(mode);
        const email = `${uniqueName(mode).replace(/[^a-z0-9]/g, '')}@corp.test`;
        const page = await newPage();
        const refused = await refusal(page, await signInThroughProvider(page, email));
        expect(refused.status).toBe(401);
        expect(refused.text).toMatch(/could not be verified/);
        expect(refused.text).toMatch(reason);
        expect(await userByEmail(email)).toBeUndefined();
        const session = await page.evaluate(async () => (await fetch('/api/sessions/current')).status);
        expect(session).toBe(401);
      });
    }
  });

  it('when single sign-on is the only way in, then a member\'s right password is refused, while an admin\'s break-glass sign-in works and is audited as such', async () => {
    const member = await createUserWithToken(api, hangar.adminToken, 'pwmember', 'member');
    const refused = await api('POST', '/api/sessions', { json: { email: member.email, password: 'long-enough-pw' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/Password sign-in is turned off/);
    // A wrong password is still just wrong: the refusal does not tell a guesser the password was right.
    expect((await api('POST', '/api/sessions', { json: { email: member.email, password: 'not-the-password' } })).status).toBe(401);

    const page = await newPage();
    await page.goto(`${hangar.baseUrl}/`);
    await page.getByText('Admin sign-in with a password').click();
    await page.getByLabel('Email').fill('admin@e2e.test');
    await page.getByLabel('Password').fill(hangar.adminPassword);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Apps', exact: true }).waitFor();
    const entry = await auditEntry('signIn', (e) => e.user_id === adminId && e.status === 201);
    expect(entry.fields).toMatchObject({ break_glass: 'true', password: '[redacted]' });
    await auditEntry('signIn', (e) => e.status === 403 && e.fields.email === member.email);
  });

  it('when the console asks how to sign in and starts a sign-on, then it hears the provider and is sent there with PKCE, state and nonce; a callback without a known state is a 400', async () => {
    const options = await api('GET', '/api/sessions/options');
    expect(options.body).toEqual({ password_sign_in: 'admins_only', single_sign_on: { provider_name: PROVIDER_NAME, start_url: '/api/sessions/oidc/start' } });
    const started = await api('GET', '/api/sessions/oidc/start');
    expect(started.status).toBe(302);
    const location = new URL(started.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`${provider.issuer}/auth`);
    expect(Object.fromEntries(['client_id', 'response_type', 'code_challenge_method', 'redirect_uri'].map((k) => [k, location.searchParams.get(k)]))).toEqual({
      client_id: 'hangar',
      response_type: 'code',
      code_challenge_method: 'S256',
      redirect_uri: `${hangar.baseUrl}/api/sessions/oidc/callback`,
    });
    for (const name of ['state', 'nonce', 'code_challenge']) expect(location.searchParams.get(name)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(started.headers.get('set-cookie')).toMatch(/^hangar_sso=[A-Za-z0-9_-]{43}; .*HttpOnly; SameSite=Lax/);

    expect((await api('GET', '/api/sessions/oidc/callback?code=x')).status).toBe(400);
    const unknown = await api('GET', `/api/sessions/oidc/callback?code=x&state=${'A'.repeat(43)}`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/unknown or long expired/);
  });

  it('when `hangar login --web` is run, then the person signs in at the provider in the browser and the CLI keeps a new token of theirs; its one-time code cannot be used again', async () => {
    const home = cliHome();
    try {
      const email = `${uniqueName('cli').replace(/[^a-z0-9]/g, '')}@corp.test`;
      const cli = startCli(['login', '--url', hangar.baseUrl, '--web'], home.env);
      const start = await eventuallyValue(() => /http:\/\/\S+cli_challenge=[A-Za-z0-9_-]{43}/.exec(cli.stderrSoFar())?.[0] ?? '', (url) => url !== '', {
        timeoutMs: 30_000,
        what: 'the sign-in URL the CLI prints',
      }).catch(() => '');
      expect(start).toMatch(/\/api\/sessions\/oidc\/start\?cli_port=\d+&cli_challenge=/);
      const page = await newPage();
      await page.goto(start);
      expect((await submitLogin(page, email)).status()).toBe(303);
      await page.getByRole('heading', { name: 'Signed in' }).waitFor();
      expect(new URL(page.url()).origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

      const done = await cli.result;
      expect({ code: done.code, stderr: done.stderr }).toEqual({ code: 0, stderr: expect.stringMatching(/Logged in to .* as cli/) });
      const kept = JSON.parse(fs.readFileSync(home.configFile, 'utf8')) as { token: string };
      const me = await api('GET', '/api/users/me', { token: kept.token });
      expect(me.body).toMatchObject({ email, role: 'developer' });
      // No console session was started for the CLI's browser.
      expect((await page.context().cookies(hangar.baseUrl)).map((c) => c.name)).not.toContain('hangar_session');

      const code = new URL(page.url()).searchParams.get('code')!;
      const again = await api('POST', '/api/sessions/oidc/cli-token', { json: { code, verifier: 'v'.repeat(64) } });
      expect(again.status).toBe(400);
      await auditEntry('finishSingleSignOn', (e) => e.status === 303 && e.fields.sign_in === 'single_sign_on_cli');
      const redeemed = await auditEntry('redeemCliSignIn', (e) => e.status === 201);
      expect(redeemed.fields).toMatchObject({ code: '[redacted]', verifier: '[redacted]' });
    } finally {
      home.remove();
    }
  });

  it('when a CLI sign-in is started with a port or challenge that is not one, then it is a 422 naming them', async () => {
    const refused = await api('GET', '/api/sessions/oidc/start?cli_port=80&cli_challenge=short');
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.entry).sort()).toEqual(['cli_challenge', 'cli_port']);
  });

  // Last in the file: its sign-in started in beforeAll and has waited out most of the state's life meanwhile.
  it('when the person takes longer than the state lives, then the callback is a 400 that says it expired', async () => {
    const email = `${uniqueName('slow').replace(/[^a-z0-9]/g, '')}@corp.test`;
    const { page, formShownAt } = slowSignIn;
    await page.waitForTimeout(Math.max(0, formShownAt + STATE_TTL_MS + 1_000 - Date.now()));
    const refused = await refusal(page, await submitLogin(page, email));
    expect(refused).toEqual({ status: 400, text: expect.stringMatching(/took too long and has expired/) });
    expect(await userByEmail(email)).toBeUndefined();
  }, 120_000);
});
