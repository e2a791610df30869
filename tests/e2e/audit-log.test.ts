import fs from 'node:fs';
import { connect } from '@nats-io/transport-node';
import path from 'node:path';
import { ApiClient, RunningHangar, TestUser, apiClient, createUserWithToken, eventually, eventuallyValue, fixturesDir, sharedHangar, testInfrastructure, uniqueName } from '@hangar/testing';

/**
 * Every write through the API — allowed or refused — lands
 * in the audit log off the request path (gateway → JetStream → users
 * service), never with a secret; admins read it with filters, an app's admins
 * their app's entries; each entry also goes out as `audit.recorded`.
 */
describe('the audit log', () => {
  const infra = testInfrastructure();
  let hangar: RunningHangar;
  let api: ApiClient;
  let owner: TestUser;
  let member: TestUser;
  let appId: number;
  const today = () => new Date().toISOString().slice(0, 10);
  const dsym = fs.readFileSync(path.join(fixturesDir(), 'dsyms', 'single_ios.dSYM.zip'));

  /** The entries of a filter once the one asked for is there (storage is off the request path). */
  async function entriesUntil(query: string, found: (e: Record<string, any>) => boolean, token = hangar.adminToken): Promise<Record<string, any>[]> {
    const read = async () => {
      const res = await api('GET', `/api/audit?${query}`, { token });
      expect(res.status).toBe(200);
      return res.body as Record<string, any>[];
    };
    return eventuallyValue(read, (entries) => entries.some(found), { timeoutMs: 15_000, stepMs: 50, what: `an audit entry matching ${query}` });
  }

  beforeAll(async () => {
    // A webhook to a local address (nothing listens: none is delivered here).
    hangar = await sharedHangar();
    api = apiClient(hangar.baseUrl);
    owner = await createUserWithToken(api, hangar.adminToken, 'audit-owner', 'developer');
    member = await createUserWithToken(api, hangar.adminToken, 'audit-member', 'member');
    const app = await api('POST', '/api/apps', { token: owner.token, form: { name: uniqueName('audited') } });
    appId = app.body.id;
    expect((await api('POST', `/api/apps/${appId}/collaborators/${member.id}`, { token: owner.token, form: { role: 'member' } })).status).toBe(201);
  }, 240_000);

  afterAll(async () => {
    await hangar?.stop();
  });

  it('when an admin creates a user, then the entry says who, what, from where and how it ended, with the password redacted', async () => {
    const name = uniqueName('audited-user').replace(/-/g, '');
    const requestId = `audit-${Date.now()}`;
    const password = 'a-secret-passphrase';
    const res = await api('POST', '/api/users', { token: hangar.adminToken, form: { username: name, email: `${name}@example.com`, password }, headers: { 'x-request-id': requestId, 'x-forwarded-for': '198.51.100.9' } });
    expect(res.status).toBe(201);
    const admin = (await api('GET', '/api/users/me', { token: hangar.adminToken })).body;
    const entries = await entriesUntil('operation=createUser', (e) => e.request_id === requestId);
    const entry = entries.find((e) => e.request_id === requestId)!;
    expect(entry).toMatchObject({
      user_id: admin.id,
      token_id: expect.any(Number),
      operation: 'createUser',
      method: 'POST',
      path: '/api/users',
      // The socket's peer: X-Forwarded-For is not believed from a peer outside TRUSTED_PROXIES (none here).
      address: '127.0.0.1',
      status: 201,
      fields: { username: name, email: `${name}@example.com`, password: '[redacted]' },
    });
    expect(JSON.stringify(entries)).not.toContain(password);
  });

  it('when writes are refused (403, 401), then they are recorded too', async () => {
    const forbidden = await api('DELETE', `/api/apps/${appId}`, { token: member.token });
    expect(forbidden.status).toBe(403);
    const anonymous = await api('PUT', `/api/apps/${appId}`, { form: { name: 'nobody' } });
    expect(anonymous.status).toBe(401);
    const refused = await entriesUntil(`app_id=${appId}&operation=deleteApp`, (e) => e.status === 403);
    expect(refused.find((e) => e.status === 403)).toMatchObject({ user_id: member.id, app_id: appId, resource_ids: { id: String(appId) } });
    const unknown = await entriesUntil(`app_id=${appId}&operation=updateApp`, (e) => e.status === 401);
    expect(unknown.find((e) => e.status === 401)).toMatchObject({ user_id: null, token_id: null, fields: { name: 'nobody' } });
    expect((await api('GET', `/api/apps/${appId}`, { token: owner.token })).status).toBe(200);
  });

  it('when a write is refused before its token is read (a body that does not parse, a tus request without Tus-Resumable), then it is recorded under its operation', async () => {
    const malformed = await fetch(`${hangar.baseUrl}/api/apps/${appId}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"name": ' });
    expect(malformed.status).toBe(400);
    const refused = await entriesUntil(`app_id=${appId}&operation=updateApp`, (e) => e.status === 400);
    expect(refused.find((e) => e.status === 400)).toMatchObject({ user_id: null, resource_ids: { id: String(appId) } });
    const noVersion = await fetch(`${hangar.baseUrl}/api/uploads/${'x'.repeat(20)}`, { method: 'PATCH', headers: { authorization: `Bearer ${member.token}` } });
    expect(noVersion.status).toBe(412);
    await entriesUntil(`operation=appendUpload`, (e) => e.status === 412 && e.resource_ids?.id === 'x'.repeat(20));
  });

  it("when an app's admin reads the log, then only with their app; a member and a non-admin without app_id are refused", async () => {
    await api('PUT', `/api/apps/${appId}`, { token: owner.token, form: { name: uniqueName('renamed') } });
    const own = await entriesUntil(`app_id=${appId}&operation=updateApp`, (e) => e.status === 200, owner.token);
    expect(own.every((e) => e.app_id === appId)).toBe(true);
    const byMember = await api('GET', `/api/audit?app_id=${appId}`, { token: member.token });
    expect([byMember.status, Object.keys(byMember.body)]).toEqual([403, ['error']]);
    const wholeLog = await api('GET', '/api/audit', { token: owner.token });
    expect([wholeLog.status, Object.keys(wholeLog.body)]).toEqual([403, ['error']]);
  });

  it("when channels, schemes, webhooks and debug files are written by id, then each entry carries their app, and the app's admin sees the channel password change", async () => {
    const app = (await api('POST', '/api/apps', { token: owner.token, form: { name: uniqueName('audited-parts') } })).body.id as number;
    const scheme = (await api('POST', `/api/apps/${app}/schemes`, { token: owner.token, form: { name: 'Beta', new_build_callout: 'false' } })).body.id as number;
    const channel = await api('POST', `/api/schemes/${scheme}/channels`, { token: owner.token, form: { name: 'iOS', device_type: 'ios' } });
    expect(channel.status).toBe(201);
    const writes = {
      updateChannel: await api('PUT', `/api/channels/${channel.body.id}`, { token: owner.token, form: { password: 'channel-visit-secret' } }),
      updateScheme: await api('PUT', `/api/schemes/${scheme}`, { token: owner.token, form: { name: 'Beta 2' } }),
      uploadDebugFile: await api('POST', '/api/debug_files/upload', { token: owner.token, form: { channel_key: channel.body.slug }, files: { file: { data: dsym, fileName: 'symbols.zip' } } }),
    };
    const hook = await api('POST', `/api/apps/${app}/webhooks`, { token: owner.token, form: { url: 'http://127.0.0.1:9/hook', events: 'release.created' } });
    expect(hook.status).toBe(201);
    Object.assign(writes, {
      updateWebhook: await api('PUT', `/api/webhooks/${hook.body.id}`, { token: owner.token, form: { events: 'release.deleted' } }),
      deleteWebhook: await api('DELETE', `/api/webhooks/${hook.body.id}`, { token: owner.token }),
      deleteDebugFile: await api('DELETE', `/api/debug_files/${writes.uploadDebugFile.body.id}?channel_key=${channel.body.slug}`, { token: owner.token }),
      deleteChannel: await api('DELETE', `/api/channels/${channel.body.id}`, { token: owner.token }),
      deleteScheme: await api('DELETE', `/api/schemes/${scheme}`, { token: owner.token }),
    });
    for (const [operation, res] of Object.entries(writes)) expect([operation, res.status]).toEqual([operation, 200]);
    const operations = ['createChannel', ...Object.keys(writes)];
    let entries: Record<string, any>[] = [];
    // Until every write's entry is stored (off the request path); the assertions below name any that never came.
    await eventually(async () => {
      entries = (await api('GET', `/api/audit?app_id=${app}&per_page=100`, { token: owner.token })).body;
      return operations.every((op) => entries.some((e) => e.operation === op));
    }, { timeoutMs: 20_000, stepMs: 50 }).catch(() => undefined);
    expect(operations.filter((op) => !entries.some((e) => e.operation === op && e.app_id === app && e.status < 300))).toEqual([]);
    expect(entries.find((e) => e.operation === 'updateChannel')).toMatchObject({ app_id: app, resource_ids: { id: String(channel.body.id) }, fields: { password: '[redacted]' } });
    expect(JSON.stringify(entries)).not.toContain('channel-visit-secret');
  });

  it('when filters narrow by user and day, then only matching entries come, a page at a time', async () => {
    for (let i = 0; i < 3; i++) await api('POST', '/api/users/me/tokens', { token: member.token, form: { name: `t${i}` } });
    await entriesUntil(`user_id=${member.id}&operation=createToken`, (e) => e.fields.name === 't2');
    const page = await api('GET', `/api/audit?user_id=${member.id}&operation=createToken&day=${today()}&per_page=2`, { token: hangar.adminToken });
    expect(page.status).toBe(200);
    expect(Number(page.headers.get('x-total-count'))).toBe(3);
    expect(page.body).toHaveLength(2);
    expect(page.body.every((e: Record<string, any>) => e.user_id === member.id && e.operation === 'createToken')).toBe(true);
    const yesterday = new Date(Date.now() - 24 * 3600 * 1000).toISOString().slice(0, 10);
    const range = await api('GET', `/api/audit?user_id=${member.id}&operation=createToken&from=${yesterday}&to=${today()}`, { token: hangar.adminToken });
    expect(Number(range.headers.get('x-total-count'))).toBe(3);
    const other = await api('GET', `/api/audit?user_id=${member.id}&day=2001-01-01`, { token: hangar.adminToken });
    expect(other.body).toEqual([]);
  });

  it('when a resumable upload is sent, then its creation is recorded and its parts only when refused', async () => {
    const scheme = await api('POST', `/api/apps/${appId}/schemes`, { token: owner.token, form: { name: 'Beta', new_build_callout: 'false' } });
    const channel = await api('POST', `/api/schemes/${scheme.body.id}/channels`, { token: owner.token, form: { name: 'Android', device_type: 'android' } });
    const tus = { 'tus-resumable': '1.0.0' };
    const created = await api('POST', '/api/uploads', {
      token: owner.token,
      headers: { ...tus, 'upload-length': '4', 'upload-metadata': `channel_key ${Buffer.from(channel.body.slug).toString('base64')}` },
    });
    expect(created.status).toBe(201);
    const id = created.headers.get('location')!.split('/').pop()!;
    const part = { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' };
    expect((await api('PATCH', `/api/uploads/${id}`, { token: owner.token, headers: part, rawBody: 'abcd' })).status).toBe(204);
    expect((await api('PATCH', `/api/uploads/${id}`, { token: member.token, headers: part, rawBody: 'abcd' })).status).toBe(404);
    await entriesUntil(`user_id=${owner.id}&operation=createUpload`, (e) => e.status === 201);
    const parts = await entriesUntil(`user_id=${member.id}&operation=appendUpload`, (e) => e.status === 404);
    expect(parts.map((e) => e.status)).toEqual([404]);
    const ownerParts = await api('GET', `/api/audit?user_id=${owner.id}&operation=appendUpload`, { token: hangar.adminToken });
    expect(ownerParts.body).toEqual([]);
  });

  it('when the time range is malformed, then 422 names the field', async () => {
    const cases: [string, string][] = [
      ['day=2026-13-01', 'day'],
      ['from=2026-02-10&to=2026-02-01', 'from'],
      ['from=2026-01-01&to=2026-03-01', 'to'],
      ['from=2026-01-01', 'to'],
      ['day=yesterday', 'day'],
    ];
    for (const [query, field] of cases) {
      const res = await api('GET', `/api/audit?${query}`, { token: hangar.adminToken });
      expect([query, res.status, Object.keys(res.body.entry ?? {})]).toEqual([query, 422, [field]]);
    }
  });

  it('when a write is recorded, then audit.recorded goes out with the entry and no secret', async () => {
    const prefix = envOfGateway(hangar, 'NATS_SUBJECT_PREFIX');
    const nc = await connect({ servers: infra.natsUrl });
    try {
      const sub = nc.subscribe(`${prefix}.users.audit.recorded.v1`);
      const name = uniqueName('evented').replace(/-/g, '');
      const res = await api('POST', '/api/users', { token: hangar.adminToken, form: { username: name, email: `${name}@example.com`, password: 'evented-password' } });
      expect(res.status).toBe(201);
      const timer = setTimeout(() => sub.unsubscribe(), 15_000);
      let event: Record<string, any> | undefined;
      for await (const msg of sub) {
        const envelope = JSON.parse(msg.string());
        if (envelope.data.operation === 'createUser' && envelope.data.fields.some((f: { value: string }) => f.value === name)) {
          event = envelope;
          break;
        }
      }
      clearTimeout(timer);
      expect(event).toMatchObject({ type: 'audit.recorded', data: { status: 201, operation: 'createUser' } });
      expect(JSON.stringify(event)).not.toContain('evented-password');
    } finally {
      await nc.close();
    }
  });
});

function envOfGateway(hangar: RunningHangar, name: string): string {
  const env = fs.readFileSync(`/proc/${hangar.pidOf('gateway')}/environ`, 'utf8').split('\0');
  const value = env.find((e) => e.startsWith(`${name}=`))?.slice(name.length + 1);
  if (!value) throw new Error(`${name} not found in the gateway's environment`);
  return value;
}
