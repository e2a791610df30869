import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ApiClient, RunningHangar, apiClient, createUserWithToken, fixturesDir, startHangar } from '@hangar/testing';

/**
 * Two complete Hangars on the same databases, event subjects and bucket: two
 * replicas of every process, as two Kubernetes replicas would be. Their caches
 * (token → user in each gateway, channel contexts and each channel's releases
 * in each releases service) must never answer with what the other replica has
 * just changed: every check below is the very next request after the change,
 * made to the replica that did not make it.
 */
describe('caches with two replicas of every process', () => {
  let a: RunningHangar;
  let b: RunningHangar;
  let apiA: ApiClient;
  let apiB: ApiClient;
  const apk = fs.readFileSync(path.join(fixturesDir(), 'apps', 'android.apk'));

  beforeAll(async () => {
    a = await startHangar();
    // Replicas share their install-page and webhook keys, as a Secret gives them in Kubernetes.
    const secrets = JSON.parse(fs.readFileSync(path.join(a.dataDir, 'service-secrets.json'), 'utf8')) as Record<string, string>;
    b = await startHangar({
      HANGAR_DB_PREFIX: readEnvOf(a, 'HANGAR_DB_PREFIX'),
      NATS_SUBJECT_PREFIX: readEnvOf(a, 'NATS_SUBJECT_PREFIX'),
      S3_BUCKET: readEnvOf(a, 'S3_BUCKET'),
      HANGAR_ADMIN_TOKEN: a.adminToken,
      ...secrets,
    });
    apiA = apiClient(a.baseUrl);
    apiB = apiClient(b.baseUrl);
  }, 240_000);

  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('when a token is revoked on one replica, then the next request with it fails on both', async () => {
    for (let round = 0; round < 5; round++) {
      const user = await createUserWithToken(apiA, a.adminToken, `coherent-${round}`);
      // Both gateways now hold the token in their caches.
      expect((await apiA('GET', '/api/users/me', { token: user.token })).status).toBe(200);
      expect((await apiB('GET', '/api/users/me', { token: user.token })).status).toBe(200);
      const [revoker, other] = round % 2 === 0 ? [apiA, apiB] : [apiB, apiA];
      expect((await revoker('DELETE', `/api/users/${user.id}/tokens/${user.tokenId}`, { token: a.adminToken })).status).toBe(200);
      expect((await other('GET', '/api/users/me', { token: user.token })).status).toBe(401);
      expect((await revoker('GET', '/api/users/me', { token: user.token })).status).toBe(401);
    }
  });

  it("when a user's role changes on one replica, then the other answers with the new role at once", async () => {
    const user = await createUserWithToken(apiA, a.adminToken, 'demoted', 'admin');
    expect((await apiB('GET', '/api/users', { token: user.token })).status).toBe(200);
    const put = await apiA('PUT', `/api/users/${user.id}`, { token: a.adminToken, form: { username: user.username, email: user.email, password: 'long-enough-pw', role: 'member' } });
    expect(put.status).toBe(200);
    expect((await apiB('GET', '/api/users', { token: user.token })).status).toBe(403);
  });

  it('when a build is uploaded through one replica, then version_exist on the other finds it on the next request', async () => {
    const first = await upload(apiA, { git_commit: commit() });
    const key = first.channel.slug as string;
    const bundleId = first.bundle_id as string;
    for (let round = 0; round < 6; round++) {
      const [uploader, asker] = round % 2 === 0 ? [apiA, apiB] : [apiB, apiA];
      const sha = commit();
      const query = `/api/apps/version_exist?channel_key=${key}&bundle_id=${encodeURIComponent(bundleId)}&git_commit=${sha}`;
      // Both replicas have answered "no" for this channel, and hold its releases in memory.
      expect((await apiA('GET', query)).status).toBe(404);
      expect((await apiB('GET', query)).status).toBe(404);
      const made = await upload(uploader, { channel_key: key, git_commit: sha });
      const exists = await asker('GET', query);
      expect(exists.status).toBe(200);
      expect(exists.body.id).toBe(made.id);
      const versions = await asker('GET', `/api/apps/versions?channel_key=${key}`);
      expect(versions.body.releases[0].id).toBe(made.id);
    }
  });

  it('when a release is deleted or a channel key rotated on one replica, then the other stops answering with it at once', async () => {
    const made = await upload(apiA, { git_commit: commit() });
    const key = made.channel.slug as string;
    const query = `/api/apps/version_exist?channel_key=${key}&bundle_id=${encodeURIComponent(made.bundle_id)}&git_commit=${made.git_commit}`;
    expect((await apiB('GET', query)).status).toBe(200);
    expect((await apiA('DELETE', `/api/releases/${made.id}`, { token: a.adminToken })).status).toBe(200);
    expect((await apiB('GET', query)).status).toBe(404);

    const rotated = `rotated-${randomBytes(8).toString('hex')}`;
    expect((await apiB('GET', `/api/apps/versions?channel_key=${key}`)).status).toBe(200);
    const app = await apiA('GET', `/api/apps/${made.app.id}`, { token: a.adminToken });
    const channelId = (app.body.schemes as { channels: { id: number; slug: string }[] }[]).flatMap((s) => s.channels).find((c) => c.slug === key)!.id;
    expect((await apiA('PUT', `/api/channels/${channelId}`, { token: a.adminToken, form: { slug: rotated } })).status).toBe(200);
    expect((await apiB('GET', `/api/apps/versions?channel_key=${key}`)).status).toBe(404);
    expect((await apiB('GET', `/api/apps/versions?channel_key=${rotated}`)).status).toBe(200);
  });

  it('when a build is uploaded or a channel key rotated through one replica, then an update check on the other sees it on the next poll', async () => {
    const first = await upload(apiA, { git_commit: commit() });
    const key = first.channel.slug as string;
    const check = (api: ApiClient, channelKey = key) =>
      api('GET', `/api/apps/update_check?${new URLSearchParams({ channel_key: channelKey, bundle_id: first.bundle_id, release_version: first.release_version, build_version: first.build_version })}`);
    for (let round = 0; round < 4; round++) {
      const [uploader, asker] = round % 2 === 0 ? [apiA, apiB] : [apiB, apiA];
      // Twice each: the second answer comes from each gateway's memory.
      for (let poll = 0; poll < 2; poll++) {
        expect((await check(apiA)).body.update_available).toBe(round > 0);
        expect((await check(apiB)).body.update_available).toBe(round > 0);
      }
      const made = await upload(uploader, { channel_key: key, git_commit: commit() });
      await uploader('PUT', `/api/releases/${made.id}`, { token: a.adminToken, json: { release_version: `9.${round}`, build_version: '1' } });
      expect((await check(asker)).body).toMatchObject({ update_available: true, release: { id: made.id } });
    }
    const app = await apiA('GET', `/api/apps/${first.app.id}`, { token: a.adminToken });
    const channelId = (app.body.schemes as { channels: { id: number; slug: string }[] }[]).flatMap((s) => s.channels).find((c) => c.slug === key)!.id;
    expect((await apiA('PUT', `/api/channels/${channelId}`, { token: a.adminToken, form: { slug: `rotated-${randomBytes(8).toString('hex')}` } })).status).toBe(200);
    expect((await check(apiB)).status).toBe(404);
  });

  it("when an app's collaborators or a collaborator's name change on one replica, then GET /api/apps/:id on the other shows it at once", async () => {
    const made = await upload(apiA, { name: `Viewed ${commit().slice(0, 8)}`, git_commit: commit() });
    const appId = made.app.id as number;
    const colleague = await createUserWithToken(apiA, a.adminToken, 'colleague');
    const view = async (api: ApiClient, token: string) => api('GET', `/api/apps/${appId}`, { token });
    // The colleague may not see the app yet; both replicas have answered that.
    expect((await view(apiA, colleague.token)).status).toBe(403);
    expect((await view(apiB, colleague.token)).status).toBe(403);
    expect((await view(apiB, a.adminToken)).status).toBe(200);

    expect((await apiA('POST', `/api/apps/${appId}/collaborators/${colleague.id}`, { token: a.adminToken, form: { role: 'member' } })).status).toBe(201);
    expect((await view(apiB, colleague.token)).status).toBe(200);
    const listed = await view(apiB, a.adminToken);
    expect((listed.body.collaborators as { username: string }[]).map((c) => c.username)).toContain(colleague.username);

    const renamed = `${colleague.username}x`;
    expect((await apiB('PUT', `/api/users/${colleague.id}`, { token: a.adminToken, form: { username: renamed, email: colleague.email, password: 'long-enough-pw' } })).status).toBe(200);
    expect(((await view(apiA, a.adminToken)).body.collaborators as { username: string }[]).map((c) => c.username)).toContain(renamed);

    expect((await apiA('DELETE', `/api/apps/${appId}/collaborators/${colleague.id}`, { token: a.adminToken })).status).toBe(200);
    expect((await view(apiB, colleague.token)).status).toBe(403);
  });

  it('when an app is shared, renamed or deleted on one replica, then the apps list on the other shows it at once', async () => {
    const made = await upload(apiA, { name: `Listed ${commit().slice(0, 8)}`, git_commit: commit() });
    const appId = made.app.id as number;
    const colleague = await createUserWithToken(apiA, a.adminToken, 'lister');
    const names = async (api: ApiClient, token: string) => {
      const res = await api('GET', '/api/apps?per_page=100', { token });
      expect(res.status).toBe(200);
      return new Map((res.body as unknown as { id: number; name: string }[]).map((app) => [app.id, app.name]));
    };
    // Both gateways (and both apps replicas) now hold both callers' pages.
    for (const api of [apiA, apiB]) {
      expect((await names(api, colleague.token)).has(appId)).toBe(false);
      expect((await names(api, a.adminToken)).has(appId)).toBe(true);
    }
    expect((await apiA('POST', `/api/apps/${appId}/collaborators/${colleague.id}`, { token: a.adminToken, form: { role: 'member' } })).status).toBe(201);
    expect((await names(apiB, colleague.token)).has(appId)).toBe(true);
    expect((await apiB('PUT', `/api/apps/${appId}`, { token: a.adminToken, form: { name: 'Renamed in the list' } })).status).toBe(200);
    expect((await names(apiA, a.adminToken)).get(appId)).toBe('Renamed in the list');
    expect((await names(apiA, colleague.token)).get(appId)).toBe('Renamed in the list');
    expect((await apiA('DELETE', `/api/apps/${appId}`, { token: a.adminToken })).status).toBe(200);
    expect((await names(apiB, a.adminToken)).has(appId)).toBe(false);
    expect((await names(apiB, colleague.token)).has(appId)).toBe(false);
  });

  async function upload(api: ApiClient, fields: Record<string, string>) {
    const res = await api('POST', '/api/apps/upload', { form: { token: a.adminToken, name: 'Coherence', ...fields }, files: { file: { data: apk, fileName: 'android.apk' } } });
    if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${res.text}`);
    return res.body;
  }
});

function commit(): string {
  return randomBytes(20).toString('hex');
}

/** A setting the first Hangar was started with: its launcher's environment, as its process sees it. */
function readEnvOf(hangar: RunningHangar, name: string): string {
  const pid = hangar.pidOf('gateway');
  const env = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  const value = env.find((e) => e.startsWith(`${name}=`))?.slice(name.length + 1);
  if (!value) throw new Error(`${name} not found in the environment of the first Hangar`);
  return value;
}
