import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RunningHangar, apiClient, createUserWithToken, sharedHangar, testS3Client, uniqueName } from '@hangar/testing';

/**
 * Linux symbols served where debuggers look: a binary built here with `gcc -g`, split with
 * objcopy into a stripped executable and its `.debug` file, both uploaded through the ordinary
 * debug-file upload, then fetched by build-id with Debian's `debuginfod-find` (a client Hangar
 * did not write) and used by gdb, which finds the source line of a function only through Hangar.
 */
describe('debuginfod over HTTP', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-e2e-debuginfod-'));
  const SOURCE = 'int add(int a, int b)\n{\n  return a + b;\n}\n\nint main(void)\n{\n  return add(1, 2) - 3;\n}\n';
  let hangar: RunningHangar;
  let api: ReturnType<typeof apiClient>;
  let admin: string;
  let linux: string;
  let otherLinux: string;
  let buildId: string;
  let debugFile: Buffer;
  let executable: Buffer;
  let strippedPath: string;

  /** A fresh app with a Linux channel, made as the admin; its channel key. */
  async function newLinuxChannel(): Promise<string> {
    const app = await api('POST', '/api/apps', { token: admin, form: { name: uniqueName('linux-symbols') } });
    const scheme = await api('POST', `/api/apps/${app.body.id}/schemes`, { token: admin, form: { name: 'Nightly' } });
    const channel = await api('POST', `/api/schemes/${scheme.body.id}/channels`, { token: admin, form: { name: 'Linux', device_type: 'linux' } });
    expect([app.status, scheme.status, channel.status]).toEqual([201, 201, 201]);
    return channel.body.slug;
  }

  async function uploadElf(data: Buffer, fileName: string, channelKey: string) {
    return api('POST', '/api/debug_files/upload', { token: admin, form: { channel_key: channelKey, release_version: '2.0', build_version: '7' }, files: { file: { data, fileName } } });
  }

  /** Debian's debuginfod client, with its own empty cache, pointed at `url`. */
  function debuginfodFind(url: string, what: 'debuginfo' | 'executable', id: string) {
    const cache = fs.mkdtempSync(path.join(workDir, 'cache-'));
    return spawnSync('debuginfod-find', [what, id], { env: { ...process.env, DEBUGINFOD_URLS: url, DEBUGINFOD_CACHE_PATH: cache, DEBUGINFOD_TIMEOUT: '20' }, encoding: 'utf8', timeout: 60_000 });
  }

  beforeAll(async () => {
    const src = path.join(workDir, 'app.c');
    fs.writeFileSync(src, SOURCE);
    const built = path.join(workDir, 'app');
    execFileSync('gcc', ['-g', '-O0', '-Wl,--build-id', '-o', built, src]);
    execFileSync('objcopy', ['--only-keep-debug', built, path.join(workDir, 'app.debug')]);
    // The stripped binary lives alone, so gdb cannot find the .debug file next to it.
    fs.mkdirSync(path.join(workDir, 'bin'));
    strippedPath = path.join(workDir, 'bin', 'app');
    execFileSync('objcopy', ['--strip-debug', `--add-gnu-debuglink=${path.join(workDir, 'app.debug')}`, built, strippedPath]);
    buildId = /Build ID: ([0-9a-f]+)/.exec(execFileSync('readelf', ['-n', built], { encoding: 'utf8' }))![1]!;
    debugFile = fs.readFileSync(path.join(workDir, 'app.debug'));
    executable = fs.readFileSync(strippedPath);

    hangar = await sharedHangar();
    api = apiClient(hangar.baseUrl);
    admin = hangar.adminToken;
    linux = await newLinuxChannel();
    otherLinux = await newLinuxChannel();
  });

  afterAll(async () => {
    await hangar?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('when the .debug file and the stripped binary are uploaded, then each is listed by its build-id with what it can answer', async () => {
    const debug = await uploadElf(debugFile, 'app.debug', linux);
    const exe = await uploadElf(executable, 'app', linux);
    expect([debug.status, exe.status]).toEqual([200, 200]);
    expect(debug.body).toMatchObject({ device_type: 'linux', release_version: '2.0', build_version: '7' });
    expect(debug.body.metadata).toEqual([expect.objectContaining({ uuid: buildId, type: 'x86_64', data: expect.objectContaining({ has_debug_info: true, has_code: false }) })]);
    expect(exe.body.metadata).toEqual([expect.objectContaining({ uuid: buildId, object: 'app.debug', data: expect.objectContaining({ has_debug_info: false, has_code: true }) })]);

    const again = await uploadElf(debugFile, 'again.debug', linux);
    expect(again.status).toBe(409);
    const listed = await api('GET', `/api/debug_files?channel_key=${linux}&per_page=100`, { token: admin });
    expect(listed.body).toHaveLength(2);
  });

  it('when an ELF file is sent to an iOS channel, then a 4xx says the channel takes dSYMs and nothing is kept', async () => {
    const app = await api('POST', '/api/apps', { token: admin, form: { name: uniqueName('ios') } });
    const scheme = await api('POST', `/api/apps/${app.body.id}/schemes`, { token: admin, form: { name: 'Beta' } });
    const ios = await api('POST', `/api/schemes/${scheme.body.id}/channels`, { token: admin, form: { name: 'iOS', device_type: 'ios' } });
    const refused = await uploadElf(debugFile, 'app.debug', ios.body.slug);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(refused.body.error).toMatch(/takes dSYM archives or Breakpad symbol files, but this is an ELF debug file/);
  });

  it('when debuginfod-find asks with the channel key in the URL, then it gets exactly the uploaded .debug file and executable', () => {
    const url = `${hangar.baseUrl}/debuginfod/${linux}`;
    const info = debuginfodFind(url, 'debuginfo', buildId);
    expect(info.status).toBe(0);
    expect(fs.readFileSync(info.stdout.trim()).equals(debugFile)).toBe(true);
    const exe = debuginfodFind(url, 'executable', buildId);
    expect(exe.status).toBe(0);
    expect(fs.readFileSync(exe.stdout.trim()).equals(executable)).toBe(true);
  });

  it('when debuginfod-find asks with a token in the URL, then it gets the file too', () => {
    const info = debuginfodFind(`${hangar.baseUrl}/debuginfod/${admin}`, 'debuginfo', buildId);
    expect(info.status).toBe(0);
    expect(fs.readFileSync(info.stdout.trim()).equals(debugFile)).toBe(true);
  });

  it('when debuginfod-find asks for an unknown build-id, or through another channel\'s key, then it fails without a file', () => {
    const unknown = debuginfodFind(`${hangar.baseUrl}/debuginfod/${linux}`, 'debuginfo', 'ab'.repeat(20));
    expect(unknown.status).not.toBe(0);
    const elsewhere = debuginfodFind(`${hangar.baseUrl}/debuginfod/${otherLinux}`, 'debuginfo', buildId);
    expect(elsewhere.status).not.toBe(0);
  });

  it('when gdb debugs the stripped binary with DEBUGINFOD_URLS at Hangar, then it finds the source line of add()', () => {
    const cache = fs.mkdtempSync(path.join(workDir, 'gdb-cache-'));
    const gdb = spawnSync('gdb', ['-nx', '-batch', '-iex', 'set debuginfod enabled on', '-ex', 'info line add', strippedPath], {
      env: { ...process.env, DEBUGINFOD_URLS: `${hangar.baseUrl}/debuginfod/${linux}`, DEBUGINFOD_CACHE_PATH: cache, HOME: workDir },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(gdb.stdout).toMatch(/Line 2 of ".*app\.c"/);
  });

  it('when gdb has no debuginfod URL, then the same command finds no line (the test above proves Hangar served it)', () => {
    const gdb = spawnSync('gdb', ['-nx', '-batch', '-iex', 'set debuginfod enabled off', '-ex', 'info line add', strippedPath], { env: { ...process.env, DEBUGINFOD_URLS: '' }, encoding: 'utf8', timeout: 60_000 });
    expect(gdb.stdout + gdb.stderr).not.toMatch(/Line 2 of ".*app\.c"/);
  });

  it('when the token comes in the Authorization header, then GET and HEAD redirect to the bytes, which serve ranges', async () => {
    const route = `/debuginfod/buildid/${buildId.toUpperCase()}/debuginfo`;
    const head = await fetch(`${hangar.baseUrl}${route}`, { method: 'HEAD', headers: { authorization: `Bearer ${admin}` }, redirect: 'manual' });
    expect(head.status).toBe(302);
    const res = await api('GET', route, { token: admin });
    expect(res.status).toBe(302);
    const location = res.headers.get('location')!;
    const range = await fetch(location, { headers: { range: 'bytes=0-3' } });
    expect(range.status).toBe(206);
    expect(Buffer.from(await range.arrayBuffer())).toEqual(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
  });

  it('when a user with no role on the app asks by token, then 403 (as everywhere, existence is not hidden) and debuginfod-find gets nothing', async () => {
    const stranger = await createUserWithToken(api, admin, 'stranger');
    const res = await api('GET', `/debuginfod/buildid/${buildId}/debuginfo`, { token: stranger.token });
    expect(res.status).toBe(403);
    expect(res.body.error).toEqual(expect.any(String));
    expect(debuginfodFind(`${hangar.baseUrl}/debuginfod/${stranger.token}`, 'debuginfo', buildId).status).not.toBe(0);
  });

  it('when the id, credential or path is wrong, then a fast 4xx in the contract shape, never a 500', async () => {
    const cases: Array<[string, string | undefined, number]> = [
      [`/debuginfod/buildid/${buildId}/debuginfo`, undefined, 401],
      [`/debuginfod/buildid/${buildId}/debuginfo`, 'not-a-token', 401],
      [`/debuginfod/buildid/${'ab'.repeat(20)}/debuginfo`, admin, 404],
      [`/debuginfod/${linux}/buildid/${buildId}/source/app.c`, undefined, 404],
      [`/debuginfod/${linux}/buildid/${buildId}/sections`, undefined, 404],
      [`/debuginfod/${linux}/buildid/abc/debuginfo`, undefined, 422],
      [`/debuginfod/${linux}/buildid/${'a'.repeat(129)}/debuginfo`, undefined, 422],
      [`/debuginfod/${linux}/buildid/..%2F..%2Fetc%2Fpasswd/debuginfo`, undefined, 422],
      [`/debuginfod/no-such-key/buildid/${buildId}/debuginfo`, undefined, 404],
      [`/debuginfod/${linux}/buildid/${'ab'.repeat(20)}/executable`, undefined, 404],
    ];
    for (const [route, token, status] of cases) {
      const res = await api('GET', route, token ? { token } : {});
      expect([route, res.status]).toEqual([route, status]);
      expect(res.body).toEqual(expect.objectContaining({ error: expect.any(String) }));
    }
  });
  describe('a Linux build\'s ELF files uploaded together in a zip or tar', () => {
    const LIB = 'int twice(int x)\n{\n  return x * 2;\n}\n\nint main(void)\n{\n  return twice(2) - 4;\n}\n';
    let zipBuildId: string;
    let zipped: { debug: Buffer; stripped: Buffer; zip: Buffer; tarGz: Buffer };

    async function storedKeys(): Promise<string[]> {
      const names: string[] = [];
      for await (const item of testS3Client().listObjectsV2(hangar.bucket, 'debug-files/', true)) if (item.name) names.push(item.name);
      return names.sort();
    }

    beforeAll(() => {
      const dir = fs.mkdtempSync(path.join(workDir, 'zipped-'));
      fs.writeFileSync(path.join(dir, 'twice.c'), LIB);
      execFileSync('gcc', ['-g', '-O0', '-Wl,--build-id', '-o', path.join(dir, 'twice'), path.join(dir, 'twice.c')]);
      fs.mkdirSync(path.join(dir, 'pack', 'usr', 'lib', 'debug'), { recursive: true });
      fs.mkdirSync(path.join(dir, 'pack', 'usr', 'bin'), { recursive: true });
      execFileSync('objcopy', ['--only-keep-debug', path.join(dir, 'twice'), path.join(dir, 'pack', 'usr', 'lib', 'debug', 'twice.debug')]);
      execFileSync('objcopy', ['--strip-debug', path.join(dir, 'twice'), path.join(dir, 'pack', 'usr', 'bin', 'twice')]);
      fs.writeFileSync(path.join(dir, 'pack', 'README.txt'), 'symbols of twice\n');
      execFileSync('zip', ['-q', '-r', '-X', path.join(dir, 'symbols.zip'), '.'], { cwd: path.join(dir, 'pack') });
      zipBuildId = /Build ID: ([0-9a-f]+)/.exec(execFileSync('readelf', ['-n', path.join(dir, 'twice')], { encoding: 'utf8' }))![1]!;
      execFileSync('tar', ['-czf', path.join(dir, 'symbols.tar.gz'), '-C', path.join(dir, 'pack'), 'usr']);
      zipped = {
        debug: fs.readFileSync(path.join(dir, 'pack', 'usr', 'lib', 'debug', 'twice.debug')),
        stripped: fs.readFileSync(path.join(dir, 'pack', 'usr', 'bin', 'twice')),
        zip: fs.readFileSync(path.join(dir, 'symbols.zip')),
        tarGz: fs.readFileSync(path.join(dir, 'symbols.tar.gz')),
      };
    });

    it('when the zip is uploaded, then each ELF file in it is listed by its build-id and debuginfod-find gets each file itself, not the zip', async () => {
      const channel = await newLinuxChannel();
      const before = await storedKeys();
      const up = await uploadElf(zipped.zip, 'symbols.zip', channel);
      expect(up.status).toBe(200);
      expect(up.body.kind).toBe('elf');
      expect(up.body.metadata.map((m: { uuid: string; data: { path: string; has_code: boolean; has_debug_info: boolean } }) => [m.uuid, m.data.path, m.data.has_debug_info])).toEqual(
        expect.arrayContaining([
          [zipBuildId, 'usr/lib/debug/twice.debug', true],
          [zipBuildId, 'usr/bin/twice', false],
        ]),
      );
      expect(up.body.metadata).toHaveLength(2);
      // The archive and one object per ELF member, nothing for the README.
      expect((await storedKeys()).length - before.length).toBe(3);

      const url = `${hangar.baseUrl}/debuginfod/${channel}`;
      const info = debuginfodFind(url, 'debuginfo', zipBuildId);
      expect(info.status).toBe(0);
      expect(fs.readFileSync(info.stdout.trim()).equals(zipped.debug)).toBe(true);
      const exe = debuginfodFind(url, 'executable', zipBuildId);
      expect(exe.status).toBe(0);
      expect(fs.readFileSync(exe.stdout.trim()).equals(zipped.stripped)).toBe(true);

      // Deleted: the archive and its members leave storage.
      const deleted = await api('DELETE', `/api/debug_files/${up.body.id}?channel_key=${channel}`, { token: admin });
      expect(deleted.status).toBe(200);
      const deadline = Date.now() + 15_000;
      while ((await storedKeys()).length !== before.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
      expect(await storedKeys()).toEqual(before);
    });

    it('when the same files go up as a .tar.gz made by GNU tar, then debuginfod-find gets each of them too', async () => {
      const channel = await newLinuxChannel();
      const up = await uploadElf(zipped.tarGz, 'symbols.tar.gz', channel);
      expect(up.status).toBe(200);
      expect(up.body.metadata.map((m: { data: { path: string } }) => m.data.path).sort()).toEqual(['usr/bin/twice', 'usr/lib/debug/twice.debug']);
      const url = `${hangar.baseUrl}/debuginfod/${channel}`;
      const info = debuginfodFind(url, 'debuginfo', zipBuildId);
      expect(info.status).toBe(0);
      expect(fs.readFileSync(info.stdout.trim()).equals(zipped.debug)).toBe(true);
      const exe = debuginfodFind(url, 'executable', zipBuildId);
      expect(exe.status).toBe(0);
      expect(fs.readFileSync(exe.stdout.trim()).equals(zipped.stripped)).toBe(true);
    });

    it('when the same zip goes to a channel that takes no ELF files, then a 4xx and no member is left in storage', async () => {
      const app = await api('POST', '/api/apps', { token: admin, form: { name: uniqueName('not-linux') } });
      const scheme = await api('POST', `/api/apps/${app.body.id}/schemes`, { token: admin, form: { name: 'Beta' } });
      const ios = await api('POST', `/api/schemes/${scheme.body.id}/channels`, { token: admin, form: { name: 'iOS', device_type: 'ios' } });
      const before = await storedKeys();
      const up = await uploadElf(zipped.zip, 'symbols.zip', ios.body.slug);
      expect(up.status).toBe(422);
      expect(await storedKeys()).toEqual(before);
    });
  });
});
