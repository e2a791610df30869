import { ApiResponse, RunningHangar, apiClient, sharedHangar } from '@hangar/testing';

/**
 * Users and personal access tokens through every layer: HTTP → gateway →
 * gRPC → users service → FerretDB, started as the README starts Hangar.
 */
describe('users and tokens over HTTP', () => {
  let hangar: RunningHangar;
  let api: ReturnType<typeof apiClient>;
  let admin: string;

  beforeAll(async () => {
    hangar = await sharedHangar();
    api = apiClient(hangar.baseUrl);
    admin = hangar.adminToken;
  });

  afterAll(async () => {
    await hangar?.stop();
  });

  let seq = 0;
  async function createUser(fields: Record<string, string> = {}): Promise<{ id: number; token: string; email: string; password: string }> {
    seq += 1;
    const email = `user${seq}-${Date.now()}@example.com`;
    const password = `pw-${seq}-long-enough`;
    const created = await api('POST', '/api/users', { token: admin, form: { username: `user${seq}x${Date.now()}`, email, password, ...fields } });
    expect(created.status).toBe(201);
    const token = await api('POST', `/api/users/${created.body.id}/tokens`, { token: admin, form: { name: 'test' } });
    expect(token.status).toBe(201);
    return { id: created.body.id, token: token.body.token, email, password };
  }

  function expectNoSecrets(res: ApiResponse): void {
    // A "password" key, not the word: the caller's own answer says must_change_password.
    expect(res.text).not.toMatch(/"password"|passwordHash|password_hash|tokenHash|scrypt\$/i);
  }

  describe('authentication', () => {
    it('when the token comes as a Bearer header, a query parameter or a form field, then each is accepted', async () => {
      expect((await api('GET', '/api/users/me', { token: admin })).status).toBe(200);
      expect((await api('GET', `/api/users/me?token=${admin}`)).status).toBe(200);
      const viaForm = await api('POST', '/api/users', {
        form: { token: admin, username: `formuser${Date.now()}`, email: `form${Date.now()}@example.com`, password: 'long-enough-1' },
      });
      expect(viaForm.status).toBe(201);
    });

    it('when no token or a wrong one is sent, then 401 with an error body', async () => {
      const none = await api('GET', '/api/users/me');
      expect(none.status).toBe(401);
      expect(typeof none.body.error).toBe('string');
      const wrong = await api('GET', '/api/users/me', { token: 'hgr_not-a-real-token' });
      expect(wrong.status).toBe(401);
    });

    it('when the bootstrap admin reads itself, then it is the admin from HANGAR_ADMIN_EMAIL', async () => {
      const me = await api('GET', '/api/users/me', { token: admin });
      // Its password was given (HANGAR_ADMIN_PASSWORD), not generated: nothing to change.
      expect(me.body).toMatchObject({ email: 'admin@e2e.test', role: 'admin', username: 'admin', must_change_password: false });
      expectNoSecrets(me);
    });
  });

  describe('user management', () => {
    it('when an admin creates, reads, updates and deletes a user, then each step answers the seed shape', async () => {
      const email = `crud${Date.now()}@Example.com`;
      const created = await api('POST', '/api/users', {
        token: admin,
        json: { username: `crud${Date.now()}`, email, password: 'a-long-password', locale: 'zh-CN', appearance: 'dark', timezone: 'Asia/Shanghai', role: 'user' },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ email: email.toLowerCase(), locale: 'zh-CN', appearance: 'dark', timezone: 'Asia/Shanghai', role: 'member' });
      expect(Object.keys(created.body).sort()).toEqual(['appearance', 'created_at', 'email', 'id', 'locale', 'role', 'timezone', 'updated_at', 'username']);
      expectNoSecrets(created);

      const got = await api('GET', `/api/users/${created.body.id}`, { token: admin });
      expect(got.status).toBe(200);
      expect(got.body.id).toBe(created.body.id);

      const updated = await api('PUT', `/api/users/${created.body.id}`, {
        token: admin,
        urlencoded: { username: created.body.username, email: created.body.email, password: 'another-long-one', role: 'developer' },
      });
      expect(updated.status).toBe(200);
      expect(updated.body.role).toBe('developer');

      const deleted = await api('DELETE', `/api/users/${created.body.id}`, { token: admin });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ mesage: 'OK' });
      expect((await api('GET', `/api/users/${created.body.id}`, { token: admin })).status).toBe(404);
    });

    it('when a user is deleted, then their tokens stop working and the email can be used again', async () => {
      const user = await createUser();
      expect((await api('GET', '/api/users/me', { token: user.token })).status).toBe(200);
      expect((await api('DELETE', `/api/users/${user.id}`, { token: admin })).status).toBe(200);
      expect((await api('GET', '/api/users/me', { token: user.token })).status).toBe(401);
      const again = await api('POST', '/api/users', { token: admin, form: { username: `reuse${Date.now()}`, email: user.email, password: 'long-enough-2' } });
      expect(again.status).toBe(201);
    });

    it('when the list is paged, then X-Total-Count and Link headers describe the pages', async () => {
      await createUser();
      await createUser();
      const res = await api('GET', `/api/users?page=1&per_page=1&token=${admin}`);
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(1);
      const total = Number(res.headers.get('x-total-count'));
      expect(total).toBeGreaterThanOrEqual(3);
      const link = res.headers.get('link') ?? '';
      expect(link).toContain('rel="next"');
      expect(link).toContain(`page=${total}&per_page=1>; rel="last"`);
      expect(link).not.toContain('token=');
    });

    it('when page or per_page is out of range or not a number, then 422 names the parameter', async () => {
      for (const query of ['page=0', 'per_page=101', 'per_page=abc', 'page=-1']) {
        const res = await api('GET', `/api/users?${query}`, { token: admin });
        expect(res.status).toBe(422);
        expect(Object.keys(res.body.entry)).toEqual([query.split('=')[0]]);
      }
    });

    it('when searching by email, then the admin finds the user regardless of case', async () => {
      const user = await createUser();
      const res = await api('GET', `/api/users/search?email=${encodeURIComponent(user.email.toUpperCase())}`, { token: admin });
      expect(res.status).toBe(200);
      expect(res.body.map((u: { id: number }) => u.id)).toEqual([user.id]);
      const none = await api('GET', '/api/users/search?email=nobody@example.com', { token: admin });
      expect(none.body).toEqual([]);
    });
  });

  describe('bad input changes nothing', () => {
    it('when fields are invalid, then 422 lists every problem and no user is created', async () => {
      const before = Number((await api('GET', '/api/users', { token: admin })).headers.get('x-total-count'));
      const res = await api('POST', '/api/users', {
        token: admin,
        form: { username: 'ok-name', email: 'not-an-email', password: 'short', locale: 'fr', appearance: 'neon', timezone: 'Mars/Olympus', role: 'owner' },
      });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.entry).sort()).toEqual(['appearance', 'email', 'locale', 'password', 'role', 'timezone']);
      const after = Number((await api('GET', '/api/users', { token: admin })).headers.get('x-total-count'));
      expect(after).toBe(before);
    });

    it('when a password is long but of fewer than 5 different characters, then 422 says it is too weak and no user is made', async () => {
      const name = `weak${Date.now()}`;
      const res = await api('POST', '/api/users', { token: admin, form: { username: name, email: `${name}@example.com`, password: '121212121212' } });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: expect.any(String), entry: { password: [expect.stringMatching(/too weak/)] } });
      expect((await api('GET', `/api/users/search?email=${name}@example.com`, { token: admin })).body).toEqual([]);
    });

    it('when required fields are missing, then 422 names them', async () => {
      const res = await api('POST', '/api/users', { token: admin, form: { username: 'only-name' } });
      expect(res.status).toBe(422);
      expect(res.body.entry).toEqual({ email: ["can't be blank"], password: ["can't be blank"] });
    });

    it('when a JSON field has the wrong type, then 422 names it', async () => {
      const res = await api('POST', '/api/users', { token: admin, json: { username: 'typed', email: 42, password: ['x'] } });
      expect(res.status).toBe(422);
      expect(res.body.entry).toMatchObject({ email: ['must be a string'], password: ['must be a string'] });
    });

    it('when the email or username is taken, then 409 and the first user is untouched', async () => {
      const user = await createUser();
      const res = await api('POST', '/api/users', { token: admin, form: { username: `other${Date.now()}`, email: user.email, password: 'long-enough-3' } });
      expect(res.status).toBe(409);
      expect(res.body.entry).toEqual({ email: ['has already been taken'] });
    });

    it('when an id is not an integer, then 422; when it does not exist, then 404', async () => {
      expect((await api('GET', '/api/users/abc', { token: admin })).status).toBe(422);
      expect((await api('GET', '/api/users/1.5', { token: admin })).status).toBe(422);
      expect((await api('GET', '/api/users/999999', { token: admin })).status).toBe(404);
    });

    it('when the body is malformed JSON or multipart, then 400', async () => {
      const json = await api('POST', '/api/users', { token: admin, headers: { 'content-type': 'application/json' }, rawBody: '{"username":' });
      expect(json.status).toBe(400);
      const multipart = await api('POST', '/api/users', {
        token: admin,
        headers: { 'content-type': 'multipart/form-data' },
        rawBody: 'garbage',
      });
      expect(multipart.status).toBe(400);
      expect(typeof multipart.body.error).toBe('string');
    });
  });

  describe('permissions', () => {
    it('when a member manages other users, then 403 and nothing changes', async () => {
      const member = await createUser();
      const other = await createUser();
      expect((await api('GET', '/api/users', { token: member.token })).status).toBe(403);
      expect((await api('POST', '/api/users', { token: member.token, form: { username: 'nope1', email: 'nope1@example.com', password: 'long-enough-4' } })).status).toBe(403);
      expect((await api('GET', `/api/users/${other.id}`, { token: member.token })).status).toBe(403);
      expect((await api('DELETE', `/api/users/${other.id}`, { token: member.token })).status).toBe(403);
      expect((await api('GET', '/api/users/search?email=x@example.com', { token: member.token })).status).toBe(403);
      expect((await api('GET', `/api/users/${other.id}`, { token: admin })).status).toBe(200);
    });

    it('when a user updates themselves, then it works, but raising their own role is 403', async () => {
      const user = await createUser();
      const me = (await api('GET', '/api/users/me', { token: user.token })).body;
      const ok = await api('PUT', `/api/users/${user.id}`, {
        token: user.token,
        form: { username: me.username, email: me.email, password: 'changed-password', timezone: 'Asia/Tokyo' },
      });
      expect(ok.status).toBe(200);
      expect(ok.body.timezone).toBe('Asia/Tokyo');
      // Answers come in the viewer's time zone.
      expect(ok.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+09:00$/);
      const raise = await api('PUT', `/api/users/${user.id}`, {
        token: user.token,
        form: { username: me.username, email: me.email, password: 'changed-password', role: 'admin' },
      });
      expect(raise.status).toBe(403);
      expect((await api('GET', '/api/users/me', { token: user.token })).body.role).toBe('member');
    });

    it('when the last admin would be demoted or deleted, then it is refused', async () => {
      const me = (await api('GET', '/api/users/me', { token: admin })).body;
      const demote = await api('PUT', `/api/users/${me.id}`, {
        token: admin,
        form: { username: me.username, email: me.email, password: hangar.adminPassword, role: 'member' },
      });
      expect(demote.status).toBe(422);
      expect((await api('DELETE', `/api/users/${me.id}`, { token: admin })).status).toBe(422);
    });
  });

  describe('tokens', () => {
    it('when a token is created, then its value is shown once and never listed', async () => {
      const user = await createUser();
      const created = await api('POST', '/api/users/me/tokens', { token: user.token, json: { name: 'ci' } });
      expect(created.status).toBe(201);
      expect(created.body.token).toMatch(/^hgr_[A-Za-z0-9]{40}$/);
      const listed = await api('GET', '/api/users/me/tokens', { token: user.token });
      expect(listed.status).toBe(200);
      expect(listed.body.map((t: { name: string }) => t.name)).toEqual(['test', 'ci']);
      expect(listed.text).not.toContain(created.body.token);
      expect((await api('GET', '/api/users/me', { token: created.body.token })).status).toBe(200);
    });

    it('when a token is revoked, then it stops working at once', async () => {
      const user = await createUser();
      const extra = await api('POST', `/api/users/${user.id}/tokens`, { token: user.token, form: { name: 'temp' } });
      expect((await api('GET', '/api/users/me', { token: extra.body.token })).status).toBe(200);
      const revoked = await api('DELETE', `/api/users/${user.id}/tokens/${extra.body.id}`, { token: user.token });
      expect(revoked.status).toBe(200);
      expect((await api('GET', '/api/users/me', { token: extra.body.token })).status).toBe(401);
      expect((await api('GET', '/api/users/me', { token: user.token })).status).toBe(200);
    });

    it("when a user touches another user's tokens, then 403; an admin may", async () => {
      const a = await createUser();
      const b = await createUser();
      expect((await api('GET', `/api/users/${b.id}/tokens`, { token: a.token })).status).toBe(403);
      expect((await api('POST', `/api/users/${b.id}/tokens`, { token: a.token, form: { name: 'x' } })).status).toBe(403);
      expect((await api('GET', `/api/users/${b.id}/tokens`, { token: admin })).status).toBe(200);
    });
  });
});
