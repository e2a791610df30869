import fs from 'node:fs';
import path from 'node:path';
import * as tus from 'tus-js-client';
import { ApiClient, ApiResponse, RunningHangar, TestUser, apiClient, createUserWithToken, eventuallyValue, fixturesDir, startHangar, uniqueName } from '@hangar/testing';

/**
 * A personal access token limited to scopes and apps. A CI
 * token scoped to `upload` on one app uploads builds and debug files there —
 * multipart, resumable through a tus client no one here wrote, direct — and
 * checks versions, and is refused everything else in the contract's shape,
 * changing nothing.
 */
describe('scoped personal access tokens', () => {
  let hangar: RunningHangar;
  let api: ApiClient;
  let owner: TestUser;
  const ipa = fs.readFileSync(path.join(fixturesDir(), 'apps', 'iphone.ipa'));
  const dsym = fs.readFileSync(path.join(fixturesDir(), 'dsyms', 'single_ios.dSYM.zip'));
  const apps: Record<'ci' | 'other', { id: number; channelKey: string }> = { ci: { id: 0, channelKey: '' }, other: { id: 0, channelKey: '' } };
  let ciToken: string;

  async function appWithChannel(): Promise<{ id: number; channelKey: string }> {
    const app = await api('POST', '/api/apps', { token: owner.token, form: { name: uniqueName('scoped') } });
    const scheme = await api('POST', `/api/apps/${app.body.id}/schemes`, { token: owner.token, form: { name: 'Beta', new_build_callout: 'false' } });
    const channel = await api('POST', `/api/schemes/${scheme.body.id}/channels`, { token: owner.token, form: { name: 'iOS', device_type: 'ios' } });
    expect([app.status, scheme.status, channel.status]).toEqual([201, 201, 201]);
    return { id: app.body.id, channelKey: channel.body.slug };
  }

  const uploadIpa = (token: string, channelKey: string) =>
    api('POST', '/api/apps/upload', { token, form: { channel_key: channelKey }, files: { file: { data: ipa, fileName: 'iphone.ipa' } } });

  beforeAll(async () => {
    // S3_PUBLIC_ENDPOINT (the same server here) turns on direct uploads.
    hangar = await startHangar({ S3_PUBLIC_ENDPOINT: process.env.S3_ENDPOINT! });
    api = apiClient(hangar.baseUrl);
    owner = await createUserWithToken(api, hangar.adminToken, 'scoped-owner', 'developer');
    apps.ci = await appWithChannel();
    apps.other = await appWithChannel();
    const created = await api('POST', '/api/users/me/tokens', { token: owner.token, form: { name: 'ci', scopes: 'upload', app_ids: String(apps.ci.id) } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'ci', scopes: ['upload'], app_ids: [apps.ci.id], expires_at: null, last_used_at: null });
    ciToken = created.body.token;
  }, 240_000);

  afterAll(async () => {
    await hangar?.stop();
  });

  it('when a CI token scoped to upload on its app uploads a build and a debug file and checks versions, then each works', async () => {
    const release = await uploadIpa(ciToken, apps.ci.channelKey);
    expect(release.status).toBe(201);
    const debugFile = await api('POST', '/api/debug_files/upload', { token: ciToken, form: { channel_key: apps.ci.channelKey }, files: { file: { data: dsym, fileName: 'symbols.zip' } } });
    expect(debugFile.status).toBe(200);
    const key = apps.ci.channelKey;
    const { release_version: rv, build_version: bv } = release.body;
    expect((await api('GET', `/api/apps/versions?channel_key=${key}`, { token: ciToken })).status).toBe(200);
    expect((await api('GET', `/api/apps/latest?channel_key=${key}&release_version=0.1&build_version=1`, { token: ciToken })).status).toBe(200);
    const exists = await api('GET', `/api/apps/version_exist?channel_key=${key}&bundle_id=${release.body.bundle_id}&release_version=${rv}&build_version=${bv}`, { token: ciToken });
    expect(exists.status).toBe(200);
  });

  it('when the CI token sends a build with tus-js-client and finishes it, then the build is made', async () => {
    const url = await new Promise<string>((resolve, reject) => {
      const upload = new tus.Upload(ipa, {
        endpoint: `${hangar.baseUrl}/api/uploads`,
        headers: { authorization: `Bearer ${ciToken}` },
        metadata: { filename: 'iphone.ipa', channel_key: apps.ci.channelKey },
        retryDelays: [],
        onError: reject,
        onSuccess: () => resolve(upload.url!),
      });
      upload.start();
    });
    const finished = await api('POST', '/api/apps/upload', { token: ciToken, json: { upload_id: url.split('/').pop() } });
    expect(finished.status).toBe(201);
    const direct = await api('POST', '/api/direct_uploads', { token: ciToken, urlencoded: { filename: 'x.ipa', length: String(ipa.length), channel_key: apps.ci.channelKey } });
    expect(direct.status).toBe(201);
  });

  it('when the CI token asks for anything else, then 403 in the contract shape and nothing changes', async () => {
    const release = await uploadIpa(owner.token, apps.ci.channelKey);
    const refusals = {
      deleteRelease: await api('DELETE', `/api/releases/${release.body.id}`, { token: ciToken }),
      listApps: await api('GET', '/api/apps', { token: ciToken }),
      getApp: await api('GET', `/api/apps/${apps.ci.id}`, { token: ciToken }),
      createToken: await api('POST', '/api/users/me/tokens', { token: ciToken, form: { name: 'escalate' } }),
      getMe: await api('GET', '/api/users/me', { token: ciToken }),
    };
    for (const [operation, res] of Object.entries(refusals)) {
      expect([operation, res.status, res.body]).toEqual([operation, 403, { error: expect.stringMatching(/scopes \(upload\) do not allow/) }]);
    }
    expect((await api('GET', `/api/releases/${release.body.id}/stats`, { token: owner.token })).status).toBe(200);
    expect((await api('GET', '/api/users/me/tokens', { token: owner.token })).body.map((t: { name: string }) => t.name)).not.toContain('escalate');
  });

  it('when the CI token uploads into another app of its user, then 403 names the limit and no build is made', async () => {
    const before = Number((await api('GET', `/api/apps/versions?channel_key=${apps.other.channelKey}`)).headers.get('x-total-count'));
    const res = await uploadIpa(ciToken, apps.other.channelKey);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: expect.stringMatching(/limited to other apps/) });
    const after = Number((await api('GET', `/api/apps/versions?channel_key=${apps.other.channelKey}`)).headers.get('x-total-count'));
    expect(after).toBe(before);
  });

  it('when a full-scope token is limited to one app, then it sees and changes only that app, and cannot create apps', async () => {
    const limited = (await api('POST', '/api/users/me/tokens', { token: owner.token, json: { name: 'one app', app_ids: String(apps.other.id) } })).body.token as string;
    expect((await api('GET', `/api/apps/${apps.other.id}`, { token: limited })).status).toBe(200);
    // The apps service keeps app views per caller: the owner's unlimited read must not serve the limited token.
    expect((await api('GET', `/api/apps/${apps.ci.id}`, { token: owner.token })).status).toBe(200);
    expect((await api('GET', `/api/apps/${apps.ci.id}`, { token: limited })).status).toBe(403);
    const elsewhere = await api('PUT', `/api/apps/${apps.ci.id}`, { token: limited, form: { name: 'renamed' } });
    expect([elsewhere.status, elsewhere.body]).toEqual([403, { error: expect.stringMatching(/limited to other apps/) }]);
    expect((await api('GET', `/api/apps/${apps.ci.id}`, { token: owner.token })).body.name).not.toBe('renamed');
    expect((await api('GET', '/api/apps', { token: limited })).body.map((a: { id: number }) => a.id)).toEqual([apps.other.id]);
    expect((await api('POST', '/api/apps', { token: limited, form: { name: 'new' } })).status).toBe(403);
  });

  it('when a limited token asks for a token, then 403 however narrow; an unlimited admin-scoped token makes only one as narrow as itself', async () => {
    const appAdmin = (await api('POST', '/api/users/me/tokens', { token: owner.token, form: { name: 'app admin', scopes: 'admin,read', app_ids: String(apps.ci.id) } })).body.token as string;
    const count = async () => (await api('GET', '/api/users/me/tokens', { token: owner.token })).body.length as number;
    const before = await count();
    const forms: Record<string, string>[] = [{ name: 'escape' }, { name: 'escape', scopes: 'read', app_ids: String(apps.other.id) }, { name: 'narrower', scopes: 'read', app_ids: String(apps.ci.id) }];
    for (const form of forms) {
      const refused = await api('POST', '/api/users/me/tokens', { token: appAdmin, form });
      expect([form, refused.status, refused.body]).toEqual([form, 403, { error: expect.stringMatching(/limited \(to apps .*\): it cannot createToken/) }]);
    }
    expect(await count()).toBe(before);
    const adminScoped = (await api('POST', '/api/users/me/tokens', { token: owner.token, form: { name: 'admin scoped', scopes: 'admin,read' } })).body.token as string;
    const unscoped = await api('POST', '/api/users/me/tokens', { token: adminScoped, form: { name: 'escape' } });
    expect([unscoped.status, unscoped.body]).toEqual([403, { error: expect.stringMatching(/limited to the scopes admin, read/) }]);
    expect((await api('POST', '/api/users/me/tokens', { token: adminScoped, form: { name: 'narrower', scopes: 'read' } })).status).toBe(201);
  });

  it('when a limited token tries to outgrow its limits through the account, then every way is 403 and nothing changes', async () => {
    const victim = await createUserWithToken(api, hangar.adminToken, 'victim', 'member');
    const make = async (token: string, form: Record<string, string>) => {
      const res = await api('POST', '/api/users/me/tokens', { token, form: { name: 'limited', ...form } });
      expect(res.status).toBe(201);
      return res.body.token as string;
    };
    // A developer's token limited to one app, every scope.
    const devApp = await make(owner.token, { app_ids: String(apps.ci.id) });
    // The global admin's token: admin scope, one app; a read token on one app; a read token on every app.
    const adminApp = await make(hangar.adminToken, { scopes: 'admin', app_ids: String(apps.ci.id) });
    const adminReadApp = await make(hangar.adminToken, { scopes: 'read', app_ids: String(apps.ci.id) });
    const adminRead = await make(hangar.adminToken, { scopes: 'read' });
    const newAdmin = uniqueName('escalated').replace(/[^a-z0-9]/g, '');
    const owned = { username: owner.username, email: owner.email };
    const refusals: [string, Promise<ApiResponse>][] = [
      ['own password by PUT', api('PUT', '/api/users/me', { token: devApp, form: { ...owned, password: 'taken-over-pw-1' } })],
      ['own password by PATCH', api('PATCH', `/api/users/${owner.id}`, { token: devApp, json: { password: 'taken-over-pw-1' } })],
      ['own email', api('PATCH', '/api/users/me', { token: devApp, json: { email: 'taken@example.com' } })],
      ['own password route', api('PUT', '/api/users/me/password', { token: devApp, json: { current_password: 'long-enough-pw', password: 'taken-over-pw-1' } })],
      ['own unlimited token', api('POST', `/api/users/${owner.id}/tokens`, { token: devApp, form: { name: 'escape' } })],
      ['revoke own tokens', api('DELETE', `/api/users/me/tokens/${owner.tokenId}`, { token: devApp })],
      ['a new global admin', api('POST', '/api/users', { token: adminApp, form: { username: newAdmin, email: `${newAdmin}@example.com`, password: 'long-enough-pw', role: 'admin' } })],
      ["another user's password", api('PUT', `/api/users/${victim.id}`, { token: adminApp, form: { username: victim.username, email: victim.email, password: 'taken-over-pw-1' } })],
      ["another user's role", api('PATCH', `/api/users/${victim.id}`, { token: adminApp, json: { role: 'admin' } })],
      ['another user deleted', api('DELETE', `/api/users/${victim.id}`, { token: adminApp })],
      ["another user's token", api('POST', `/api/users/${victim.id}/tokens`, { token: adminApp, form: { name: 'escape' } })],
      ["another user's tokens listed", api('GET', `/api/users/${victim.id}/tokens`, { token: adminApp })],
      ['users listed (admin, one app)', api('GET', '/api/users', { token: adminApp })],
      ['users listed (read, one app)', api('GET', '/api/users', { token: adminReadApp })],
      ['users listed (read, every app)', api('GET', '/api/users', { token: adminRead })],
      ['users searched', api('GET', `/api/users/search?email=${encodeURIComponent(victim.email)}`, { token: adminReadApp })],
      ['another user read', api('GET', `/api/users/${victim.id}`, { token: adminRead })],
    ];
    for (const [what, pending] of refusals) {
      const res = await pending;
      expect([what, res.status, Object.keys(res.body)]).toEqual([what, 403, ['error']]);
    }
    // Nothing changed: the old passwords still sign in, no admin was made, the victim is a member with one token.
    expect((await api('POST', '/api/sessions', { json: { email: owner.email, password: 'long-enough-pw' } })).status).toBe(201);
    expect((await api('POST', '/api/sessions', { json: { email: victim.email, password: 'long-enough-pw' } })).status).toBe(201);
    expect((await api('GET', `/api/users/search?email=${newAdmin}%40example.com`, { token: hangar.adminToken })).body).toEqual([]);
    expect((await api('GET', `/api/users/${victim.id}`, { token: hangar.adminToken })).body.role).toBe('member');
    expect((await api('GET', `/api/users/${victim.id}/tokens`, { token: hangar.adminToken })).body).toHaveLength(1);
    expect((await api('GET', '/api/users/me/tokens', { token: owner.token })).body.map((t: { id: number }) => t.id)).toContain(owner.tokenId);
    // A limited token still reads its own account; an unlimited token manages accounts as before.
    for (const path of ['/api/users/me', `/api/users/${owner.id}`, '/api/users/me/tokens']) expect([path, (await api('GET', path, { token: devApp })).status]).toEqual([path, 200]);
    expect((await api('GET', '/api/users/me', { token: adminReadApp })).status).toBe(200);
    expect((await api('GET', '/api/users', { token: await make(hangar.adminToken, { scopes: 'admin,read' }) })).status).toBe(200);
  });

  it('when a token is asked for with a scope that does not exist or a past expiry, then 422 names the field and no token is made', async () => {
    const count = async () => (await api('GET', '/api/users/me/tokens', { token: owner.token })).body.length as number;
    const before = await count();
    const badScope = await api('POST', '/api/users/me/tokens', { token: owner.token, form: { name: 'bad', scopes: 'upload,delete-all' } });
    expect([badScope.status, Object.keys(badScope.body.entry)]).toEqual([422, ['scopes']]);
    expect(badScope.body.entry.scopes[0]).toMatch(/delete-all/);
    const past = await api('POST', '/api/users/me/tokens', { token: owner.token, form: { name: 'old', expires_at: '2001-01-01T00:00:00Z' } });
    expect([past.status, past.body.entry]).toEqual([422, { expires_at: ['must be in the future'] }]);
    const garbage = await api('POST', '/api/users/me/tokens', { token: owner.token, form: { name: 'old', expires_at: 'tomorrow' } });
    expect([garbage.status, Object.keys(garbage.body.entry)]).toEqual([422, ['expires_at']]);
    expect(await count()).toBe(before);
  });

  it('when a token expires, then it is refused from then on, even by a gateway that has it cached', async () => {
    const expiresAt = new Date(Date.now() + 2500).toISOString();
    const created = await api('POST', '/api/users/me/tokens', { token: owner.token, form: { name: 'short-lived', expires_at: expiresAt } });
    expect(created.status).toBe(201);
    expect(Date.parse(created.body.expires_at)).toBe(Date.parse(expiresAt));
    expect((await api('GET', '/api/users/me', { token: created.body.token })).status).toBe(200);
    // Asked until it is refused, instead of sleeping past the expiry: the refusal must come at the
    // expiry (not before it, and not once the gateway's cached answer runs out much later).
    const late = await eventuallyValue(() => api('GET', '/api/users/me', { token: created.body.token }), (res) => res.status !== 200, { timeoutMs: 10_000, stepMs: 50, what: 'the expired token refused' });
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expiresAt));
    expect([late.status, late.body]).toEqual([401, { error: expect.stringMatching(/expired/) }]);
  });

  it('when a token is used, then the list shows when and from which address, and tokens without scopes show none', async () => {
    const made = await api('POST', '/api/users/me/tokens', { token: owner.token, form: { name: 'watched', scopes: 'read' } });
    expect((await api('GET', '/api/users/me', { token: made.body.token, headers: { 'x-forwarded-for': '192.0.2.44' } })).status).toBe(200);
    type Listed = { id: number; last_used_at: string | null; last_used_address: string | null; scopes: string[] }[];
    // The use is recorded a moment after the request is answered.
    const listed = await eventuallyValue(async () => (await api('GET', '/api/users/me/tokens', { token: owner.token })).body as Listed, (tokens) => Boolean(tokens.find((t) => t.id === made.body.id)?.last_used_address), {
      timeoutMs: 5_000,
      what: 'the use recorded',
      explain: async () => JSON.stringify((await api('GET', '/api/users/me/tokens', { token: owner.token })).body),
    });
    // The socket's peer, not the X-Forwarded-For a client wrote: no TRUSTED_PROXIES here.
    expect(listed.find((t) => t.id === made.body.id)).toMatchObject({ last_used_address: '127.0.0.1', last_used_at: expect.any(String), scopes: ['read'] });
    expect(listed.find((t) => t.id === owner.tokenId)).toMatchObject({ scopes: [], app_ids: [], expires_at: null });
  });
});
