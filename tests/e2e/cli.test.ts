import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RunningHangar, fixturesDir, sharedHangar, startHangar, uniqueName } from '@hangar/testing';
import { CliHome, CliResult, cliHome, runCli } from './cli-runner';
import { CuttingProxy } from './cutting-proxy';

/**
 * The `hangar` command as a CI job runs it: its own process, HANGAR_URL and
 * HANGAR_TOKEN (or its config file), speaking tus and the finishing calls to a
 * real Hangar; every answer checked against what the server then holds.
 */
describe('the hangar CLI', () => {
  let hangar: RunningHangar;
  let home: CliHome;
  let env: NodeJS.ProcessEnv;
  const apk = path.join(fixturesDir(), 'apps', 'android.apk');
  /** Exit 0; on anything else the CLI's stderr is in the failure message. */
  const expectSuccess = (run: CliResult) => expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
  const sha256Of = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

  beforeAll(async () => {
    hangar = await sharedHangar();
    home = cliHome();
    env = { ...home.env, HANGAR_URL: hangar.baseUrl, HANGAR_TOKEN: hangar.adminToken };
  });

  afterAll(async () => {
    await hangar?.stop();
    home?.remove();
  });

  const get = async (p: string, token: string | undefined = hangar.adminToken) => {
    const res = await fetch(`${hangar.baseUrl}${p}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    return { status: res.status, body: (await res.json()) as any };
  };

  async function downloadedSha256(releaseId: number): Promise<string> {
    const res = await fetch(`${hangar.baseUrl}/api/releases/${releaseId}/download`, { headers: { Authorization: `Bearer ${hangar.adminToken}` } });
    expect(res.status).toBe(200);
    return createHash('sha256').update(Buffer.from(await res.arrayBuffer())).digest('hex');
  }

  /** A channel made by an auto-created upload of the Android fixture; its key and release. */
  let channelKey: string;
  let first: any;

  it('when a real package is uploaded without a channel key, then one release is created from the same bytes, and --json prints it', async () => {
    const run = await runCli(['upload', apk, '--json', '--name', uniqueName('CLI'), '--changelog', 'first build\nsecond line', '--branch', 'main', '--git-commit', 'abc123'], env);
    expectSuccess(run);
    first = JSON.parse(run.stdout);
    channelKey = first.channel.slug;
    expect(channelKey).toEqual(expect.any(String));
    expect(first).toMatchObject({ platform: 'Android', branch: 'main', git_commit: 'abc123', source: 'hangar-cli' });
    expect(first.changelog.map((e: { message: string }) => e.message)).toEqual(['first build', 'second line']);
    const versions = await get(`/api/apps/versions?channel_key=${channelKey}`);
    expect(versions.body.releases.map((r: { id: number }) => r.id)).toEqual([first.id]);
    expect(await downloadedSha256(first.id)).toBe(sha256Of(apk));
    // Nothing is left to resume once the release exists.
    expect(fs.readdirSync(path.join(home.cacheDir, 'uploads'))).toEqual([]);
  });

  it("when an upload finishes, then the release shows the SHA-256 the server computed, equal to the file's", () => {
    expect(first.sha256).toBe(sha256Of(apk));
  });

  it('when run in a GitHub Actions job, then branch, commit and run URL come from its variables, and a flag overrides one', async () => {
    const run = await runCli(['upload', apk, '-c', channelKey, '--json', '--branch', 'override/branch'], {
      ...env,
      GITHUB_ACTIONS: 'true',
      GITHUB_REF_NAME: 'feature/ci',
      GITHUB_SHA: 'f00dfeed',
      GITHUB_SERVER_URL: 'https://github.example.com',
      GITHUB_REPOSITORY: 'acme/app',
      GITHUB_RUN_ID: '4242',
    });
    expectSuccess(run);
    expect(JSON.parse(run.stdout)).toMatchObject({ branch: 'override/branch', git_commit: 'f00dfeed', ci_url: 'https://github.example.com/acme/app/actions/runs/4242' });
    // In a log, progress is plain lines, never a redrawn bar.
    expect(run.stderr).toMatch(/android\.apk: 100% \(3\.1 MB of 3\.1 MB\)/);
    expect(run.stderr).not.toMatch(/[\r\x1b]/);
  });

  it('when --changelog-from-git is given, then the changelog is the commits since the channel\'s last build\'s commit', async () => {
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-cli-git-'));
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', ...args], { cwd: repo, encoding: 'utf8' }).trim();
    git('init', '-q', '-b', 'trunk');
    for (const message of ['Base commit', 'Fix the crash on start', 'Add dark mode']) git('commit', '-q', '--allow-empty', '-m', message);
    const base = git('rev-list', '--max-parents=0', 'HEAD');
    try {
      const seeded = await runCli(['upload', apk, '-c', channelKey, '--json', '--git-commit', base], env, { cwd: repo });
      expectSuccess(seeded);
      const run = await runCli(['upload', apk, '-c', channelKey, '--json', '--changelog-from-git'], env, { cwd: repo });
      expectSuccess(run);
      const release = JSON.parse(run.stdout);
      expect(release.changelog).toEqual([
        { message: 'Add dark mode', author: 'Dev', email: 'dev@example.com', date: expect.any(String) },
        { message: 'Fix the crash on start', author: 'Dev', email: 'dev@example.com', date: expect.any(String) },
      ]);
      // Outside CI, branch and commit are the checkout's.
      expect(release).toMatchObject({ branch: 'trunk', git_commit: git('rev-parse', 'HEAD') });
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
    }
  });

  it('when version-exists asks for a build the channel has, then it exits 0 with the release; one it lacks, 4 with the server\'s message', async () => {
    const common = ['version-exists', '-c', channelKey, '--bundle-id', first.bundle_id];
    const found = await runCli([...common, '--release-version', first.release_version, '--build-version', first.build_version, '--json'], env);
    expectSuccess(found);
    expect(JSON.parse(found.stdout).bundle_id).toBe(first.bundle_id);
    const missing = await runCli([...common, '--release-version', '99.0', '--build-version', '9999'], env);
    const server = await get(`/api/apps/version_exist?channel_key=${channelKey}&bundle_id=${encodeURIComponent(first.bundle_id)}&release_version=99.0&build_version=9999`);
    expect(server.status).toBe(404);
    expect({ code: missing.code, stderr: missing.stderr }).toEqual({ code: 4, stderr: `hangar: not found: ${server.body.error}\n` });
    const byCommit = await runCli([...common, '--git-commit', 'abc123'], env);
    expectSuccess(byCommit);
  });

  it('when releases list is asked for a channel, then it prints its releases newest first, as a table or as the server\'s JSON', async () => {
    const json = await runCli(['releases', 'list', '-c', channelKey, '--json'], env);
    expectSuccess(json);
    const server = await get(`/api/apps/versions?channel_key=${channelKey}`);
    expect(JSON.parse(json.stdout)).toEqual(server.body);
    expect(server.body.releases.length).toBe(4);
    const table = await runCli(['releases', 'list', '-c', channelKey], env);
    expectSuccess(table);
    const lines = table.stdout.trim().split('\n');
    expect(lines[1]).toMatch(/^ID\s+VERSION\s+BUILD\s+BRANCH\s+COMMIT\s+UPLOADED$/);
    expect(lines.slice(2).map((l) => Number(l.split(/\s+/)[0]))).toEqual(server.body.releases.map((r: { id: number }) => r.id));
  });

  it('when a ProGuard mapping is uploaded with debug-files upload, then the channel lists that debug file', async () => {
    const mapping = path.join(fixturesDir(), 'proguards', 'single_mapping.zip');
    const run = await runCli(['debug-files', 'upload', mapping, '-c', channelKey, '--release-version', '1.2.3', '--build-version', '45', '--json'], env);
    expectSuccess(run);
    const debugFile = JSON.parse(run.stdout);
    const listed = await get(`/api/debug_files?channel_key=${channelKey}`);
    expect(listed.body.map((d: { id: number }) => d.id)).toEqual([debugFile.id]);
    expect(debugFile).toMatchObject({ release_version: '1.2.3', build_version: '45' });
  });

  it('when the server refuses the upload, then the CLI exits 1 with the server\'s own error message and prints no result', async () => {
    const raw = await fetch(`${hangar.baseUrl}/api/uploads`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${hangar.adminToken}`,
        'Tus-Resumable': '1.0.0',
        'Upload-Length': String(fs.statSync(apk).size),
        'Upload-Metadata': `filename ${Buffer.from('android.apk').toString('base64')},channel_key ${Buffer.from('no-such-channel').toString('base64')}`,
      },
    });
    expect(raw.status).toBeGreaterThanOrEqual(400);
    const expected = ((await raw.json()) as { error: string }).error;
    const run = await runCli(['upload', apk, '-c', 'no-such-channel'], env);
    expect(run.code).toBe(1);
    // The server's own words, with the API's field names in the CLI's flags (command-terms.ts).
    expect(expected).toContain('channel_key');
    expect(run.stderr).toContain(`hangar: ${expected.replaceAll('channel_key', '--channel-key')}`);
    expect(run.stdout).toBe('');
  });

  it('when no server or token is configured, then the CLI exits 3 and says how to log in', async () => {
    const bare = cliHome();
    try {
      const run = await runCli(['upload', apk], bare.env);
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(/^hangar: no Hangar server: run `hangar login`, or set HANGAR_URL/);
    } finally {
      bare.remove();
    }
  });

  it('when hangar login is given a good token, then the URL and token are kept 0600 and used; HANGAR_TOKEN overrides them', async () => {
    const user = cliHome();
    try {
      const login = await runCli(['login', '--url', hangar.baseUrl, '--with-token'], user.env, { stdin: `${hangar.adminToken}\n` });
      expect({ code: login.code, stderr: login.stderr }).toEqual({ code: 0, stderr: `Logged in to ${hangar.baseUrl} as admin; saved in ${user.configFile}\n` });
      expect(fs.statSync(user.configFile).mode & 0o777).toBe(0o600);
      expect(JSON.parse(fs.readFileSync(user.configFile, 'utf8'))).toEqual({ url: hangar.baseUrl, token: hangar.adminToken });

      const status = await runCli(['login', '--status'], user.env);
      expect({ code: status.code, stdout: status.stdout }).toEqual({ code: 0, stdout: `${hangar.baseUrl} (from config) as admin (token from config)\n` });

      const overridden = await runCli(['login', '--status'], { ...user.env, HANGAR_TOKEN: 'hgr_not_a_token' });
      const server = await get('/api/users/me', 'hgr_not_a_token');
      expect(server.status).toBe(401);
      expect({ code: overridden.code, stderr: overridden.stderr }).toEqual({ code: 1, stderr: `hangar: ${hangar.baseUrl} does not accept this token: ${server.body.error}\n` });

      const refused = await runCli(['login', '--url', hangar.baseUrl, '--token', 'hgr_not_a_token'], user.env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(server.body.error);
      // A refused login leaves the kept one alone.
      expect(JSON.parse(fs.readFileSync(user.configFile, 'utf8')).token).toBe(hangar.adminToken);
    } finally {
      user.remove();
    }
  });

  it('when any command is asked for --help, then it exits 0 and shows an example', async () => {
    for (const command of [[], ['login'], ['upload'], ['version-exists'], ['releases', 'list'], ['debug-files', 'upload']]) {
      const run = await runCli([...command, '--help'], {});
      expect({ command, code: run.code, example: /Examples:\n\s+\$ hangar/.test(run.stdout) }).toEqual({ command, code: 0, example: true });
    }
  });

  it('when a big build goes through the gateway without --parallel, then it is one tus upload — no parts for the server to join — and --parallel 3 makes three', async () => {
    const big = path.join(home.cacheDir, '..', '..', 'sequential-24mb.bin');
    fs.writeFileSync(big, randomBytes(24 * 1024 * 1024));
    const uploadsCreated = () =>
      hangar
        .logOf('gateway')
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg?: string; method?: string; url?: string })
        .filter((l) => l.msg === 'request' && l.method === 'POST' && l.url === '/api/uploads').length;
    // Joins by how, from the gateway's metrics: the CLI's parts are placed where their bytes go, never copied.
    const joins = async (how: string) => {
      const text = await (await fetch(`http://127.0.0.1:${hangar.metricsPortOf('gateway')}/metrics`)).text();
      return Number(new RegExp(`^hangar_upload_joins_total\\{how="${how}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    };
    const joinedBefore = { inPlace: await joins('in_place'), copied: await joins('copy_in_s3') };
    const before = uploadsCreated();
    const one = await runCli(['upload', big, '-c', channelKey, '--release-version', '5.0', '--build-version', '500', '--json'], env);
    expectSuccess(one);
    expect(JSON.parse(one.stdout).sha256).toBe(sha256Of(big));
    expect(uploadsCreated() - before).toBe(1);
    fs.appendFileSync(big, 'another build');
    const three = await runCli(['upload', big, '-c', channelKey, '--release-version', '5.0', '--build-version', '501', '--parallel', '3', '--json'], env);
    expectSuccess(three);
    expect(JSON.parse(three.stdout).sha256).toBe(sha256Of(big));
    // Three parts and the upload that joins them.
    expect(uploadsCreated() - before - 1).toBe(4);
    expect({ inPlace: await joins('in_place'), copied: await joins('copy_in_s3') }).toEqual({ inPlace: joinedBefore.inPlace + 1, copied: joinedBefore.copied });
  }, 120_000);
});


describe('the hangar CLI when the server hands out S3 part URLs (S3_PUBLIC_ENDPOINT)', () => {
  let hangar: RunningHangar;
  let home: CliHome;
  let proxy: CuttingProxy;
  let env: NodeJS.ProcessEnv;
  let work: string;

  beforeAll(async () => {
    // The test S3 server under another name, as clients would reach it (as resumable-uploads.test.ts does).
    const internal = new URL(process.env.S3_ENDPOINT!);
    hangar = await startHangar({ S3_BUCKET: uniqueName('e2e-cli-direct'), S3_PUBLIC_ENDPOINT: `http://localhost:${internal.port}` });
    // A proxy that never cuts, in front of the gateway: it counts what the CLI sends there.
    proxy = new CuttingProxy({ host: '127.0.0.1', port: Number(new URL(hangar.baseUrl).port) });
    home = cliHome();
    env = { ...home.env, HANGAR_URL: await proxy.listen(), HANGAR_TOKEN: hangar.adminToken };
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-cli-direct-'));
  }, 180_000);

  afterAll(async () => {
    await hangar?.stop();
    await proxy?.close();
    home?.remove();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('when builds are uploaded, then their parts go to S3 in parallel, the builds are made from the same bytes, and the gateway gets only the calls', async () => {
    const apk = path.join(fixturesDir(), 'apps', 'android.apk');
    const first = await runCli(['upload', apk, '--json'], env);
    expect({ code: first.code, stderr: first.code === 0 ? '' : first.stderr }).toEqual({ code: 0, stderr: '' });
    const channelKey: string = JSON.parse(first.stdout).channel.slug;

    const big = path.join(work, 'unknown-40mb.bin');
    fs.writeFileSync(big, randomBytes(40 * 1024 * 1024));
    const before = proxy.clientBytes;
    const second = await runCli(['upload', big, '-c', channelKey, '--release-version', '3.0', '--build-version', '300', '--parallel', '3', '--json'], env);
    expect({ code: second.code, stderr: second.code === 0 ? '' : second.stderr }).toEqual({ code: 0, stderr: '' });
    const release = JSON.parse(second.stdout);
    const res = await fetch(`${hangar.baseUrl}/api/releases/${release.id}/download`, { headers: { Authorization: `Bearer ${hangar.adminToken}` } });
    expect(createHash('sha256').update(Buffer.from(await res.arrayBuffer())).digest('hex')).toBe(createHash('sha256').update(fs.readFileSync(big)).digest('hex'));
    // 40 MiB of file; what reached the gateway is the creation and the finishing call.
    expect(proxy.clientBytes - before).toBeLessThan(16 * 1024);
    const tusOnly = await runCli(['upload', apk, '-c', channelKey, '--via', 'tus', '--json'], env);
    expect(tusOnly.code).toBe(0);
    expect(proxy.clientBytes - before).toBeGreaterThan(fs.statSync(apk).size);
  });
});
