import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Client } from 'minio';
import { buildHfsPlusDisk, MAC_APP, wrapAsDmg, writeMacApp } from '../../libs/parsers/test/mac-disk-image';
import { writeUdif } from '../../libs/parsers/test/udif-writer';
import { ApiResponse, RunningHangar, apiClient, eventually, fixturesDir, startHangar, fetchChecked, uniqueName, validateResponse, testS3Client } from '@hangar/testing';

/**
 * Builds posted as CI posts them — multipart with the fastlane plugin's
 * fields — stored, parsed by the workers and answered in the Release shape.
 */
describe('releases over HTTP', () => {
  const bucket = uniqueName('e2e-releases');
  const MAX_UPLOAD = 4 * 1024 * 1024;
  // android.apk (3 MiB) fits before its token; a file of 3.8 MiB does not, though under MAX_UPLOAD.
  const MAX_BEFORE_TOKEN = 3.5 * 1024 * 1024;
  let hangar: RunningHangar;
  let api: ReturnType<typeof apiClient>;
  let admin: string;
  let s3: Client;

  beforeAll(async () => {
    hangar = await startHangar({ S3_BUCKET: bucket, MAX_UPLOAD_BYTES: String(MAX_UPLOAD), UPLOAD_MAX_BYTES_BEFORE_TOKEN: String(MAX_BEFORE_TOKEN) });
    api = apiClient(hangar.baseUrl);
    admin = hangar.adminToken;
    s3 = testS3Client();
  });

  afterAll(async () => {
    await hangar?.stop();
  });

  const fixture = (name: string) => path.join(fixturesDir(), 'apps', name);

  async function upload(file: string | Buffer, fields: Record<string, string> = {}, token: string | null = admin, fileName?: string): Promise<ApiResponse> {
    const form = new FormData();
    if (token) form.append('token', token);
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    const data = typeof file === 'string' ? fs.readFileSync(file) : file;
    form.append('file', new Blob([data]), fileName ?? (typeof file === 'string' ? path.basename(file) : 'upload.bin'));
    const res = await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', body: form });
    const text = await res.text();
    const result = { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
    await validateResponse(hangar.baseUrl, 'POST', '/api/apps/upload', result);
    return result;
  }

  async function storedObjects(prefix: string): Promise<string[]> {
    const names: string[] = [];
    if (!(await s3.bucketExists(bucket))) return names;
    for await (const item of s3.listObjectsV2(bucket, prefix, true)) if (item.name) names.push(item.name);
    return names;
  }

  /**
   * The fastlane Zealot plugin's own requests, recorded from its code under fastlane's option
   * handling (tools/fastlane-wire-forms, tests/fixtures/fastlane) and replayed byte for byte: only
   * the token, the channel key and the file's bytes (with its part's Content-Length) are put in.
   */
  describe('what the fastlane plugin sends (recorded wire forms)', () => {
    const RECORDED = path.join(__dirname, '..', 'fixtures', 'fastlane');
    const GIT_COMMIT = '0123456789abcdef0123456789abcdef01234567';
    let androidKey: string;
    let iosKey: string;

    beforeAll(async () => {
      androidKey = (await upload(fixture('android.apk'), { name: `Fastlane ${Date.now()}` })).body.channel.slug;
      iosKey = (await upload(fixture('iphone.ipa'), { name: `Fastlane iOS ${Date.now()}` })).body.channel.slug;
    });

    function replaceAll(buffer: Buffer, needle: string, replacement: Buffer | string): Buffer {
      const parts: Buffer[] = [];
      let from = 0;
      for (let at = buffer.indexOf(needle); at !== -1; at = buffer.indexOf(needle, from)) {
        parts.push(buffer.subarray(from, at), Buffer.from(replacement));
        from = at + Buffer.byteLength(needle);
      }
      parts.push(buffer.subarray(from));
      return Buffer.concat(parts);
    }

    async function replay(name: string, channelKey: string, file?: Buffer): Promise<ApiResponse> {
      const recorded = JSON.parse(fs.readFileSync(path.join(RECORDED, `${name}.json`), 'utf8')) as { method: string; path: string; query: string | null; content_type: string | null; body_file: string };
      let body: Buffer = fs.readFileSync(path.join(RECORDED, recorded.body_file));
      body = replaceAll(body, '@@HANGAR_TOKEN@@', admin);
      body = replaceAll(body, '@@HANGAR_CHANNEL_KEY@@', channelKey);
      if (file) {
        const placeholder = '@@HANGAR_FILE_BYTES@@';
        body = replaceAll(body, `Content-Length: ${placeholder.length}\r\n`, `Content-Length: ${file.length}\r\n`);
        body = replaceAll(body, placeholder, file);
      }
      const query = (recorded.query ?? '').replaceAll('%40%40HANGAR_TOKEN%40%40', encodeURIComponent(admin)).replaceAll('%40%40HANGAR_CHANNEL_KEY%40%40', encodeURIComponent(channelKey));
      const url = `${recorded.path}${query ? `?${query}` : ''}`;
      const res = await fetch(`${hangar.baseUrl}${url}`, {
        method: recorded.method,
        ...(recorded.content_type ? { headers: { 'content-type': recorded.content_type } } : {}),
        ...(recorded.method === 'GET' ? {} : { body }),
      });
      const text = await res.text();
      const result = { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
      await validateResponse(hangar.baseUrl, recorded.method, recorded.path, result);
      return result;
    }

    it('when a Fastfile sets only the required options, then the build is uploaded with no custom fields (the plugin sends custom_fields=["[]"])', async () => {
      expect(fs.readFileSync(path.join(RECORDED, 'upload-defaults.body'), 'latin1')).toContain('\r\n\r\n["[]"]\r\n');
      const res = await replay('upload-defaults', androidKey, fs.readFileSync(fixture('android.apk')));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ channel: { slug: androidKey }, bundle_id: 'com.icyleaf.appinfodemo', source: 'fastlane', custom_fields: [], changelog: [] });
      expect(res.body.size).toBe(fs.statSync(fixture('android.apk')).size);
    });

    it('when ZEALOT_CUSTOM_FIELDS=a,b is set, then the build is uploaded and the plain entries are dropped', async () => {
      const res = await replay('upload-custom-fields-env', androidKey, fs.readFileSync(fixture('android.apk')));
      expect({ status: res.status, custom_fields: res.body.custom_fields }).toEqual({ status: 201, custom_fields: [] });
    });

    it('when a Fastfile sets every option, then each is stored as the contract says', async () => {
      const res = await replay('upload-every-option', androidKey, fs.readFileSync(fixture('android.apk')));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        app_name: 'Fastlane Demo',
        release_type: 'beta',
        branch: 'feature/wire',
        git_commit: GIT_COMMIT,
        ci_url: 'https://ci.example/job/42',
        source: 'jenkins-job',
        changelog: [{ message: 'Fixed the crash' }, { message: 'Added dark mode' }],
        custom_fields: [{ name: 'env', value: 'qa', icon: 'fa-solid fa-flask' }],
        channel: { slug: androidKey, has_password: true },
      });
      expect(res.text).not.toContain('open-sesame');
    });

    it('when the version check asks by versions or by commit, then the uploaded build is found', async () => {
      const byVersion = await replay('version-exist', androidKey);
      expect({ status: byVersion.status, bundle_id: byVersion.body.bundle_id, release_version: byVersion.body.release_version, build_version: byVersion.body.build_version })
        .toEqual({ status: 200, bundle_id: 'com.icyleaf.appinfodemo', release_version: '1.2.3', build_version: '5' });
      const byCommit = await replay('version-exist-git-commit', androidKey);
      expect({ status: byCommit.status, git_commit: byCommit.body.git_commit }).toEqual({ status: 200, git_commit: GIT_COMMIT });
    });

    it('when debug files are uploaded (a dSYM zip, a ProGuard mapping zip), then both are stored', async () => {
      const dsym = await replay('debug-file-dsym', iosKey, fs.readFileSync(path.join(fixturesDir(), 'dsyms', 'single_ios.dSYM.zip')));
      const proguard = await replay('debug-file-proguard', androidKey, fs.readFileSync(path.join(fixturesDir(), 'proguards', 'single_mapping.zip')));
      // 200, as Zealot answers a debug file (the plugin reads only the body's `error`).
      expect([dsym.status, dsym.body?.error, proguard.status, proguard.body?.error]).toEqual([200, undefined, 200, undefined]);
      expect(proguard.body).toMatchObject({ release_version: '1.2.3', build_version: '5' });
    });
  });

  describe('every fixture', () => {
    it.each([
      ['android.apk', 'com.icyleaf.appinfodemo', '1.2.3', '5', 'Android', 'Phone'],
      ['wear.apk', 'com.icyleaf.appinfoweardemo', '1.0', '1', 'Android', 'Watch'],
      ['tv.apk', 'com.icyleaf.appinfotvdemo', '1.0', '1', 'Android', 'TV'],
      ['iphone.ipa', 'com.icyleaf.AppInfoDemo', '1.2.3', '5', 'iOS', 'iPhone'],
      ['ipad.ipa', 'com.icyleaf.bundle', '1.0', '1', 'iOS', 'iPad'],
      ['embedded.ipa', 'com.icyleaf.test.Demo', '1.0', '1', 'iOS', 'Universal'],
    ])('when %s is uploaded without a channel key, then it comes back as %s %s (%s) on %s', async (file, bundleId, releaseVersion, buildVersion, platform, deviceType) => {
      const res = await upload(fixture(file));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ bundle_id: bundleId, release_version: releaseVersion, build_version: buildVersion, platform, device_type: deviceType, source: 'api' });
      expect(res.body.size).toBe(fs.statSync(fixture(file)).size);
      expect(res.body.app.id).toEqual(expect.any(Number));
      expect(res.body.scheme.name).toBe('Adhoc');
      expect(res.body.channel.device_type).toBe(platform.toLowerCase());
      expect(res.body.release_url).toMatch(/^http:\/\//);
      expect(res.body.qrcode_url).toMatch(/^http:\/\//);
      if (platform === 'iOS') expect(res.body.install_url).toMatch(/^itms-services:\/\/\?action=download-manifest&url=https?%3A/);
      else expect(res.body.install_url).toBe(`${hangar.baseUrl}/api/releases/${res.body.id}/download`);
      expect(res.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);
    });
  });

  it('when the iPad app (Apple-crushed PNG icons) is uploaded, then its icon URL serves a standard PNG', async () => {
    const res = await upload(fixture('ipad.ipa'));
    const icon = await fetchChecked(hangar.baseUrl, res.body.icon_url);
    expect(icon.status).toBe(200);
    const bytes = Buffer.from(await icon.arrayBuffer());
    expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(bytes.includes(Buffer.from('CgBI'))).toBe(false);
  });

  it('when a macOS .dmg (xorriso HFS+ volume wrapped as UDIF) is uploaded, then its Info.plist fields and icon come back', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-e2e-dmg-'));
    try {
      const volume = path.join(dir, 'volume');
      fs.mkdirSync(volume);
      await writeMacApp(volume, dir);
      const dmg = wrapAsDmg(await buildHfsPlusDisk(volume, path.join(dir, 'disk.img')));
      const res = await upload(dmg, {}, admin, 'Foo.dmg');
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        bundle_id: MAC_APP.bundleId,
        release_version: MAC_APP.releaseVersion,
        build_version: MAC_APP.buildVersion,
        platform: 'macOS',
        device_type: 'macOS',
      });
      const icon = await fetchChecked(hangar.baseUrl, res.body.icon_url);
      expect(icon.status).toBe(200);
      expect(Buffer.from(await icon.arrayBuffer()).subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when a .dmg holds an APFS volume (mkapfs) and no versions are given, then 422 names APFS and asks for release_version and build_version', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-e2e-apfs-'));
    try {
      const image = path.join(dir, 'apfs.img');
      execFileSync('truncate', ['-s', '256M', image]);
      execFileSync('mkapfs', [image], { stdio: 'pipe' });
      // The container superblock at the start is what the parser looks at; 1 MiB keeps the upload small.
      const head = Buffer.alloc(1024 * 1024);
      const fd = fs.openSync(image, 'r');
      try {
        fs.readSync(fd, head, 0, head.length, 0);
      } finally {
        fs.closeSync(fd);
      }
      const res = await upload(writeUdif(head, [{ name: 'disk image (Apple_APFS : 0)', firstSector: 0, sectors: head.length / 512 }]), {}, admin, 'Foo.dmg');
      // The answer names the reason (the parser's) and the remedy: give both versions.
      expect(res.status).toBe(422);
      expect(res.body.error).toMatch(/APFS/);
      expect(res.body.error).toMatch(/release_version and build_version/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when the same app is uploaded twice without a key, then both land in one channel with versions 1 and 2', async () => {
    const first = await upload(fixture('tv.apk'), { name: `Twice ${Date.now()}` });
    const second = await upload(fixture('tv.apk'), { name: first.body.app_name });
    expect(second.body.app.id).toBe(first.body.app.id);
    expect(second.body.channel.slug).toBe(first.body.channel.slug);
    expect(second.body.version).toBe(first.body.version + 1);
  });

  describe('into a channel by key', () => {
    let channelKey: string;
    beforeAll(async () => {
      const res = await upload(fixture('android.apk'), { name: `Keyed ${Date.now()}` });
      channelKey = res.body.channel.slug;
    });

    it('when five uploads run at once, then each gets its own version number', async () => {
      const results = await Promise.all(Array.from({ length: 5 }, () => upload(fixture('android.apk'), { channel_key: channelKey })));
      for (const r of results) expect(r.status).toBe(201);
      const versions = results.map((r) => r.body.version);
      expect(new Set(versions).size).toBe(5);
    });

    it('when the fastlane fields are sent, then they are stored as the contract says', async () => {
      const res = await upload(fixture('android.apk'), {
        channel_key: channelKey,
        name: 'Renamed Demo',
        changelog: '- Fixed the crash\n\n- Added dark mode',
        release_type: 'beta',
        branch: 'origin/feature/x',
        git_commit: 'abc123',
        ci_url: 'https://ci.example/1',
        custom_fields: JSON.stringify([{ name: 'env', value: 'qa', icon: 'fa-solid fa-flask' }]),
        slug: 'ignored-by-hangar',
        download_filename_type: 'ignored',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        app_name: 'Renamed Demo',
        release_type: 'beta',
        branch: 'feature/x',
        git_commit: 'abc123',
        ci_url: 'https://ci.example/1',
        source: 'api',
        changelog: [{ message: 'Fixed the crash' }, { message: 'Added dark mode' }],
        text_changelog: '- Fixed the crash\n- Added dark mode',
        custom_fields: [{ name: 'env', value: 'qa', icon: 'fa-solid fa-flask' }],
      });
    });

    it('when a password is sent it is set, and an empty one clears it', async () => {
      const set = await upload(fixture('android.apk'), { channel_key: channelKey, password: 'letmein' });
      expect(set.body.channel.has_password).toBe(true);
      expect(set.text).not.toContain('letmein');
      const cleared = await upload(fixture('android.apk'), { channel_key: channelKey, password: '' });
      expect(cleared.body.channel.has_password).toBe(false);
    });

    it('when an iOS package goes into an Android channel, then 422 names both platforms and nothing is stored', async () => {
      const before = await storedObjects('packages/');
      const res = await upload(fixture('iphone.ipa'), { channel_key: channelKey });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatch(/Android/);
      expect(res.body.error).toMatch(/iOS/);
      expect(await storedObjects('packages/')).toEqual(before);
    });

    it('when the changelog or custom fields are malformed, then 422 and nothing is stored', async () => {
      const before = await storedObjects('packages/');
      // A JSON array of entries without a message: any other non-array text is a plain-text changelog.
      const bad1 = await upload(fixture('android.apk'), { channel_key: channelKey, changelog: '[{"author":"no message"}]' });
      expect(bad1.status).toBe(422);
      expect(bad1.body.entry).toHaveProperty('changelog');
      const bad2 = await upload(fixture('android.apk'), { channel_key: channelKey, custom_fields: '{"name":"x"}' });
      expect(bad2.status).toBe(422);
      expect(bad2.body.entry).toHaveProperty('custom_fields');
      expect(await storedObjects('packages/')).toEqual(before);
    });

    // Zealot stores these as text; they were 422s after the package was streamed and parsed.
    it.each(['2024', 'true', 'null', '3.14', '{"message":"an object"}'])('when the changelog is %s, then it is kept as one line of text', async (changelog) => {
      const res = await upload(fixture('android.apk'), { channel_key: channelKey, changelog });
      expect({ status: res.status, changelog: res.body.changelog, text: res.body.text_changelog }).toEqual({ status: 201, changelog: [{ message: changelog }], text: `- ${changelog}` });
    });

    describe('the form as Zealot takes it, and bounded metadata', () => {
      /** A multipart body exactly as given: parts in this order, each a field or the file. */
      async function sendParts(parts: Array<[string, string] | ['file', Buffer, string]>, path = '/api/apps/upload'): Promise<ApiResponse> {
        const form = new FormData();
        for (const part of parts) {
          if (part.length === 3) form.append(part[0], new Blob([part[1]]), part[2]);
          else form.append(part[0], part[1]);
        }
        const res = await fetch(`${hangar.baseUrl}${path}`, { method: 'POST', body: form });
        const text = await res.text();
        const result = { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
        await validateResponse(hangar.baseUrl, 'POST', path, result);
        return result;
      }
      const apk = () => fs.readFileSync(fixture('android.apk'));

      it('when the token comes after the file (curl -F file=@app.apk -F token=…), then the build is uploaded', async () => {
        const res = await sendParts([['file', apk(), 'app.apk'], ['channel_key', channelKey], ['token', admin], ['branch', 'after/file']]);
        expect({ status: res.status, branch: res.body.branch, channel: res.body.channel?.slug }).toEqual({ status: 201, branch: 'after/file', channel: channelKey });
      });

      it('when the token after the file is wrong or missing, then 401 and nothing is left in storage', async () => {
        const before = await storedObjects('packages/');
        const wrong = await sendParts([['file', apk(), 'app.apk'], ['channel_key', channelKey], ['token', 'not-a-token']]);
        const missing = await sendParts([['file', apk(), 'app.apk'], ['channel_key', channelKey]]);
        expect([wrong.status, missing.status]).toEqual([401, 401]);
        expect(wrong.text).not.toContain('not-a-token');
        expect(await storedObjects('packages/')).toEqual(before);
      });

      it('when the token comes after a debug file (curl -F file=@mapping.zip -F token=…), then it is stored; a wrong one is 401 and nothing is left', async () => {
        const mapping = fs.readFileSync(path.join(fixturesDir(), 'proguards', 'single_mapping.zip'));
        const fields: Array<[string, string]> = [['channel_key', channelKey], ['release_version', '4.5.6'], ['build_version', '456']];
        const before = await storedObjects('debug-files/');
        const wrong = await sendParts([['file', mapping, 'mapping.zip'], ...fields, ['token', 'not-a-token']], '/api/debug_files/upload');
        expect(wrong.status).toBe(401);
        expect(await storedObjects('debug-files/')).toEqual(before);
        const res = await sendParts([['file', mapping, 'mapping.zip'], ...fields, ['token', admin]], '/api/debug_files/upload');
        expect({ status: res.status, build: res.body.build_version }).toEqual({ status: 200, build: '456' });
      });

      it('when a file sent before any token is past UPLOAD_MAX_BYTES_BEFORE_TOKEN, then 413 saying to send the token first, and nothing is stored', async () => {
        const before = await storedObjects('packages/');
        const res = await sendParts([['file', Buffer.alloc(3.8 * 1024 * 1024, 7), 'big.apk'], ['token', admin]]);
        expect(res.status).toBe(413);
        expect(res.body.error).toMatch(/token/);
        expect(await storedObjects('packages/')).toEqual(before);
      });

      it('when a form carries two file parts, then 422 and nothing is stored', async () => {
        const before = await storedObjects('packages/');
        const res = await sendParts([['token', admin], ['channel_key', channelKey], ['file', apk(), 'a.apk'], ['file', apk(), 'b.apk']]);
        expect({ status: res.status, entry: res.body.entry }).toEqual({ status: 422, entry: { file: [expect.stringMatching(/twice/)] } });
        expect(await storedObjects('packages/')).toEqual(before);
      });

      it('when a 100 KB branch comes before or after the file, then 422 naming branch and nothing is stored', async () => {
        const before = await storedObjects('packages/');
        const branch = 'b'.repeat(100 * 1024);
        const first = await sendParts([['token', admin], ['channel_key', channelKey], ['branch', branch], ['file', apk(), 'app.apk']]);
        const after = await sendParts([['token', admin], ['channel_key', channelKey], ['file', apk(), 'app.apk'], ['branch', branch]]);
        for (const res of [first, after]) {
          expect({ status: res.status, entry: res.body.entry }).toEqual({ status: 422, entry: { branch: ['is too long (at most 255 bytes)'] } });
          expect(res.text).not.toContain('bbbbbbbbbb');
        }
        expect(await storedObjects('packages/')).toEqual(before);
      });

      // The service's NotFound echoed the 500 KB version into grpc-message: the gateway waited out its
      // gRPC deadline and answered 503. Error texts between services are bounded now.
      it('when a service error would echo a caller\'s 500 KB value, then the caller gets that error (404), its text bounded', async () => {
        const res = await api('POST', '/api/debug_files/retrace', { json: { channel_key: channelKey, release_version: 'v'.repeat(500_000), build_version: '1', stack_trace: 'at a.b.c(Unknown Source)' } });
        expect({ status: res.status, short: res.text.length < 1_000 }).toEqual({ status: 404, short: true });
      });

      it('when an edit sets a field past its limit, then 422 and the release is unchanged', async () => {
        const made = await upload(fixture('android.apk'), { channel_key: channelKey, ci_url: 'https://ci.example/ok' });
        const res = await api('PUT', `/api/releases/${made.body.id}`, { token: admin, json: { ci_url: `https://ci.example/${'x'.repeat(4096)}` } });
        expect({ status: res.status, entry: res.body.entry }).toEqual({ status: 422, entry: { ci_url: ['is too long (at most 2048 bytes)'] } });
        expect((await api('GET', `/api/releases/${made.body.id}`, { token: admin })).body.ci_url).toBe('https://ci.example/ok');
      });
    });

    it('when the list of versions is asked with the key, then newest uploads come first, paginated', async () => {
      const res = await api('GET', `/api/apps/versions?channel_key=${channelKey}&per_page=2`);
      expect(res.status).toBe(200);
      expect(res.body.releases).toHaveLength(2);
      expect(res.body.releases[0].version).toBeGreaterThan(res.body.releases[1].version);
      expect(Number(res.headers.get('x-total-count'))).toBeGreaterThanOrEqual(8);
      expect(res.body).toMatchObject({ app: { id: expect.any(Number) }, scheme: { name: 'Adhoc' } });
    });

    it('when the versions are filtered by version, branch or commit, then every page and the total count only the matching builds', async () => {
      const first = await upload(fixture('android.apk'), { name: `Filtered ${Date.now()}`, branch: 'main', git_commit: 'aaa111' });
      const key = first.body.channel.slug;
      for (const fields of [{ branch: 'main', git_commit: 'aaa222' }, { branch: 'main', git_commit: 'bbb333' }, { branch: 'dev', git_commit: 'aaa444' }]) {
        expect((await upload(fixture('android.apk'), { channel_key: key, ...fields })).status).toBe(201);
      }
      const list = async (query: string) => {
        const res = await api('GET', `/api/apps/versions?channel_key=${key}&${query}`);
        expect(res.status).toBe(200);
        return { commits: res.body.releases.map((r: { git_commit: string }) => r.git_commit), total: Number(res.headers.get('x-total-count')) };
      };
      // Beyond the first page: the filter is the server's, not the page's.
      expect(await list('branch=main&per_page=2')).toEqual({ commits: ['bbb333', 'aaa222'], total: 3 });
      expect(await list('branch=main&per_page=2&page=2')).toEqual({ commits: ['aaa111'], total: 3 });
      expect(await list('git_commit=AAA')).toEqual({ commits: ['aaa444', 'aaa222', 'aaa111'], total: 3 });
      expect(await list('branch=main&git_commit=bbb')).toEqual({ commits: ['bbb333'], total: 1 });
      expect((await list('release_version=1.2')).total).toBe(4);
      expect((await list('release_version=1.2.3')).total).toBe(4);
      expect(await list('release_version=1.20')).toEqual({ commits: [], total: 0 });
      expect((await list('branch=&git_commit=')).total).toBe(4);
      const tooLong = await api('GET', `/api/apps/versions?channel_key=${key}&branch=${'b'.repeat(201)}`);
      expect(tooLong.status).toBe(422);
      expect(tooLong.body.entry).toHaveProperty('branch');
    });

    it('when version_exist is asked, then 200 for a match, 404 with an error otherwise, 422 for other combinations', async () => {
      const ok = await api('GET', `/api/apps/version_exist?channel_key=${channelKey}&bundle_id=com.icyleaf.appinfodemo&release_version=1.2.3&build_version=5`);
      expect(ok.status).toBe(200);
      expect(ok.body.bundle_id).toBe('com.icyleaf.appinfodemo');
      const byCommit = await api('GET', `/api/apps/version_exist?channel_key=${channelKey}&bundle_id=com.icyleaf.appinfodemo&git_commit=abc123`);
      expect(byCommit.status).toBe(200);
      const missing = await api('GET', `/api/apps/version_exist?channel_key=${channelKey}&bundle_id=com.icyleaf.appinfodemo&release_version=9.9&build_version=1`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: expect.any(String) });
      const bad = await api('GET', `/api/apps/version_exist?channel_key=${channelKey}&bundle_id=com.icyleaf.appinfodemo&release_version=1.2.3`);
      expect(bad.status).toBe(422);
    });

    it('when latest is asked, then only newer versions come back, newest first, as an array', async () => {
      const older = await api('GET', `/api/apps/latest?channel_key=${channelKey}&release_version=1.2.3&build_version=4`);
      expect(older.status).toBe(200);
      expect(older.body.releases.length).toBeGreaterThan(0);
      for (const r of older.body.releases) expect([r.release_version, r.build_version]).toEqual(['1.2.3', '5']);
      const same = await api('GET', `/api/apps/latest?channel_key=${channelKey}&release_version=1.2.3&build_version=5`);
      expect(same.body.releases).toEqual([]);
      const newer = await api('GET', `/api/apps/latest?channel_key=${channelKey}&release_version=1.10&build_version=1`);
      expect(newer.body.releases).toEqual([]);
      const missing = await api('GET', `/api/apps/latest?channel_key=${channelKey}&release_version=1.0`);
      expect(missing.status).toBe(422);
    });

    it('when a release is edited and deleted, then the change shows and its files leave storage', async () => {
      const created = await upload(fixture('android.apk'), { channel_key: channelKey });
      const objectsWith = await storedObjects('packages/');
      const edited = await api('PUT', `/api/releases/${created.body.id}`, { token: admin, json: { changelog: 'Edited', branch: 'origin/main' } });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ changelog: [{ message: 'Edited' }], branch: 'main' });
      const deleted = await api('DELETE', `/api/releases/${created.body.id}`, { token: admin });
      expect(deleted.body).toEqual({ mesage: 'OK' });
      expect((await api('PUT', `/api/releases/${created.body.id}`, { token: admin, json: { changelog: 'x' } })).status).toBe(404);
      await eventually(async () => (await storedObjects('packages/')).length === objectsWith.length - 1, { timeoutMs: 15_000, stepMs: 250, what: "the deleted release's package gone from storage" });
    });
  });

  describe('refused uploads leave nothing behind', () => {
    it('when the channel key is unknown, then 404', async () => {
      const res = await upload(fixture('android.apk'), { channel_key: 'no-such-channel-key' });
      expect(res.status).toBe(404);
    });

    it('when no token is sent, then 401 before anything is stored', async () => {
      const before = await storedObjects('packages/');
      const res = await upload(fixture('android.apk'), {}, null);
      expect(res.status).toBe(401);
      expect(await storedObjects('packages/')).toEqual(before);
    });

    it('when the file is truncated, empty, or not a package, then 422 says what is wrong', async () => {
      const before = await storedObjects('packages/');
      const truncated = await upload(fs.readFileSync(fixture('iphone.ipa')).subarray(0, 20_000), {}, admin, 'app.ipa');
      expect(truncated.status).toBe(422);
      expect(truncated.body.entry).toHaveProperty('file');
      const empty = await upload(Buffer.alloc(0), {}, admin, 'empty.apk');
      expect(empty.status).toBe(422);
      const text = await upload(Buffer.from('just some text, not a build'), {}, admin, 'notes.txt');
      expect(text.status).toBe(422);
      expect(await storedObjects('packages/')).toEqual(before);
    });

    it('when the file is larger than the limit, then 413 and no partial object remains', async () => {
      const before = await storedObjects('packages/');
      const res = await upload(Buffer.alloc(MAX_UPLOAD + 1024 * 1024, 7), {}, admin, 'big.apk');
      expect(res.status).toBe(413);
      expect(await storedObjects('packages/')).toEqual(before);
      const incomplete: string[] = [];
      for await (const item of s3.listIncompleteUploads(bucket, 'packages/', true)) incomplete.push(item.key);
      expect(incomplete).toEqual([]);
    });

    it('when the client disconnects mid-upload, then nothing is left in storage', async () => {
      const before = await storedObjects('packages/');
      await new Promise<void>((resolve) => {
        const boundary = 'hangarboundary';
        const head = `--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${admin}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.apk"\r\nContent-Type: application/octet-stream\r\n\r\n`;
        const req = http.request(`${hangar.baseUrl}/api/apps/upload`, {
          method: 'POST',
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + 3 * 1024 * 1024) },
        });
        req.on('error', () => resolve());
        req.write(head);
        req.write(Buffer.alloc(1024 * 1024, 1), () => setTimeout(() => (req.destroy(), resolve()), 300));
      });
      // A marker instead of a second of silence: an upload sent after the cut, answered. The gateway
      // handles the cut connection's end before a later connection's request, and anything it would
      // store for the cut body would take less than the marker's own storing and recording; so now
      // the marker's package is the only new object.
      const marker = await upload(fixture('android.apk'), { name: `After the cut ${Date.now()}` });
      expect(marker.status).toBe(201);
      const location = (await fetch(`${hangar.baseUrl}/api/releases/${marker.body.id}/download`, { redirect: 'manual' })).headers.get('location');
      const markerKey = decodeURIComponent(new URL(location!).pathname.slice(`/${bucket}/`.length));
      expect((await storedObjects('packages/')).filter((key) => !before.includes(key))).toEqual([markerKey]);
    });

    it('when an unreadable file comes with versions into an existing channel, then it is stored', async () => {
      const channel = (await upload(fixture('android.apk'), { name: `Raw ${Date.now()}` })).body.channel.slug;
      const res = await upload(Buffer.from('opaque build output'), { channel_key: channel, release_version: '3.0', build_version: '7' }, admin, 'build.bin');
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ release_version: '3.0', build_version: '7', platform: 'Android' });
      const noVersions = await upload(Buffer.from('opaque build output'), { channel_key: channel }, admin, 'build.bin');
      expect(noVersions.status).toBe(422);
    });
  });
});
