import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@hangar/infra';
import { RunningHangar, apiClient, eventually, sharedHangar } from '@hangar/testing';

/**
 * The running system as an operator and a CI job see it, on the worker's shared Hangar (started
 * by `npm run up` like any other). What stops or kills it is where a Hangar of its own is:
 * Ctrl-C in launcher-first-start and launcher-signals, a killed service's fast 503 and recovery in
 * kill-each-service.
 */
describe('Hangar as started by npm run up', () => {
  let hangar: RunningHangar;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    hangar = await sharedHangar();
    api = apiClient(hangar.baseUrl);
  });

  afterAll(async () => {
    await hangar?.stop();
  });

  it('when started, then it prints the URL and the admin token', () => {
    expect(hangar.output()).toContain(`Hangar is running at ${hangar.baseUrl}`);
    expect(hangar.output()).toContain(`admin token: ${hangar.adminToken}`);
  });

  it('when the operator set HANGAR_ADMIN_PASSWORD, then the start says the password is that one, without echoing it, and it signs in', async () => {
    const output = hangar.output();
    expect(output).toContain('  password:    the one in HANGAR_ADMIN_PASSWORD\n');
    expect(output).not.toContain(hangar.adminPassword);
    const signedIn = await api('POST', '/api/sessions', { json: { email: 'admin@e2e.test', password: hangar.adminPassword } });
    expect(signedIn.status).toBe(201);
  });

  it('when /version and /api/version are asked, then both give version, vcs_ref and build_date without a token', async () => {
    for (const p of ['/version', '/api/version']) {
      const res = await api('GET', p);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ version: expect.any(String), vcs_ref: expect.any(String), build_date: expect.any(String) });
      expect(Number.isNaN(Date.parse(res.body.build_date))).toBe(false);
    }
  });

  it('when /api/health is asked, then every service and every dependency is healthy', async () => {
    const res = await api('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      healthy: true,
      services: { users: true, apps: true, releases: true, debugFiles: true, webhooks: true },
      checks: { database: 'ok', storage: 'ok', events: 'ok' },
    });
  });

  it('when started after npm run build, then every process runs its one-file bundle (queries recorded or not), and the files served from beside it are found', async () => {
    // While queries are recorded for the plan check (npm test) too: their sites are read from the bundle (libs/mongo bundle-frames.ts).
    const program = process.env.HANGAR_SERVICE_BUNDLES === '0' ? 'main.js' : 'main.bundle.js';
    for (const name of ['users', 'apps', 'releases', 'debug-files', 'webhooks', 'gateway']) {
      const [pid] = hangar.pidsOf(name);
      expect(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[1]).toBe(path.join(REPO_ROOT, 'services', name, 'dist', program));
    }
    // Paths the gateway computes from where its code lies: its own assets, a package's folder, the console's build.
    for (const asset of ['/assets/hangar.css', '/assets/fontawesome/css/all.min.css', '/']) {
      const res = await fetch(`${hangar.baseUrl}${asset}`);
      await res.arrayBuffer();
      expect({ asset, status: res.status }).toEqual({ asset, status: 200 });
    }
  });

  it('when a request carries X-Request-Id, then the response and the service logs carry it', async () => {
    const requestId = `e2e-${Date.now()}`;
    const res = await api('GET', '/api/users/999999', { token: hangar.adminToken, headers: { 'x-request-id': requestId } });
    expect(res.status).toBe(404);
    expect(res.headers.get('x-request-id')).toBe(requestId);
    const fresh = await api('GET', '/version');
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    await expectEventually(() => readLog('users').includes(requestId));
    expect(readLog('gateway')).toContain(requestId);
  });

  it('when an unknown API path is asked, then 404 API not found, with or without a token', async () => {
    for (const token of [undefined, hangar.adminToken]) {
      const res = await api('GET', '/api/no-such-thing', { token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'API not found' });
    }
  });

  it('when tokens and passwords are sent, then no log line contains them', async () => {
    const password = `secret-password-${Date.now()}`;
    const ids = [`e2e-logcheck-read-${Date.now()}`, `e2e-logcheck-write-${Date.now()}`];
    await api('GET', `/api/users/me?token=${hangar.adminToken}`, { headers: { 'x-request-id': ids[0]! } });
    await api('POST', `/api/users?token=${hangar.adminToken}`, {
      form: { username: `logcheck${Date.now()}`, email: `logcheck${Date.now()}@example.com`, password },
      headers: { 'x-request-id': ids[1]! },
    });
    // Read once the gateway's lines of both requests are written (they carry the URLs with the
    // token), not after a fixed 300 ms; every process writes its lines as it goes (pino to its
    // log file, synchronously), and the services theirs before they answer the gateway.
    await eventually(() => ids.every((id) => readLog('gateway').includes(id)), { what: 'both requests in the gateway log' });
    const logs = ['gateway', 'users', 'apps', 'releases', 'debug-files', 'webhooks'].map(readLog).join('\n');
    expect(logs).toContain('[REDACTED]');
    expect(logs).not.toContain(hangar.adminToken);
    expect(logs).not.toContain(hangar.adminPassword);
    expect(logs).not.toContain(password);
  });

  function readLog(name: string): string {
    return hangar.logOf(name);
  }
});

const expectEventually = (check: () => boolean | Promise<boolean>, timeoutMs = 10_000) => eventually(check, { timeoutMs, stepMs: 100 });
