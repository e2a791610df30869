import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Client } from 'minio';
import { buildHfsPlusDisk, MAC_APP, wrapAsDmg, writeMacApp } from '../../libs/parsers/test/mac-disk-image';
import { writeUdif } from '../../libs/parsers/test/udif-writer';
import { ApiResponse, RunningHangar, apiClient, fixturesDir, startHangar, fetchChecked, uniqueName, validateResponse, testS3Client } from '@hangar/testing';

/**
 * Builds posted as CI posts them — multipart with the fastlane plugin's
 * fields — stored, parsed by the workers and answered in the Release shape.
 */
describe('releases over HTTP', () => {
  const bucket = uniqueName('e2e-releases');
  const MAX_UPLOAD = 4 * 1024 * 1024;
  let hangar: RunningHangar;
  let api: ReturnType<typeof apiClient>;
  let admin: string;
  let s3: Client;

  beforeAll(async () => {
    hangar = await startHangar({ S3_BUCKET: bucket, MAX_UPLOAD_BYTES: String(MAX_UPLOAD) });
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

  async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error('condition not met in time');
  }

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
      const bad1 = await upload(fixture('android.apk'), { channel_key: channelKey, changelog: '{"message":"an object"}' });
      expect(bad1.status).toBe(422);
      expect(bad1.body.entry).toHaveProperty('changelog');
      const bad2 = await upload(fixture('android.apk'), { channel_key: channelKey, custom_fields: '{"name":"x"}' });
      expect(bad2.status).toBe(422);
      expect(bad2.body.entry).toHaveProperty('custom_fields');
      expect(await storedObjects('packages/')).toEqual(before);
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
      await eventually(async () => (await storedObjects('packages/')).length === objectsWith.length - 1);
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
      await new Promise((r) => setTimeout(r, 1_000));
      expect(await storedObjects('packages/')).toEqual(before);
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
