import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { connect } from '@nats-io/transport-node';
import { ApiResponse, RunningHangar, apiClient, createUserWithToken, fixturesDir, startHangar, testInfrastructure, uniqueName } from '@hangar/testing';
import { WebhookReceiver, eventually } from './webhook-receiver';

/**
 * Downloads counted and in-app update checks, over HTTP with Hangar started as the README does:
 * downloads and iOS manifest fetches counted (total, unique, per day), the
 * `release.downloaded` webhook under Zealot's name, counts across a restart
 * of the releases service, and in-app update checks with their validators.
 */
describe('downloads counted and in-app update checks over HTTP', () => {
  const receiver = new WebhookReceiver();
  let hangar: RunningHangar;
  let api: ReturnType<typeof apiClient>;
  let token: string;
  const packageOf = (name: string) => fs.readFileSync(path.join(fixturesDir(), 'apps', name));
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

  beforeAll(async () => {
    await receiver.start();
    hangar = await startHangar({
      S3_BUCKET: uniqueName('e2e-downloads'),
      HANGAR_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_SECRET_KEY: 'e2e-downloads-webhook-secret-0123456789abcdef',
      WEBHOOK_POLL_MS: '100',
      // Long, so stopping a gateway catches downloads it has not reported yet.
      DOWNLOAD_FLUSH_MS: '5000',
      // Counting across processes is the subject: two gateways report, two releases replicas count
      // (the first two-replica run found increments lost between them).
      HANGAR_REPLICAS: process.env.HANGAR_E2E_REPLICAS ?? '2',
    });
    api = apiClient(hangar.baseUrl);
    token = hangar.adminToken;
  });

  /**
   * The releases service's durable on the gateways' downloads stream, from JetStream's API:
   * the stream is `<NATS prefix>_DOWNLOADS` upper-cased (libs/events downloadStreamName), the
   * durable `releases-downloads` (services/releases downloads.consumer.ts).
   */
  async function downloadsConsumer(): Promise<{ num_pending: number; num_ack_pending: number }> {
    const stream = `${hangar.dbPrefix.replace(/_/g, '-').toUpperCase()}_DOWNLOADS`;
    const nc = await connect({ servers: testInfrastructure().natsUrl });
    try {
      return (await nc.request(`$JS.API.CONSUMER.INFO.${stream}.releases-downloads`, '', { timeout: 5_000 })).json();
    } finally {
      await nc.close();
    }
  }

  afterAll(async () => {
    await hangar?.stop();
    await receiver.stop();
  });

  async function channel(deviceType = 'Android') {
    const app = (await api('POST', '/api/apps', { token, json: { name: uniqueName('Counted') } })).body;
    const scheme = (await api('POST', `/api/apps/${app.id}/schemes`, { token, json: { name: 'Beta' } })).body;
    const ch = (await api('POST', `/api/schemes/${scheme.id}/channels`, { token, json: { name: deviceType, device_type: deviceType } })).body;
    return { app, scheme, channel: ch };
  }

  async function upload(channelKey: string, file = 'android.apk'): Promise<ApiResponse> {
    const form = new FormData();
    form.append('token', token);
    form.append('channel_key', channelKey);
    form.append('file', new Blob([packageOf(file)]), file);
    const res = await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', body: form });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
  }

  const download = (id: number, userAgent: string) => api('GET', `/api/releases/${id}/download`, { headers: { 'user-agent': userAgent } });
  const stats = (id: number, as = token) => api('GET', `/api/releases/${id}/stats`, { token: as });

  it('when a package is uploaded, then the release carries the SHA-256 of its bytes, is not mandatory and has no downloads', async () => {
    const { channel: ch } = await channel();
    const created = await upload(ch.slug);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ sha256: sha256(packageOf('android.apk')), mandatory: false, download_count: 0 });
  });

  it('when one client downloads a build 300 times and another once, then it counts 301 downloads and 2 unique clients, the release shows them, and the webhook hears of them under Zealot\'s name', async () => {
    const { app, channel: ch } = await channel();
    const hook = await api('POST', `/api/apps/${app.id}/webhooks`, { token, json: { url: receiver.url('/downloads'), events: ['download_events'] } });
    expect(hook.status).toBe(201);
    expect(hook.body.events).toEqual(['release.downloaded']);
    const release = (await upload(ch.slug)).body;

    for (let batch = 0; batch < 6; batch += 1) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => download(release.id, 'StormClient/1.0')));
      expect(answers.every((a) => a.status === 302 || a.status === 200)).toBe(true);
    }
    expect([200, 302]).toContain((await download(release.id, 'Other/2.0')).status);

    await eventually(async () => (await stats(release.id)).body.total === 301, 30_000, 'downloads counted');
    const answer = await stats(release.id);
    expect(answer.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(answer.body).toEqual({ release_id: release.id, total: 301, unique: 2, days: [{ date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), total: 301, unique: 2 }] });
    expect([today, new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)]).toContain(answer.body.days[0].date);

    const listed = await api('GET', `/api/apps/versions?channel_key=${ch.slug}`);
    expect(listed.body.releases[0]).toMatchObject({ id: release.id, download_count: 301 });

    await eventually(() => receiver.on('/downloads').length > 0, 30_000, 'download webhook');
    const call = receiver.on('/downloads')[0]!;
    expect(call.headers['x-hangar-event']).toBe('release.downloaded');
    const body = JSON.parse(call.body);
    expect(body).toMatchObject({ event: 'release.downloaded', app: { id: app.id }, data: { release_id: release.id, app_id: app.id, channel_id: ch.id } });
    expect(body.data.count).toBeGreaterThan(0);
    expect(body.data.total).toBe(body.data.count); // the first of this release
  });

  it('when an iPhone fetches the install manifest, then it counts as an install of that build', async () => {
    const { channel: ch } = await channel('iOS');
    const release = (await upload(ch.slug, 'iphone.ipa')).body;
    const manifest = await api('GET', `/api/releases/${release.id}/manifest.plist`, { headers: { 'user-agent': 'com.apple.appstored/1.0 iOS/17.0' } });
    expect(manifest.status).toBe(200);
    await eventually(async () => (await stats(release.id)).body.total === 1, 30_000, 'install counted');
    expect((await stats(release.id)).body).toMatchObject({ total: 1, unique: 1 });
  });

  it('when someone without access asks for a release\'s stats, then 401 without a token, 403 outside the app, 404 for no such release', async () => {
    const { channel: ch } = await channel();
    const release = (await upload(ch.slug)).body;
    const outsider = await createUserWithToken(api, token, 'stats-outsider', 'member');
    expect((await api('GET', `/api/releases/${release.id}/stats`)).status).toBe(401);
    expect((await stats(release.id, outsider.token)).status).toBe(403);
    const missing = await stats(987_654);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: expect.any(String) });
  });

  it('when the releases service is killed and comes back, then the counts are still there and downloads made around it are all counted', async () => {
    const { channel: ch } = await channel();
    const release = (await upload(ch.slug)).body;
    await Promise.all(Array.from({ length: 40 }, () => download(release.id, 'Before/1.0')));
    await eventually(async () => (await stats(release.id)).body.total === 40, 30_000, 'first downloads counted');
    await Promise.all(Array.from({ length: 25 }, () => download(release.id, 'Before/1.0')));

    // Killed right after, every replica of it (HANGAR_E2E_REPLICAS): what it had not counted yet waits in the stream.
    await hangar.restartEvery('releases', 'SIGKILL');
    // Answering through every gateway (HANGAR_E2E_REPLICAS puts several behind the proxy, each reconnecting on its own).
    const answering = async () => {
      for (let i = 0; i < 2 * hangar.replicas; i++) if ((await api('GET', `/api/apps/versions?channel_key=${ch.slug}`)).status !== 200) return false;
      return true;
    };
    await eventually(answering, 60_000, 'releases answering');
    expect([200, 302]).toContain((await download(release.id, 'After/1.0')).status);

    let last: unknown;
    await eventually(async () => ((last = (await stats(release.id)).body) as { total?: number })?.total === 66, 60_000, 'every download counted once').catch((err) => {
      throw new Error(`${(err as Error).message}: ${JSON.stringify(last)}\n${hangar.output().split('\n').filter((l) => /releases/.test(l) && /warn|error|exit|start/i.test(l)).slice(-15).join('\n')}`);
    });
    // Nothing is counted later, shown by state rather than by seconds of silence: the releases
    // service's durable on the downloads stream has every message delivered and acknowledged,
    // so no redelivery is left that could count one twice (and the gateways hold none: all 66 are in).
    await eventually(async () => {
      const info = await downloadsConsumer();
      return info.num_pending === 0 && info.num_ack_pending === 0;
    }, 30_000, 'the downloads stream counted to its end');
    expect((await stats(release.id)).body).toMatchObject({ total: 66, unique: 2 });
  });

  it('when a gateway is stopped right after downloads, then it reports what it had gathered before it exits', async () => {
    const { channel: ch } = await channel();
    const release = (await upload(ch.slug)).body;
    await Promise.all(Array.from({ length: 30 }, () => download(release.id, 'Stopping/1.0')));

    // At once: within the gateway's moment of adding up (DOWNLOAD_FLUSH_MS, long in this suite).
    await hangar.restartEvery('gateway', 'SIGTERM');
    await eventually(() => api('GET', '/api/health').then((res) => res.status === 200, () => false), 60_000, 'gateway answering');
    await eventually(async () => (await stats(release.id)).body.total === 30, 30_000, 'downloads counted');
    expect((await stats(release.id)).body).toMatchObject({ total: 30, unique: 1 });
  });

  describe('GET /api/apps/update_check', () => {
    let ch: { id: number; slug: string };
    let older: { id: number };
    let newer: { id: number; sha256: string; bundle_id: string };
    const check = (query: Record<string, string>, headers: Record<string, string> = {}) =>
      api('GET', `/api/apps/update_check?${new URLSearchParams({ channel_key: ch.slug, bundle_id: newer.bundle_id, ...query })}`, { headers });

    beforeAll(async () => {
      ch = (await channel()).channel;
      older = (await upload(ch.slug)).body;
      newer = (await upload(ch.slug)).body;
      // The build number restarts with the new release version, as `latest` allows.
      expect((await api('PUT', `/api/releases/${older.id}`, { token, json: { release_version: '1.0', build_version: '5' } })).status).toBe(200);
      expect((await api('PUT', `/api/releases/${newer.id}`, { token, json: { release_version: '2.0', build_version: '1' } })).status).toBe(200);
    });

    it('when an older build asks, then a newer one exists (a reset build number included), with its install and download URLs, cheap to ask again', async () => {
      const first = await check({ release_version: '1.0', build_version: '5' });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({
        update_available: true,
        mandatory: false,
        release: { id: newer.id, release_version: '2.0', build_version: '1', sha256: newer.sha256 },
        install_url: expect.stringMatching(new RegExp(`/api/releases/${newer.id}/download$`)),
        download_url: expect.stringMatching(new RegExp(`/api/releases/${newer.id}/download$`)),
      });
      expect(first.headers.get('cache-control')).toBe('private, no-cache');
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);

      const again = await check({ release_version: '1.0', build_version: '5' }, { 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
    });

    it('when the newest build asks, or a build whose package hash is the newest one\'s, then there is nothing to install', async () => {
      expect((await check({ release_version: '2.0', build_version: '1' })).body).toEqual({ update_available: false, mandatory: false, release: null, install_url: null, download_url: null });
      expect((await check({ release_version: '1.0', build_version: '5', release_hash: newer.sha256.toUpperCase() })).body).toMatchObject({ update_available: false });
    });

    it('when a build between is marked mandatory, or the channel raises its minimum, then older installs must update, and the validator changes with it', async () => {
      const before = await check({ release_version: '1.0', build_version: '5' });
      const marked = await api('PUT', `/api/releases/${newer.id}`, { token, json: { mandatory: true } });
      expect(marked.body.mandatory).toBe(true);
      const after = await check({ release_version: '1.0', build_version: '5' }, { 'if-none-match': before.headers.get('etag')! });
      expect(after.status).toBe(200);
      expect(after.body).toMatchObject({ update_available: true, mandatory: true, release: { id: newer.id, mandatory: true } });

      await api('PUT', `/api/releases/${newer.id}`, { token, json: { mandatory: 'false' } });
      const raised = await api('PUT', `/api/channels/${ch.id}`, { token, json: { min_supported_version: '1.5' } });
      expect(raised.status).toBe(200);
      expect(raised.body.min_supported_version).toBe('1.5');
      expect((await check({ release_version: '1.0', build_version: '5' })).body).toMatchObject({ update_available: true, mandatory: true });
      expect((await check({ release_version: '1.6', build_version: '9' })).body).toMatchObject({ update_available: true, mandatory: false });
      expect((await api('PUT', `/api/channels/${ch.id}`, { token, json: { min_supported_version: '' } })).body.min_supported_version).toBeNull();
    });

    it('when the question is malformed, then 422 naming the field, 404 for an unknown channel, and nothing changes', async () => {
      const badHash = await check({ release_version: '1.0', build_version: '5', release_hash: 'not-a-sha256' });
      expect(badHash.status).toBe(422);
      expect(badHash.body).toEqual({ error: expect.any(String), entry: { release_hash: [expect.stringContaining('SHA-256')] } });
      const short = await check({ release_version: '1.0', build_version: '5', release_hash: 'ab'.repeat(31) });
      expect(short.status).toBe(422);
      const blank = await api('GET', `/api/apps/update_check?channel_key=${ch.slug}&release_version=1.0`);
      expect(blank.status).toBe(422);
      expect(Object.keys(blank.body.entry).sort()).toEqual(['build_version', 'bundle_id']);
      const unknown = await api('GET', '/api/apps/update_check?channel_key=no-such-channel-key&bundle_id=a&release_version=1&build_version=1');
      expect(unknown.status).toBe(404);
      const badFlag = await api('PUT', `/api/releases/${newer.id}`, { token, json: { mandatory: 'sometimes' } });
      expect(badFlag.status).toBe(422);
      expect(badFlag.body.entry).toEqual({ mandatory: [expect.any(String)] });
      const badMinimum = await api('PUT', `/api/channels/${ch.id}`, { token, json: { min_supported_version: '...' } });
      expect(badMinimum.status).toBe(422);
    });

    it('when a held answer is served before express, then it is the answer express gave, byte for byte, with the same headers', async () => {
      // A channel key's first check teaches its channel id, the second is held, later ones are
      // answered from memory before express (features/update-checks/update-check.fast-path.ts) — on each gateway.
      const question = { release_version: '1.9', build_version: '3' };
      const answers = [];
      for (let i = 0; i < 2 + 2 * hangar.replicas; i++) answers.push(await check(question, { 'x-request-id': `parity-${i}` }));
      const [first] = answers;
      for (const [i, answer] of answers.entries()) {
        expect(answer.status).toBe(200);
        expect(answer.text).toBe(first!.text);
        for (const header of ['etag', 'cache-control', 'content-type', 'content-length']) expect(answer.headers.get(header)).toBe(first!.headers.get(header));
        expect(answer.headers.get('x-request-id')).toBe(`parity-${i}`);
      }
      const revalidated = await check(question, { 'if-none-match': first!.headers.get('etag')! });
      expect(revalidated.status).toBe(304);
      expect(revalidated.headers.get('etag')).toBe(first!.headers.get('etag'));
    });

    it('when an app polls the same question many times, then the gateway answers from memory, and a new build is seen by the very next poll', async () => {
      // CheckForUpdate calls the releases service has answered, from the /metrics of every replica of it.
      const answeredByReleases = async () => {
        let sum = 0;
        for (const port of hangar.metricsPortsOf('releases')) {
          const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
          sum += text
            .split('\n')
            .filter((line) => line.startsWith('hangar_grpc_server_handled_total{') && line.includes('method="CheckForUpdate"'))
            .reduce((total, line) => total + Number(line.split(' ').at(-1)), 0);
        }
        return sum;
      };
      const question = { release_version: '2.0', build_version: '1' };
      // Asked once through each gateway (one after another, the proxy takes them in turn): each holds the answer.
      for (let i = 0; i < hangar.replicas; i++) expect((await check(question)).body.update_available).toBe(false);
      const before = await answeredByReleases();
      const polls = await Promise.all(Array.from({ length: 30 }, () => check(question)));
      for (const poll of polls) expect(poll.body).toMatchObject({ update_available: false });
      expect(await answeredByReleases()).toBe(before);

      const newest = (await upload(ch.slug)).body;
      expect((await api('PUT', `/api/releases/${newest.id}`, { token, json: { release_version: '2.1', build_version: '1' } })).status).toBe(200);
      expect((await check(question)).body).toMatchObject({ update_available: true, release: { id: newest.id, release_version: '2.1' } });
      expect(await answeredByReleases()).toBeGreaterThan(before);
    });
  });
});
