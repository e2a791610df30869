import fs from 'node:fs';
import path from 'node:path';
import { ApiClient, RunningGateway, RunningHangar, apiClient, fixturesDir, startGatewayReplica, startHangar, uniqueName } from '@hangar/testing';

const TOKEN_MAX_FAILURES = 6;
const UNLOCK_MAX_FAILURES = 5;
const CHANNEL_KEY_MAX_FAILURES = 6;

/**
 * Failed-attempt limits hold with two gateway replicas in
 * front of the same services — the same number of tries as one replica
 * gives, whichever replica each try reaches. Each scenario comes from its
 * own address (X-Forwarded-For, believed because TRUSTED_PROXIES names
 * loopback, where this suite's requests come from), so the counts of one
 * scenario never reach another.
 */
describe('failed-attempt limits with two gateway replicas', () => {
  let hangar: RunningHangar;
  let second: RunningGateway;
  let a: ApiClient;
  let b: ApiClient;
  let slug: string;

  beforeAll(async () => {
    hangar = await startHangar({
      TOKEN_MAX_FAILURES: String(TOKEN_MAX_FAILURES),
      UNLOCK_MAX_FAILURES: String(UNLOCK_MAX_FAILURES),
      CHANNEL_KEY_MAX_FAILURES: String(CHANNEL_KEY_MAX_FAILURES),
      TRUSTED_PROXIES: 'loopback',
    });
    second = await startGatewayReplica(hangar);
    a = apiClient(hangar.baseUrl);
    b = apiClient(second.baseUrl);
    const upload = await a('POST', '/api/apps/upload', {
      token: hangar.adminToken,
      form: { name: `Limits ${Date.now()}`, password: 'visit-pass' },
      files: { file: { data: fs.readFileSync(path.join(fixturesDir(), 'apps', 'android.apk')), fileName: 'android.apk' } },
    });
    expect(upload.status).toBe(201);
    slug = upload.body.channel.slug;
  }, 240_000);

  afterAll(async () => {
    await second?.stop();
    await hangar?.stop();
  });

  let nextOctet = 1;
  const freshAddress = () => `203.0.113.${nextOctet++}`;

  async function unlockTries(replicas: ApiClient[], from: string, tries: number) {
    const answers = [];
    for (let i = 0; i < tries; i++) {
      const api = replicas[i % replicas.length]!;
      answers.push(await api('POST', `/channels/${slug}/unlock`, { urlencoded: { password: 'wrong' }, headers: { 'x-forwarded-for': from } }));
    }
    return answers;
  }

  it('when wrong visit passwords alternate between the replicas, then the sixth is refused on both, as with one replica', async () => {
    const one = await unlockTries([a], freshAddress(), UNLOCK_MAX_FAILURES + 2);
    const two = await unlockTries([a, b], freshAddress(), UNLOCK_MAX_FAILURES + 2);
    const statuses = (answers: typeof one) => answers.map((r) => r.status);
    expect(statuses(one)).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect(statuses(two)).toEqual(statuses(one));
    for (const refused of two.slice(UNLOCK_MAX_FAILURES)) {
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('when a client was refused on one replica, then the other replica refuses it too and other clients still get in', async () => {
    const from = freshAddress();
    await unlockTries([a], from, UNLOCK_MAX_FAILURES);
    const onB = await b('POST', `/channels/${slug}/unlock`, { urlencoded: { password: 'visit-pass' }, headers: { 'x-forwarded-for': from } });
    expect(onB.status).toBe(429);
    const someoneElse = await b('POST', `/channels/${slug}/unlock`, { urlencoded: { password: 'visit-pass' }, headers: { 'x-forwarded-for': freshAddress() } });
    expect(someoneElse.status).toBe(303);
  });

  it('when unknown tokens alternate between the replicas, then past the limit the address gets 429 with Retry-After in the contract shape, even with a good token', async () => {
    const from = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < TOKEN_MAX_FAILURES + 1; i++) {
      const api = i % 2 === 0 ? a : b;
      statuses.push((await api('GET', '/api/users/me', { token: `hgr_wrong${i}`, headers: { 'x-forwarded-for': from } })).status);
    }
    expect(statuses).toEqual([...Array(TOKEN_MAX_FAILURES).fill(401), 429]);

    for (const api of [a, b]) {
      const blocked = await api('GET', '/api/users/me', { token: hangar.adminToken, headers: { 'x-forwarded-for': from } });
      expect(blocked.status).toBe(429);
      expect(blocked.body).toEqual({ error: expect.stringMatching(/invalid access token/) });
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect((await b('GET', '/api/users/me', { token: hangar.adminToken, headers: { 'x-forwarded-for': freshAddress() } })).status).toBe(200);
  });

  it('when unknown channel keys alternate between the replicas and routes, then past the limit every route that takes a key answers 429 with Retry-After, even for the right key, and other addresses still get in', async () => {
    const from = freshAddress();
    const headers = { 'x-forwarded-for': from };
    // Every kind of route that takes a channel key: the API's reads, update checks, debug-file
    // download and list, retrace, a symbol server with the key as credential, the install pages.
    const keyRoutes: ((key: string, api: ApiClient) => ReturnType<ApiClient>)[] = [
      (key, api) => api('GET', `/api/apps/versions?channel_key=${key}`, { headers }),
      (key, api) => api('GET', `/api/apps/latest?channel_key=${key}&release_version=1.0&build_version=1`, { headers }),
      (key, api) => api('GET', `/api/apps/version_exist?channel_key=${key}&bundle_id=com.example&release_version=1.0&build_version=1`, { headers }),
      (key, api) => api('GET', `/api/apps/update_check?channel_key=${key}&bundle_id=com.example&release_version=0.1&build_version=1`, { headers }),
      (key, api) => api('GET', `/api/debug_files/download?channel_key=${key}`, { headers }),
      (key, api) => api('GET', `/api/debug_files?channel_key=${key}`, { token: hangar.adminToken, headers }),
      (key, api) => api('POST', '/api/debug_files/retrace', { urlencoded: { channel_key: key, release_version: '1.0', build_version: '1', stack_trace: 'at a.b.c(Unknown Source)' }, headers }),
      (key, api) => api('GET', `/debuginfod/${key}/buildid/${'ab'.repeat(20)}/debuginfo`, { headers }),
      (key, api) => api('GET', `/channels/${key}`, { headers }),
      (key, api) => api('POST', `/channels/${key}/unlock`, { urlencoded: { password: 'visit-pass' }, headers }),
    ];
    const wrongKey = (i: number) => `wrong${i}${uniqueName('key').replace(/[^A-Za-z0-9]/g, '')}`;
    // The right key's update check, asked first from elsewhere on each gateway: its answer is then held
    // by the fast path before express, which must not answer it to an address past the limit either.
    const rightUpdateCheck = (api: ApiClient, hdrs: Record<string, string>) =>
      api('GET', `/api/apps/update_check?channel_key=${slug}&bundle_id=com.example&release_version=0.1&build_version=1`, { headers: hdrs });
    // Twice on each: the first answer of a channel only teaches a gateway the channel's id; the second is held.
    for (const api of [a, b, a, b]) expect((await rightUpdateCheck(api, { 'x-forwarded-for': freshAddress() })).status).toBe(200);
    const before: number[] = [];
    for (let i = 0; i < CHANNEL_KEY_MAX_FAILURES; i++) before.push((await keyRoutes[i]!(wrongKey(i), i % 2 === 0 ? a : b)).status);
    expect(before.map((status, i) => [i, status])).toEqual(before.map((_, i) => [i, 404]));

    for (const [i, route] of keyRoutes.entries()) {
      for (const api of [a, b]) {
        const refused = await route(wrongKey(100 + i), api);
        expect([i, refused.status]).toEqual([i, 429]);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
    // Refused before the key is looked at: the right key gives no answer either.
    expect((await a('GET', `/api/apps/versions?channel_key=${slug}`, { headers })).status).toBe(429);
    expect((await b('GET', `/channels/${slug}`, { headers })).status).toBe(429);
    for (const api of [a, b]) expect((await rightUpdateCheck(api, headers)).status).toBe(429);
    // Another address is not held back by this one's guesses.
    const other = { 'x-forwarded-for': freshAddress() };
    expect((await b('GET', `/api/apps/versions?channel_key=${slug}`, { headers: other })).status).toBe(200);
  });
});
