import { RunningHangar, apiClient, sharedHangar } from '@hangar/testing';

/**
 * Apps, schemes, channels and collaborators through HTTP: create → list →
 * get → update → delete, with the three body encodings Zealot clients and
 * scripts use (multipart, urlencoded, JSON), and bad input that changes nothing.
 */
describe('apps, schemes, channels and collaborators over HTTP', () => {
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
  async function createUser(role = 'developer'): Promise<{ id: number; token: string; username: string; email: string }> {
    seq += 1;
    const username = `crud${seq}x${Date.now()}`;
    const email = `${username}@example.com`;
    const user = await api('POST', '/api/users', { token: admin, form: { username, email, password: 'long-enough-pw', role } });
    expect(user.status).toBe(201);
    const token = await api('POST', `/api/users/${user.body.id}/tokens`, { token: admin, form: { name: 'crud' } });
    return { id: user.body.id, token: token.body.token, username, email };
  }

  async function newApp(token: string, name = `app-${Date.now()}-${++seq}`) {
    const res = await api('POST', '/api/apps', { token, form: { name } });
    expect(res.status).toBe(201);
    return res.body as { id: number; name: string };
  }

  describe('apps', () => {
    it('when an app is created, listed, read, renamed twice and deleted, then each step answers the seed shape', async () => {
      const dev = await createUser();
      const created = await api('POST', '/api/apps', { token: dev.token, form: { name: 'Multipart App' } });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(Number),
        name: 'Multipart App',
        schemes: [],
        collaborators: [{ id: dev.id, username: dev.username, email: dev.email, role: 'admin' }],
      });
      const id = created.body.id;

      const list = await api('GET', '/api/apps', { token: dev.token });
      expect(list.status).toBe(200);
      expect(list.body).toEqual([{ id, name: 'Multipart App', schemes: [] }]);
      expect(list.headers.get('x-total-count')).toBe('1');
      expect(list.headers.get('link')).toContain('rel="last"');

      const got = await api('GET', `/api/apps/${id}`, { token: dev.token });
      expect(got.status).toBe(200);
      expect(got.body).toEqual(created.body);

      const viaForm = await api('PUT', `/api/apps/${id}`, { token: dev.token, urlencoded: { name: 'Urlencoded App' } });
      expect(viaForm.status).toBe(200);
      expect(viaForm.body).toMatchObject({ id, name: 'Urlencoded App', collaborators: [expect.objectContaining({ id: dev.id })] });
      const viaJson = await api('PUT', `/api/apps/${id}`, { token: dev.token, json: { name: 'JSON App' } });
      expect(viaJson.body.name).toBe('JSON App');
      expect((await api('GET', `/api/apps/${id}`, { token: dev.token })).body.name).toBe('JSON App');

      const deleted = await api('DELETE', `/api/apps/${id}`, { token: dev.token });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ mesage: 'OK' });
      expect((await api('GET', `/api/apps/${id}`, { token: dev.token })).status).toBe(404);
      expect((await api('DELETE', `/api/apps/${id}`, { token: dev.token })).status).toBe(404);
    });

    it('when apps are listed page by page, then newest come first with X-Total-Count and Link', async () => {
      const dev = await createUser();
      const first = await newApp(dev.token, 'first');
      const second = await newApp(dev.token, 'second');
      const third = await newApp(dev.token, 'third');
      const page1 = await api('GET', `/api/apps?page=1&per_page=2&token=${dev.token}`);
      expect(page1.body.map((a: { id: number }) => a.id)).toEqual([third.id, second.id]);
      expect(page1.headers.get('x-total-count')).toBe('3');
      expect(page1.headers.get('link')).toContain('rel="next"');
      expect(page1.headers.get('link')).not.toContain('token=');
      const page2 = await api('GET', '/api/apps?page=2&per_page=2', { token: dev.token });
      expect(page2.body.map((a: { id: number }) => a.id)).toEqual([first.id]);
      expect((await api('GET', '/api/apps?per_page=0', { token: dev.token })).status).toBe(422);
    });

    it('when the app name is missing or ids are not integers, then 422 names the field; unknown ids are 404', async () => {
      const dev = await createUser();
      const before = (await api('GET', '/api/apps', { token: dev.token })).body.length;
      const missing = await api('POST', '/api/apps', { token: dev.token, form: {} });
      expect(missing.status).toBe(422);
      expect(missing.body.entry).toEqual({ name: ["can't be blank"] });
      const wrongType = await api('POST', '/api/apps', { token: dev.token, json: { name: 42 } });
      expect(wrongType.status).toBe(422);
      expect(Object.keys(wrongType.body.entry)).toEqual(['name']);
      expect((await api('GET', '/api/apps', { token: dev.token })).body.length).toBe(before);
      const notInt = await api('GET', '/api/apps/abc', { token: dev.token });
      expect(notInt.status).toBe(422);
      expect(Object.keys(notInt.body.entry)).toEqual(['id']);
      expect((await api('GET', '/api/apps/99999999', { token: dev.token })).status).toBe(404);
      expect((await api('PUT', '/api/apps/99999999', { token: dev.token, form: { name: 'x' } })).status).toBe(404);
    });

    it('when the channel_key paths under /api/apps are asked without a token, then these routes do not claim them', async () => {
      for (const path of ['/api/apps/versions', '/api/apps/latest', '/api/apps/version_exist']) {
        const res = await api('GET', `${path}?channel_key=nope`);
        expect({ path, status: res.status }).not.toEqual({ path, status: 401 });
        expect(res.body?.entry?.id).toBeUndefined();
      }
    });
  });

  describe('schemes', () => {
    it('when schemes are created with each encoding, listed, read, updated and deleted, then the flags are coerced and stored', async () => {
      const dev = await createUser();
      const app = await newApp(dev.token);
      const defaults = await api('POST', `/api/apps/${app.id}/schemes`, { token: dev.token, form: { name: 'Defaults' } });
      expect(defaults.status).toBe(201);
      expect(defaults.body).toEqual({ id: expect.any(Number), name: 'Defaults', new_build_callout: true, retained_builds: 0, channels: [] });
      const form = await api('POST', `/api/apps/${app.id}/schemes`, { token: dev.token, urlencoded: { name: 'Form', new_build_callout: '0', retained_builds: '5' } });
      expect(form.body).toMatchObject({ new_build_callout: false, retained_builds: 5 });
      const json = await api('POST', `/api/apps/${app.id}/schemes`, { token: dev.token, json: { name: 'JSON', new_build_callout: false, retained_builds: 3 } });
      expect(json.body).toMatchObject({ new_build_callout: false, retained_builds: 3 });

      const list = await api('GET', `/api/apps/${app.id}/schemes`, { token: dev.token });
      expect(list.body.map((s: { name: string }) => s.name)).toEqual(['Defaults', 'Form', 'JSON']);
      expect((await api('GET', `/api/schemes/${form.body.id}`, { token: dev.token })).body).toEqual(form.body);

      const updated = await api('PUT', `/api/schemes/${form.body.id}`, { token: dev.token, form: { new_build_callout: 'true' } });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ name: 'Form', new_build_callout: true, retained_builds: 5 });
      const renamed = await api('PUT', `/api/schemes/${form.body.id}`, { token: dev.token, json: { name: 'Renamed', retained_builds: 0 } });
      expect(renamed.body).toMatchObject({ name: 'Renamed', new_build_callout: true, retained_builds: 0 });
      expect((await api('GET', `/api/apps/${app.id}`, { token: dev.token })).body.schemes).toHaveLength(3);

      const deleted = await api('DELETE', `/api/schemes/${form.body.id}`, { token: dev.token });
      expect(deleted.body).toEqual({ mesage: 'OK' });
      expect((await api('GET', `/api/schemes/${form.body.id}`, { token: dev.token })).status).toBe(404);
      expect((await api('GET', `/api/apps/${app.id}/schemes`, { token: dev.token })).body).toHaveLength(2);
    });

    it('when scheme fields are bad, then 422 names each and no scheme is created', async () => {
      const dev = await createUser();
      const app = await newApp(dev.token);
      const cases: [Record<string, string>, string[]][] = [
        [{}, ['name']],
        [{ name: 'x', retained_builds: '-1' }, ['retained_builds']],
        [{ name: 'x', retained_builds: '1.5' }, ['retained_builds']],
        [{ name: 'x', new_build_callout: 'maybe' }, ['new_build_callout']],
        [{ name: '', new_build_callout: 'yes', retained_builds: 'ten' }, ['name', 'new_build_callout', 'retained_builds']],
      ];
      for (const [form, fields] of cases) {
        const res = await api('POST', `/api/apps/${app.id}/schemes`, { token: dev.token, form });
        expect({ form, status: res.status, fields: Object.keys(res.body.entry ?? {}).sort() }).toEqual({ form, status: 422, fields });
      }
      const json = await api('POST', `/api/apps/${app.id}/schemes`, { token: dev.token, json: { name: 'x', new_build_callout: 'nope', retained_builds: -2 } });
      expect(json.status).toBe(422);
      expect(Object.keys(json.body.entry).sort()).toEqual(['new_build_callout', 'retained_builds']);
      expect((await api('GET', `/api/apps/${app.id}/schemes`, { token: dev.token })).body).toEqual([]);
    });
  });

  describe('channels', () => {
    it('when channels are created with each encoding, listed, read, updated and deleted, then the seed shape holds and the password never shows', async () => {
      const dev = await createUser();
      const app = await newApp(dev.token);
      const scheme = (await api('POST', `/api/apps/${app.id}/schemes`, { token: dev.token, form: { name: 'Beta' } })).body;
      const generated = await api('POST', `/api/schemes/${scheme.id}/channels`, { token: dev.token, form: { name: 'Android', device_type: 'Android' } });
      expect(generated.status).toBe(201);
      expect(generated.body).toEqual({
        id: expect.any(Number),
        name: 'Android',
        slug: expect.stringMatching(/^[0-9A-Za-z]{20,}$/),
        device_type: 'android',
        bundle_id: '*',
        git_url: null,
        has_password: false,
        // Added field: the oldest release version installs may keep (update_check).
        min_supported_version: null,
      });
      // A protected channel's custom key is as strong as a generated one: 20+ characters.
      const slug = `key-${Date.now()}-abcdefgh`;
      const custom = await api('POST', `/api/schemes/${scheme.id}/channels`, {
        token: dev.token,
        urlencoded: { name: 'iOS', device_type: 'IOS', slug, bundle_id: 'com.example.*', git_url: 'https://git.example/app.git', password: 'visit-pw' },
      });
      expect(custom.status).toBe(201);
      expect(custom.body).toMatchObject({ slug, device_type: 'ios', bundle_id: 'com.example.*', git_url: 'https://git.example/app.git', has_password: true });
      expect(custom.text).not.toContain('visit-pw');
      const json = await api('POST', `/api/schemes/${scheme.id}/channels`, { token: dev.token, json: { name: 'Desktop', device_type: 'macOS' } });
      expect(json.body.device_type).toBe('macos');

      const list = await api('GET', `/api/schemes/${scheme.id}/channels`, { token: dev.token });
      expect(list.body.map((c: { id: number }) => c.id)).toEqual([generated.body.id, custom.body.id, json.body.id]);
      expect((await api('GET', `/api/channels/${custom.body.id}`, { token: dev.token })).body).toEqual(custom.body);
      const tree = (await api('GET', `/api/apps/${app.id}`, { token: dev.token })).body;
      expect(tree.schemes[0].channels).toEqual(list.body);

      const updated = await api('PUT', `/api/channels/${custom.body.id}`, { token: dev.token, form: { name: 'iOS Beta', password: '', git_url: '' } });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ name: 'iOS Beta', slug, has_password: false, git_url: null, bundle_id: 'com.example.*' });
      const newSlug = `${slug}-2`;
      const reslugged = await api('PUT', `/api/channels/${custom.body.id}`, { token: dev.token, json: { slug: newSlug, device_type: 'Linux', bundle_id: '' } });
      expect(reslugged.body).toMatchObject({ slug: newSlug, device_type: 'linux', bundle_id: '*' });

      expect((await api('DELETE', `/api/channels/${custom.body.id}`, { token: dev.token })).body).toEqual({ mesage: 'OK' });
      expect((await api('GET', `/api/channels/${custom.body.id}`, { token: dev.token })).status).toBe(404);
      // The deleted channel's key is free again.
      const reused = await api('POST', `/api/schemes/${scheme.id}/channels`, { token: dev.token, form: { name: 'again', device_type: 'ios', slug: newSlug } });
      expect(reused.status).toBe(201);
    });

    it('when channel fields are bad or the slug is taken, then 422 or 409 names the field and no channel is created', async () => {
      const dev = await createUser();
      const app = await newApp(dev.token);
      const scheme = (await api('POST', `/api/apps/${app.id}/schemes`, { token: dev.token, form: { name: 'Beta' } })).body;
      const taken = (await api('POST', `/api/schemes/${scheme.id}/channels`, { token: dev.token, form: { name: 'one', device_type: 'ios', slug: `taken-${Date.now()}` } })).body;
      const cases: [Record<string, string>, number, string[]][] = [
        [{ device_type: 'ios' }, 422, ['name']],
        [{ name: 'x' }, 422, ['device_type']],
        [{ name: 'x', device_type: 'blackberry' }, 422, ['device_type']],
        [{ name: 'x', device_type: 'ios', slug: 'a b' }, 422, ['slug']],
        [{ name: 'x', device_type: 'ios', slug: 'ab' }, 422, ['slug']],
        [{ name: 'x', device_type: 'ios', bundle_id: 'com example/app' }, 422, ['bundle_id']],
        [{ name: 'x', device_type: 'ios', slug: taken.slug }, 409, ['slug']],
      ];
      for (const [form, status, fields] of cases) {
        const res = await api('POST', `/api/schemes/${scheme.id}/channels`, { token: dev.token, form });
        expect({ form, status: res.status, fields: Object.keys(res.body.entry ?? {}) }).toEqual({ form, status, fields });
      }
      expect((await api('GET', `/api/schemes/${scheme.id}/channels`, { token: dev.token })).body.map((c: { id: number }) => c.id)).toEqual([taken.id]);
    });
  });

  describe('collaborators', () => {
    it('when collaborators are added (user_id in body or path), listed, read, updated and removed, then each step answers the seed shape', async () => {
      const owner = await createUser();
      const viaBody = await createUser('member');
      const viaPath = await createUser('member');
      const app = await newApp(owner.token);

      const added = await api('POST', `/api/apps/${app.id}/collaborators`, { token: owner.token, form: { user_id: String(viaBody.id), role: 'developer' } });
      expect(added.status).toBe(201);
      expect(added.body).toEqual({ id: viaBody.id, username: viaBody.username, email: viaBody.email, role: 'developer' });
      const addedJson = await api('POST', `/api/apps/${app.id}/collaborators/${viaPath.id}`, { token: owner.token, json: { role: 'member' } });
      expect(addedJson.status).toBe(201);
      expect(addedJson.body.role).toBe('member');

      const list = await api('GET', `/api/apps/${app.id}/collaborators`, { token: viaPath.token });
      expect(list.body.map((c: { id: number; role: string }) => [c.id, c.role])).toEqual([
        [owner.id, 'admin'],
        [viaBody.id, 'developer'],
        [viaPath.id, 'member'],
      ]);
      expect((await api('GET', `/api/apps/${app.id}/collaborators/${viaBody.id}`, { token: owner.token })).body).toEqual(added.body);
      // As a member collaborator, the app is now visible to them.
      expect((await api('GET', '/api/apps', { token: viaPath.token })).body.map((a: { id: number }) => a.id)).toEqual([app.id]);

      const updated = await api('PUT', `/api/apps/${app.id}/collaborators/${viaPath.id}`, { token: owner.token, urlencoded: { role: 'admin' } });
      expect(updated.status).toBe(200);
      expect(updated.body.role).toBe('admin');
      const removed = await api('DELETE', `/api/apps/${app.id}/collaborators/${viaBody.id}`, { token: owner.token });
      expect(removed.body).toEqual({ mesage: 'OK' });
      expect((await api('GET', `/api/apps/${app.id}/collaborators/${viaBody.id}`, { token: owner.token })).status).toBe(404);
      expect((await api('GET', `/api/apps/${app.id}`, { token: viaBody.token })).status).toBe(403);
    });

    it('when a collaborator is added twice, with an unknown user or role, or the last admin is demoted, then 409 / 422 names the field and nothing changes', async () => {
      const owner = await createUser();
      const other = await createUser('member');
      const app = await newApp(owner.token);
      expect((await api('POST', `/api/apps/${app.id}/collaborators/${other.id}`, { token: owner.token, form: { role: 'member' } })).status).toBe(201);
      const before = (await api('GET', `/api/apps/${app.id}/collaborators`, { token: owner.token })).body;

      const twice = await api('POST', `/api/apps/${app.id}/collaborators`, { token: owner.token, form: { user_id: String(other.id), role: 'admin' } });
      expect(twice.status).toBe(409);
      expect(Object.keys(twice.body.entry)).toEqual(['user_id']);
      const unknownUser = await api('POST', `/api/apps/${app.id}/collaborators/99999999`, { token: owner.token, form: { role: 'member' } });
      expect(unknownUser.status).toBe(422);
      expect(Object.keys(unknownUser.body.entry)).toEqual(['user_id']);
      const noUser = await api('POST', `/api/apps/${app.id}/collaborators`, { token: owner.token, form: { role: 'member' } });
      expect(noUser.status).toBe(422);
      expect(Object.keys(noUser.body.entry)).toEqual(['user_id']);
      const badRole = await api('PUT', `/api/apps/${app.id}/collaborators/${other.id}`, { token: owner.token, form: { role: 'owner' } });
      expect(badRole.status).toBe(422);
      expect(Object.keys(badRole.body.entry)).toEqual(['role']);
      const lastAdmin = await api('PUT', `/api/apps/${app.id}/collaborators/${owner.id}`, { token: owner.token, form: { role: 'developer' } });
      expect(lastAdmin.status).toBe(422);
      const removeLast = await api('DELETE', `/api/apps/${app.id}/collaborators/${owner.id}`, { token: admin });
      expect(removeLast.status).toBe(422);

      expect((await api('GET', `/api/apps/${app.id}/collaborators`, { token: owner.token })).body).toEqual(before);
    });

    it('when a collaborating user is deleted, then they disappear from the app', async () => {
      const owner = await createUser();
      const leaving = await createUser('member');
      const app = await newApp(owner.token);
      await api('POST', `/api/apps/${app.id}/collaborators/${leaving.id}`, { token: owner.token, form: { role: 'developer' } });
      expect((await api('DELETE', `/api/users/${leaving.id}`, { token: admin })).status).toBe(200);
      const ids = async () => (await api('GET', `/api/apps/${app.id}/collaborators`, { token: owner.token })).body.map((c: { id: number }) => c.id);
      expect(await ids()).toEqual([owner.id]);
    });
  });
});
