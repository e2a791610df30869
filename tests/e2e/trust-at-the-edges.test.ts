import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SERVICES } from '@hangar/infra';
import { RunningHangar, apiClient, fixturesDir, startHangar, uniqueName } from '@hangar/testing';
import { OtlpReceiver } from './otlp-receiver';
import { eventually } from './webhook-receiver';

const SERVER = 2;

/** Every character percent-encoded, as a client may send a value. */
const encodedAll = (value: string, upper = true) =>
  [...Buffer.from(value)].map((b) => `%${b.toString(16).padStart(2, '0')[upper ? 'toUpperCase' : 'toLowerCase']()}`).join('');

/** The addresses a TCP port listens on, from the kernel's table (hex `0100007F` is 127.0.0.1). */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6']
    .filter((file) => fs.existsSync(file))
    .flatMap((file) => fs.readFileSync(file, 'utf8').split('\n').slice(1))
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols[3] === '0A' && cols[1]?.endsWith(`:${hexPort}`))
    .map((cols) => cols[1]!.split(':')[0]!);
}

/**
 * Hangar under `npm run up`'s own defaults, traced to a collector: fresh secrets
 * of every kind (a token, the key and password of a protected channel, a console
 * session, an unlock cookie) sent in every place a client may put them — the
 * credential segment of the symbol-server routes, /channels/<key>, query strings
 * well-formed and not — reach no log file and no exported span; the logs are the
 * owner's only; /metrics listens on loopback; a download streams rather than
 * redirecting to a loopback S3 a phone cannot reach.
 */
describe('trust at the edges under npm run up', () => {
  const otlp = new OtlpReceiver();
  let hangar: RunningHangar;
  let token: string;
  let channelKey: string;
  let channelPassword: string;
  let session: string;
  let unlock: string;
  let unlockCookieName: string;
  let releaseId: number;
  const sentRequests: { requestId: string; traceId: string }[] = [];

  beforeAll(async () => {
    await otlp.start();
    hangar = await startHangar({
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      // The launcher's own defaults (the suites' harness sets it true otherwise).
      DOWNLOAD_REDIRECT: undefined,
      METRICS_HOST: undefined,
      S3_PUBLIC_ENDPOINT: undefined,
    });
    const api = apiClient(hangar.baseUrl);
    token = (await api('POST', '/api/users/me/tokens', { token: hangar.adminToken, json: { name: 'edges' } })).body.token;
    expect(token).toMatch(/^hgr_/);

    channelPassword = `pw-${randomBytes(9).toString('hex')}`;
    const form = new FormData();
    form.append('token', hangar.adminToken);
    form.append('name', uniqueName('Edges'));
    form.append('password', channelPassword);
    form.append('file', new Blob([fs.readFileSync(path.join(fixturesDir(), 'apps', 'android.apk'))]), 'android.apk');
    const uploaded = await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', body: form });
    expect(uploaded.status).toBe(201);
    const release = (await uploaded.json()) as { id: number; channel: { slug: string } };
    channelKey = release.channel.slug;
    releaseId = release.id;

    const signIn = await fetch(`${hangar.baseUrl}/api/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@e2e.test', password: hangar.adminPassword }),
    });
    expect(signIn.status).toBeLessThan(300);
    session = /hangar_session=([^;]+)/.exec(signIn.headers.getSetCookie().join('\n'))![1]!;

    const unlocked = await fetch(`${hangar.baseUrl}/channels/${channelKey}/unlock`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `password=${encodeURIComponent(channelPassword)}`,
      redirect: 'manual',
    });
    const cookie = /(hangar_unlock_\d+)=([^;]+)/.exec(unlocked.headers.getSetCookie().join('\n'));
    expect(cookie).not.toBeNull();
    unlockCookieName = cookie![1]!;
    unlock = cookie![2]!;
  }, 240_000);

  afterAll(async () => {
    await hangar?.stop();
    await otlp.stop();
  });

  /** Sends one request carrying every cookie, with its own request id and trace, and remembers them. */
  async function send(pathAndQuery: string, init: RequestInit = {}): Promise<void> {
    const requestId = `edges-${sentRequests.length}-${randomBytes(4).toString('hex')}`;
    const traceId = randomBytes(16).toString('hex');
    sentRequests.push({ requestId, traceId });
    const res = await fetch(`${hangar.baseUrl}${pathAndQuery}`, {
      redirect: 'manual',
      ...init,
      headers: {
        'x-request-id': requestId,
        traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
        cookie: `hangar_session=${session}; ${unlockCookieName}=${unlock}`,
        ...(init.headers as Record<string, string> | undefined),
      },
    });
    await res.arrayBuffer();
    expect(res.status).toBeLessThan(500);
  }

  it('when secrets are sent in paths, query strings and cookies, then no log file and no exported span holds one; the logs are 0600', async () => {
    const uuid = '0123456789abcdef0123456789abcdef';
    for (const credential of [token, channelKey]) {
      for (const route of [
        `/debuginfod/${credential}/buildid/${uuid}01234567/debuginfo`,
        `/DEBUGINFOD/${credential}/buildid/${uuid}01234567/executable/`,
        `/debuginfod/${credential}/buildid/${uuid}`,
        `/apple/${credential}/dsym/${uuid}.zip`,
        `/apple/${credential}/unified/01/${uuid.slice(2)}/debuginfo`,
        `/breakpad/${credential}/app.pdb/${uuid}1/app.sym`,
        `/symbols/${credential}/app.pdb/${uuid}1/app.pdb`,
      ]) {
        await send(route);
      }
    }
    await send(`/channels/${channelKey}`);
    await send(`/channels/${channelKey}/unlock`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'password=wrong' });
    await send(`/channels/${channelKey}/unlock`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `password=${encodeURIComponent(channelPassword)}` });

    const targets = ['/api/apps/versions', '/api/users/me', `/api/releases/${releaseId}/download`, '/channels/x/y'];
    for (const secret of [token, channelKey, channelPassword, session, unlock]) {
      const queries = [
        `token[a]=${secret}`,
        `a=1;token=${secret}`,
        `token%5Bx%5D=${secret}`,
        `token+=${secret}`,
        `channel_key[]=${secret}`,
        `%63hannel%5Fkey=${secret}`,
        `token=${encodedAll(secret)}`,
        `channel_key=${encodedAll(secret, false)}`,
        `token=decoy&token=${secret}`,
        `channel_key=${secret}&channel_key=${secret}`,
        `token=${secret}%E0%A4%A`,
        `%E0%A4%A=1&password=${secret}`,
        `password=${secret}`,
        `t=${secret}`,
        `tester=1&key=${secret}`,
      ];
      for (const [i, query] of queries.entries()) await send(`${targets[i % targets.length]}?${query}`);
    }
    await send(`/api/users/me`, { headers: { authorization: `Bearer ${token}` } });

    // Every request's access-log line written, every request's spans exported.
    await eventually(() => {
      const logs = hangar.logOf('gateway');
      return sentRequests.every(({ requestId }) => logs.includes(requestId));
    }, 60_000, 'an access-log line for every request');
    await eventually(
      () => sentRequests.every(({ traceId }) => otlp.spans.some((s) => s.traceId === traceId && s.service === 'hangar-gateway' && s.kind === SERVER)),
      60_000,
      'a gateway span for every request',
    );

    const logsDir = path.join(hangar.dataDir, 'logs');
    const logFiles = fs.readdirSync(logsDir).map((name) => path.join(logsDir, name));
    expect(logFiles.length).toBeGreaterThan(0);
    const logged = logFiles.map((file) => fs.readFileSync(file, 'utf8')).join('\n');
    expect(logged).toContain('[REDACTED]');
    const exported = otlp.rawBodies.join('\n');
    const secrets = { token, channelKey, channelPassword, session, unlock };
    for (const [name, secret] of Object.entries(secrets)) {
      for (const form of [secret, encodedAll(secret), encodedAll(secret, false)]) {
        expect({ name, inLogs: logged.includes(form) }).toEqual({ name, inLogs: false });
        expect({ name, inSpans: exported.includes(form) }).toEqual({ name, inSpans: false });
      }
    }

    const modes = Object.fromEntries(
      [...logFiles, ...fs.readdirSync(path.join(hangar.dataDir, 'run')).filter((n) => n.endsWith('.pid')).map((n) => path.join(hangar.dataDir, 'run', n))].map((file) => [
        path.relative(hangar.dataDir, file),
        (fs.statSync(file).mode & 0o777).toString(8),
      ]),
    );
    expect(Object.values(modes).every((mode) => mode === '600')).toEqual(true);
    expect(modes).toMatchObject({ 'logs/gateway.log': '600', 'run/gateway.pid': '600' });
  }, 300_000);

  it("when npm run up starts the processes, then each one's /metrics listens on 127.0.0.1 only", async () => {
    for (const name of ['gateway', ...SERVICES]) {
      for (const port of hangar.metricsPortsOf(name)) {
        expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
        expect({ name, listens: listeningAddresses(port) }).toEqual({ name, listens: ['0100007F'] });
      }
    }
  });

  // The launcher turns DOWNLOAD_REDIRECT off for a loopback S3 (libs/infra download-redirect.ts), so this is
  // also the streamed download every DOWNLOAD_REDIRECT=false deployment serves.
  it('when a release is downloaded under the launcher defaults (S3 on loopback), then the gateway answers the bytes, not a redirect, with the app-version-build file name', async () => {
    const apk = fs.readFileSync(path.join(fixturesDir(), 'apps', 'android.apk'));
    const form = new FormData();
    form.append('token', hangar.adminToken);
    form.append('name', 'Streamed Demo');
    form.append('file', new Blob([apk]), 'android.apk');
    const uploaded = await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', body: form });
    expect(uploaded.status).toBe(201);
    const { id } = (await uploaded.json()) as { id: number };
    const res = await fetch(`${hangar.baseUrl}/api/releases/${id}/download`, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-disposition')).toContain('Streamed_Demo-1.2.3-5.apk');
    expect(Number(res.headers.get('content-length'))).toBe(apk.length);
    expect(Buffer.from(await res.arrayBuffer()).equals(apk)).toBe(true);
  });
});
