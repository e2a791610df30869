import { ApiClient, ApiResponse, RunningHangar, TestUser, apiClient, createUserWithToken, startHangar, uniqueName } from '@hangar/testing';

/**
 * The console's sign-in over HTTP, against Hangar started as the README does:
 * the session cookie stands in for a token with the same answers and the same
 * permissions, every cookie write needs its CSRF token, revocation holds at
 * once, and sign-in attempts are limited.
 */
describe('console sessions over HTTP', () => {
  const MAX_ATTEMPTS = 3;
  let hangar: RunningHangar;
  let api: ApiClient;
  let developer: TestUser;
  let member: TestUser;

  beforeAll(async () => {
    // TRUSTED_PROXIES: the X-Forwarded-Proto of the Secure-cookie check below is believed from loopback only so.
    hangar = await startHangar({ SIGN_IN_MAX_ATTEMPTS: String(MAX_ATTEMPTS), SIGN_IN_WINDOW_MS: '600000', TRUSTED_PROXIES: 'loopback' });
    api = apiClient(hangar.baseUrl);
    [developer, member] = await Promise.all([createUserWithToken(api, hangar.adminToken, 'dev', 'developer'), createUserWithToken(api, hangar.adminToken, 'member', 'member')]);
  });

  afterAll(async () => {
    await hangar?.stop();
  });

  interface Signed {
    cookie: string;
    csrf: string;
    res: ApiResponse;
  }

  async function signIn(email: string, password = 'long-enough-pw', headers: Record<string, string> = {}): Promise<Signed> {
    const res = await api('POST', '/api/sessions', { json: { email, password }, headers: { 'user-agent': 'console-test', ...headers } });
    expect(res.status).toBe(201);
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('hangar_session='))!;
    return { cookie: setCookie.split(';')[0]!, csrf: res.body.csrf_token, res };
  }

  /** A request as the browser makes it: the cookie, and the CSRF header when given. */
  const asBrowser = (signed: Signed, withCsrf = true) => ({ cookie: signed.cookie, ...(withCsrf ? { 'x-csrf-token': signed.csrf } : {}) });

  it('when a user signs in, then the cookie is HttpOnly, SameSite=Lax, Path=/ and only Secure behind HTTPS', async () => {
    const plain = await signIn(developer.email);
    const flags = plain.res.headers.getSetCookie().find((c) => c.startsWith('hangar_session='))!;
    expect(flags).toMatch(/; HttpOnly/);
    expect(flags).toMatch(/; SameSite=Lax/);
    expect(flags).toMatch(/; Path=\//);
    expect(flags).not.toMatch(/; Secure/);
    expect(plain.res.body.user).toMatchObject({ id: developer.id, email: developer.email });
    expect(plain.res.text).not.toContain(plain.cookie.split('=')[1]);

    const proxied = await signIn(developer.email, 'long-enough-pw', { 'x-forwarded-proto': 'https' });
    expect(proxied.res.headers.getSetCookie().find((c) => c.startsWith('hangar_session='))).toMatch(/; Secure/);
  });

  it('when the cookie is sent instead of a token, then the answers are the same as with the token', async () => {
    const signed = await signIn(developer.email);
    for (const path of ['/api/users/me', '/api/apps', '/api/users/me/tokens']) {
      const byCookie = await api('GET', path, { headers: asBrowser(signed, false) });
      const byToken = await api('GET', path, { token: developer.token });
      expect({ path, status: byCookie.status }).toEqual({ path, status: 200 });
      expect(byCookie.body).toEqual(byToken.body);
    }
    const current = await api('GET', '/api/sessions/current', { headers: asBrowser(signed, false) });
    expect(current.status).toBe(200);
    expect(current.body.csrf_token).toBe(signed.csrf);
    // A token alone has no session to report.
    expect((await api('GET', '/api/sessions/current', { token: developer.token })).status).toBe(401);
  });

  it('when a cookie-authenticated write lacks the CSRF token or sends a wrong one, then 403 in the contract shape and nothing is created', async () => {
    const signed = await signIn(developer.email);
    const count = async () => Number((await api('GET', '/api/apps?per_page=1', { token: developer.token })).headers.get('x-total-count'));
    const before = await count();
    for (const headers of [asBrowser(signed, false), { ...asBrowser(signed, false), 'x-csrf-token': 'not-the-token' }]) {
      const refused = await api('POST', '/api/apps', { json: { name: uniqueName('csrf') }, headers });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatch(/X-CSRF-Token/);
      expect(Object.keys(refused.body).every((k) => k === 'error' || k === 'entry')).toBe(true);
    }
    expect(await count()).toBe(before);
    const made = await api('POST', '/api/apps', { json: { name: uniqueName('csrf') }, headers: asBrowser(signed) });
    expect(made.status).toBe(201);
    expect(await count()).toBe(before + 1);
  });

  it('when a member forges a write with their cookie and CSRF token, then the API refuses it as it refuses their token', async () => {
    const signed = await signIn(member.email);
    const byCookie = await api('POST', '/api/apps', { json: { name: uniqueName('forged') }, headers: asBrowser(signed) });
    const byToken = await api('POST', '/api/apps', { json: { name: uniqueName('forged') }, token: member.token });
    expect(byCookie.status).toBe(403);
    expect(byCookie.body).toEqual(byToken.body);
  });

  it('when a token is sent with another user\'s cookie, then the token decides who the caller is', async () => {
    const signed = await signIn(member.email);
    const me = await api('GET', '/api/users/me', { token: developer.token, headers: asBrowser(signed) });
    expect(me.body.id).toBe(developer.id);
  });

  it('when a session is revoked from another one, then its cookie stops working at once; sign-out clears the cookie', async () => {
    const laptop = await signIn(developer.email);
    const phone = await signIn(developer.email);
    const listed = await api('GET', '/api/sessions', { headers: asBrowser(laptop, false) });
    const phoneId: number = phone.res.body.session.id;
    expect(listed.body.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(listed.body.map((s: { id: number }) => s.id)).toContain(phoneId);
    expect(listed.text).not.toContain(phone.cookie.split('=')[1]);

    expect((await api('DELETE', `/api/sessions/${phoneId}`, { headers: asBrowser(laptop) })).status).toBe(200);
    expect((await api('GET', '/api/users/me', { headers: asBrowser(phone, false) })).status).toBe(401);

    const out = await api('DELETE', '/api/sessions/current', { headers: asBrowser(laptop) });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().find((c) => c.startsWith('hangar_session='))).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect((await api('GET', '/api/users/me', { headers: asBrowser(laptop, false) })).status).toBe(401);
    // Another user's session id is not found, not ended.
    const other = await signIn(member.email);
    const otherId = (await api('GET', '/api/sessions/current', { headers: asBrowser(other, false) })).body.session.id;
    expect((await api('DELETE', `/api/sessions/${otherId}`, { token: developer.token })).status).toBe(404);
    expect((await api('GET', '/api/users/me', { headers: asBrowser(other, false) })).status).toBe(200);
  });

  it('when the password is changed, then a wrong current one is refused, the other sessions end, this one stays, and the new one signs in', async () => {
    const user = await createUserWithToken(api, hangar.adminToken, 'pw', 'member');
    const here = await signIn(user.email);
    const elsewhere = await signIn(user.email);
    const wrong = await api('PUT', '/api/users/me/password', { json: { current_password: 'nope-nope-nope', password: 'brand-new-pw-1' }, headers: asBrowser(here) });
    expect(wrong.status).toBe(422);
    expect(wrong.body.entry).toEqual({ current_password: ['is incorrect'] });
    const changed = await api('PUT', '/api/users/me/password', { json: { current_password: 'long-enough-pw', password: 'brand-new-pw-1' }, headers: asBrowser(here) });
    expect([changed.status, changed.body]).toEqual([200, { mesage: 'OK', sessions_ended: 'others' }]);
    expect((await api('GET', '/api/users/me', { headers: asBrowser(elsewhere, false) })).status).toBe(401);
    expect((await api('GET', '/api/users/me', { headers: asBrowser(here, false) })).status).toBe(200);
    await signIn(user.email, 'brand-new-pw-1');
  });

  it("when a user changes their own password with PUT /api/users/me from a session, then their other sessions end, this one stays, and the answer says so", async () => {
    const user = await createUserWithToken(api, hangar.adminToken, 'selfput', 'member');
    const here = await signIn(user.email);
    const elsewhere = await signIn(user.email);
    // The seed sends the password with every update: the same one again is no change and ends nothing.
    const same = await api('PUT', '/api/users/me', { json: { username: user.username, email: user.email, password: 'long-enough-pw', locale: 'en' }, headers: asBrowser(here) });
    expect(same.status).toBe(200);
    expect(same.body).not.toHaveProperty('sessions_ended');
    expect((await api('GET', '/api/users/me', { headers: asBrowser(elsewhere, false) })).status).toBe(200);

    const changed = await api('PUT', '/api/users/me', { json: { username: user.username, email: user.email, password: 'brand-new-pw-2' }, headers: asBrowser(here) });
    expect([changed.status, changed.body.sessions_ended]).toEqual([200, 'others']);
    expect((await api('GET', '/api/users/me', { headers: asBrowser(elsewhere, false) })).status).toBe(401);
    expect((await api('GET', '/api/users/me', { headers: asBrowser(here, false) })).status).toBe(200);
    await signIn(user.email, 'brand-new-pw-2');
  });

  it("when an admin resets another user's password (PUT or PATCH), then every session of that user ends", async () => {
    const user = await createUserWithToken(api, hangar.adminToken, 'reset', 'member');
    const laptop = await signIn(user.email);
    const phone = await signIn(user.email);
    const reset = await api('PUT', `/api/users/${user.id}`, { token: hangar.adminToken, form: { username: user.username, email: user.email, password: 'reset-by-admin-1' } });
    expect([reset.status, reset.body.sessions_ended]).toEqual([200, 'all']);
    for (const session of [laptop, phone]) expect((await api('GET', '/api/users/me', { headers: asBrowser(session, false) })).status).toBe(401);

    const again = await signIn(user.email, 'reset-by-admin-1');
    const patched = await api('PATCH', `/api/users/${user.id}`, { token: hangar.adminToken, json: { password: 'reset-by-admin-2' } });
    expect([patched.status, patched.body.sessions_ended]).toEqual([200, 'all']);
    expect((await api('GET', '/api/users/me', { headers: asBrowser(again, false) })).status).toBe(401);
    await signIn(user.email, 'reset-by-admin-2');
  });

  it('when another site posts a sign-in (login CSRF), then 403 in the contract shape and no session; the same origin and no Origin sign in', async () => {
    const user = await createUserWithToken(api, hangar.adminToken, 'logincsrf', 'member');
    const crossSite: Record<string, string>[] = [{ origin: 'https://evil.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }, { origin: hangar.baseUrl, 'sec-fetch-site': 'same-site' }];
    for (const headers of crossSite) {
      const refused = await api('POST', '/api/sessions', { form: { email: user.email, password: 'long-enough-pw' }, headers });
      expect([headers, refused.status, Object.keys(refused.body)]).toEqual([headers, 403, ['error']]);
      expect(refused.body.error).toMatch(/another site/);
      expect(refused.headers.getSetCookie().some((c) => c.startsWith('hangar_session='))).toBe(false);
    }
    const sessions = await api('GET', '/api/sessions', { token: user.token });
    expect(sessions.body).toEqual([]);
    // More refusals than the attempt limit, yet the user still signs in: they were no attempts.
    await signIn(user.email, 'long-enough-pw', { origin: hangar.baseUrl, 'sec-fetch-site': 'same-origin' });
    await signIn(user.email, 'long-enough-pw', { 'sec-fetch-site': 'none' });
    await signIn(user.email);
  });

  it('when sign-in is attempted too often for one email, then 429 with Retry-After, even with the right password', async () => {
    const user = await createUserWithToken(api, hangar.adminToken, 'limited', 'member');
    for (let i = 0; i < MAX_ATTEMPTS; i += 1) {
      const res = await api('POST', '/api/sessions', { json: { email: user.email, password: 'wrong-password' } });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('Email or password is incorrect');
    }
    const limited = await api('POST', '/api/sessions', { json: { email: user.email, password: 'long-enough-pw' } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(500);
    expect(limited.body.error).toMatch(/Too many sign-in attempts/);
    expect(limited.headers.getSetCookie()).toEqual([]);
    // Another account is not held back by this one's guesses.
    await signIn(developer.email);
  });
});
