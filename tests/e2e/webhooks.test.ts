import fs from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { ApiResponse, CHAT_MESSAGE_CHECKS, RunningHangar, apiClient, fixturesDir, sharedHangar, testInfrastructure, uniqueName } from '@hangar/testing';
import { WebhookReceiver, eventually, signatureValid } from './webhook-receiver';

/**
 * Webhooks over HTTP with Hangar started as the README does: management,
 * the new-build callout on a real upload, retries in the delivery log (on the
 * worker's shared Hangar; the webhooks process killed in the middle of deliveries
 * is in kill-each-service.test.ts, whose Hangar is there to be killed).
 */
describe('webhooks over HTTP', () => {
  const receiver = new WebhookReceiver();
  let hangar: RunningHangar;
  let api: ReturnType<typeof apiClient>;
  let token: string;

  beforeAll(async () => {
    await receiver.start();
    hangar = await sharedHangar();
    api = apiClient(hangar.baseUrl);
    token = hangar.adminToken;
  });

  afterAll(async () => {
    await hangar?.stop();
    await receiver.stop();
  });

  async function channel(newBuildCallout = true) {
    const app = (await api('POST', '/api/apps', { token, json: { name: uniqueName('Hooked') } })).body;
    const scheme = (await api('POST', `/api/apps/${app.id}/schemes`, { token, json: { name: 'Beta', new_build_callout: newBuildCallout } })).body;
    const ch = (await api('POST', `/api/schemes/${scheme.id}/channels`, { token, json: { name: 'Android', device_type: 'Android' } })).body;
    return { app, scheme, channel: ch };
  }

  const createHook = (appId: number, body: Record<string, unknown>) => api('POST', `/api/apps/${appId}/webhooks`, { token, json: body });

  async function upload(channelKey: string): Promise<ApiResponse> {
    const form = new FormData();
    form.append('token', token);
    form.append('channel_key', channelKey);
    form.append('file', new Blob([fs.readFileSync(path.join(fixturesDir(), 'apps', 'android.apk'))]), 'android.apk');
    const res = await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', body: form });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
  }

  it('when a webhook is created, read, updated and deleted, then the secret appears only in the create answer', async () => {
    const { app } = await channel();
    const created = await createHook(app.id, { url: receiver.url('/crud'), events: ['release.created'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ app_id: app.id, url: receiver.url('/crud'), events: ['release.created'], secret: expect.stringMatching(/^whsec_/) });
    const id = created.body.id;
    const got = await api('GET', `/api/webhooks/${id}`, { token });
    const listed = await api('GET', `/api/apps/${app.id}/webhooks`, { token });
    expect(got.status).toBe(200);
    expect(listed.body.map((w: { id: number }) => w.id)).toEqual([id]);
    for (const res of [got, listed]) expect(res.text).not.toContain(created.body.secret);
    const updated = await api('PUT', `/api/webhooks/${id}`, { token, form: { events: 'release.created, app.deleted' } });
    expect(updated.body).toMatchObject({ url: receiver.url('/crud'), events: ['release.created', 'app.deleted'] });
    expect((await api('DELETE', `/api/webhooks/${id}`, { token })).status).toBe(200);
    expect((await api('GET', `/api/webhooks/${id}`, { token })).status).toBe(404);
    expect((await api('GET', `/api/webhooks/${id}`)).status).toBe(401);
  });

  it('when the URL is in a private range not on the allow-list, or not http(s), then 422 naming url and nothing is stored', async () => {
    const { app } = await channel();
    for (const url of ['http://10.0.0.8/hook', 'http://192.168.1.20:8080/hook', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/hook', 'file:///etc/passwd']) {
      const res = await createHook(app.id, { url });
      expect({ url, status: res.status, entry: Object.keys(res.body.entry ?? {}) }).toEqual({ url, status: 422, entry: ['url'] });
    }
    expect((await api('GET', `/api/apps/${app.id}/webhooks`, { token })).body).toEqual([]);
  });

  it('when the test endpoint is called, then a signed webhook.test reaches the receiver and the attempt is answered', async () => {
    const { app } = await channel();
    const { body: hook } = await createHook(app.id, { url: receiver.url('/ping') });
    const res = await api('POST', `/api/webhooks/${hook.id}/test`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ webhook_id: hook.id, event: 'webhook.test', attempt: 1, status_code: 200, success: true, error: null });
    const [call] = receiver.on('/ping');
    expect(signatureValid(call!, hook.secret)).toBe(true);
    expect(signatureValid(call!, 'not-the-secret')).toBe(false);
  });

  it('when a build is uploaded to a scheme with new_build_callout, then the webhook receives the signed release', async () => {
    const { app, scheme, channel: ch } = await channel(true);
    const { body: hook } = await createHook(app.id, { url: receiver.url('/new-build') });
    const uploaded = await upload(ch.slug);
    expect(uploaded.status).toBe(201);
    const [call] = await receiver.waitFor('/new-build', 1);
    expect(signatureValid(call!, hook.secret)).toBe(true);
    expect(call!.headers).toMatchObject({ 'content-type': 'application/json', 'x-hangar-event': 'release.created' });
    expect(call!.headers['x-hangar-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(call!.body)).toMatchObject({
      event: 'release.created',
      app: { id: app.id, name: app.name },
      scheme: { id: scheme.id, name: 'Beta' },
      channel: { slug: ch.slug, name: 'Android', device_type: 'android' },
      release: {
        id: uploaded.body.id,
        version: uploaded.body.version,
        bundle_id: 'com.icyleaf.appinfodemo',
        release_version: '1.2.3',
        build_version: '5',
        release_url: `/releases/${uploaded.body.id}`,
        install_url: `/api/releases/${uploaded.body.id}/download`,
        qrcode_url: `/api/releases/${uploaded.body.id}/qrcode`,
      },
    });
    // The attempt is recorded once the receiver's answer is back, a moment after the call arrives.
    await eventually(async () => (await api('GET', `/api/webhooks/${hook.id}/deliveries`, { token })).body.some((d: { success: boolean }) => d.success), 30_000, 'the attempt recorded');
    const log = await api('GET', `/api/webhooks/${hook.id}/deliveries`, { token });
    expect(log.body).toEqual([expect.objectContaining({ event: 'release.created', attempt: 1, status_code: 200, success: true, delivery_id: call!.headers['x-hangar-delivery'] })]);
  });

  it('when slack, teams and discord webhooks get a real new-build upload, then each receives its platform\'s message, which the platform\'s rules accept', async () => {
    const { app, channel: ch } = await channel(true);
    const formats = ['slack', 'teams', 'discord'] as const;
    const hooks = await Promise.all(formats.map((format) => createHook(app.id, { url: receiver.url(`/chat-${format}`), format })));
    expect(hooks.map((h) => [h.status, h.body.format])).toEqual(formats.map((f) => [201, f]));
    const uploaded = await upload(ch.slug);
    expect(uploaded.status).toBe(201);
    for (const [i, format] of formats.entries()) {
      const [call] = await receiver.waitFor(`/chat-${format}`, 1);
      const body = JSON.parse(call!.body);
      expect({ format, problems: CHAT_MESSAGE_CHECKS[format]!(body) }).toEqual({ format, problems: [] });
      expect(call!.body).toContain(app.name);
      expect(call!.body).toContain('1.2.3 (5)');
      expect(call!.body).toContain('Beta / Android');
      // Not Hangar's JSON, but still signed over the exact bytes posted (chat platforms ignore the header).
      expect(body.event).toBeUndefined();
      expect(signatureValid(call!, hooks[i]!.body.secret)).toBe(true);
    }
  });

  it('when a webhook is given an unknown format, then 422 naming format; a known one is kept, changed by PUT and used by the test call', async () => {
    const { app } = await channel();
    const refused = await createHook(app.id, { url: receiver.url('/chat-unknown'), format: 'irc' });
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.entry)).toEqual(['format']);
    expect(refused.body.error).toContain('slack');
    expect((await api('GET', `/api/apps/${app.id}/webhooks`, { token })).body).toEqual([]);
    const { body: hook } = await createHook(app.id, { url: receiver.url('/chat-switch') });
    expect(hook.format).toBe('generic');
    const bad = await api('PUT', `/api/webhooks/${hook.id}`, { token, json: { format: 'msteams' } });
    expect([bad.status, Object.keys(bad.body.entry)]).toEqual([422, ['format']]);
    const changed = await api('PUT', `/api/webhooks/${hook.id}`, { token, form: { format: 'teams' } });
    expect([changed.status, changed.body.format]).toEqual([200, 'teams']);
    expect((await api('GET', `/api/webhooks/${hook.id}`, { token })).body.format).toBe('teams');
    const tested = await api('POST', `/api/webhooks/${hook.id}/test`, { token });
    expect(tested.body).toMatchObject({ success: true, status_code: 200 });
    const [call] = receiver.on('/chat-switch');
    const card = JSON.parse(call!.body);
    expect(CHAT_MESSAGE_CHECKS.teams!(card)).toEqual([]);
    expect(card.attachments[0].content.body[0].text).toBe(`Hangar test message for ${app.name}`);
  });

  it('when new_build_callout is off, then an upload calls no webhook', async () => {
    const { app, channel: ch } = await channel(false);
    const { body: hook } = await createHook(app.id, { url: receiver.url('/no-callout') });
    const quiet = await upload(ch.slug);
    expect(quiet.status).toBe(201);
    // A marker instead of a silence: a build of the same app on a scheme with the callout on.
    // Its release.created comes after the first on the same durable consumer, which handles one
    // event at a time in order, so once its delivery is sent and recorded the first event has
    // been handled, and any delivery it had made would be in the log before it (and due sooner).
    const onScheme = (await api('POST', `/api/apps/${app.id}/schemes`, { token, json: { name: 'Marker', new_build_callout: true } })).body;
    const onChannel = (await api('POST', `/api/schemes/${onScheme.id}/channels`, { token, json: { name: 'Android', device_type: 'Android' } })).body;
    const marker = await upload(onChannel.slug);
    expect(marker.status).toBe(201);
    await receiver.waitFor('/no-callout', 1);
    await eventually(async () => (await api('GET', `/api/webhooks/${hook.id}/deliveries`, { token })).body.some((d: { success: boolean }) => d.success), 30_000, "the marker's attempt recorded");
    expect((await api('GET', `/api/webhooks/${hook.id}/deliveries`, { token })).body).toHaveLength(1);
    expect(receiver.on('/no-callout').map((c) => JSON.parse(c.body).release.id)).toEqual([marker.body.id]);
  });

  it('when the receiver answers 500 twice then 200, then the delivery log lists three attempts, paginated', async () => {
    const { app, scheme } = await channel();
    const { body: hook } = await createHook(app.id, { url: receiver.url('/flaky'), events: ['scheme.deleted'] });
    receiver.plan('/flaky', [500, 500]);
    expect((await api('DELETE', `/api/schemes/${scheme.id}`, { token })).status).toBe(200);
    const calls = await receiver.waitFor('/flaky', 3);
    for (const c of calls) expect(signatureValid(c, hook.secret)).toBe(true);
    await eventually(async () => (await api('GET', `/api/webhooks/${hook.id}/deliveries`, { token })).body.some((d: { success: boolean }) => d.success), 10_000, 'a successful attempt');
    const log = await api('GET', `/api/webhooks/${hook.id}/deliveries`, { token });
    expect(log.headers.get('x-total-count')).toBe('3');
    expect(log.body.map((d: { attempt: number; status_code: number; success: boolean }) => [d.attempt, d.status_code, d.success])).toEqual([
      [3, 200, true],
      // A loopback receiver is a private target: its failures carry no status (a closed port looks the same).
      [2, null, false],
      [1, null, false],
    ]);
    expect(new Set(log.body.map((d: { delivery_id: string }) => d.delivery_id)).size).toBe(1);
    const page = await api('GET', `/api/webhooks/${hook.id}/deliveries?per_page=2&page=2`, { token });
    expect(page.body.map((d: { attempt: number }) => d.attempt)).toEqual([1]);
    expect(page.headers.get('link')).toContain('rel="prev"');
    // No fourth attempt, shown by state rather than by a silence: the delivery's row says
    // delivered, which the dispatcher never takes again (it looks only at pending rows)...
    const deliveryId = String(calls[0]!.headers['x-hangar-delivery']);
    const mongo = new MongoClient(testInfrastructure().mongoUrl, { directConnection: true });
    try {
      const rows = mongo.db(`${hangar.dbPrefix}_webhooks`).collection<{ _id: string; state: string }>('webhook_deliveries');
      await eventually(async () => (await rows.findOne({ _id: deliveryId }))?.state === 'delivered', 10_000, 'the delivery marked delivered');
    } finally {
      await mongo.close();
    }
    // ...and a pass of the dispatcher after it: a later event of the same webhook, sent through
    // the same loop, arrives as the next call, not a fourth attempt of the first delivery.
    const later = (await api('POST', `/api/apps/${app.id}/schemes`, { token, json: { name: 'Later' } })).body;
    expect((await api('DELETE', `/api/schemes/${later.id}`, { token })).status).toBe(200);
    const all = await receiver.waitFor('/flaky', 4);
    expect(all.map((c) => [c.headers['x-hangar-delivery'] === deliveryId, c.headers['x-hangar-attempt']])).toEqual([
      [true, '1'],
      [true, '2'],
      [true, '3'],
      [false, '1'],
    ]);
  });
});
