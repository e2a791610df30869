import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from 'minio';
import { ApiResponse, RunningHangar, apiClient, eventually as waitUntil, fixturesDir, startHangar, fetchChecked, uniqueName, validateResponse, testS3Client } from '@hangar/testing';

const SINGLE_UUID = 'ea9bbf2d-bfdd-3ce0-85b2-1cbe7152fca5';
const ARMV7_UUID = '26dfc15d-bdce-351f-b5de-6ee9f5dd6d85';
const ARM64_UUID = '17f58291-dd25-3fc8-9417-ccbe8163d33e';
const EXPECTED = /^expected a zip of \.dSYM bundles or a ProGuard mapping\.txt/;

/**
 * Debug files posted as the fastlane plugin and curl scripts post them —
 * multipart with token, channel_key, release_version, build_version, file —
 * read back, found by UUID, downloaded by version, replaced and deleted.
 */
describe('debug files over HTTP', () => {
  const bucket = uniqueName('e2e-debug-files');
  const MAX_UPLOAD = 2 * 1024 * 1024;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-e2e-dbgf-'));
  let hangar: RunningHangar;
  let api: ReturnType<typeof apiClient>;
  let admin: string;
  let s3: Client;
  let ios: string;
  let android: string;
  let appId: number;
  let memberToken: string;

  const fixture = (...parts: string[]) => fs.readFileSync(path.join(fixturesDir(), ...parts));
  const SINGLE = () => fixture('dsyms', 'single_ios.dSYM.zip');
  const MULTI = () => fixture('dsyms', 'multi_ios.dSYM.zip');

  async function upload(file: Buffer | undefined, fields: Record<string, string>, token: string | null = admin, options: { method?: 'POST' | 'PUT'; path?: string } = {}): Promise<ApiResponse> {
    const form = new FormData();
    if (token) form.append('token', token);
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    if (file) form.append('file', new Blob([file]), 'symbols.zip');
    const res = await fetch(`${hangar.baseUrl}${options.path ?? '/api/debug_files/upload'}`, { method: options.method ?? 'POST', body: form });
    const text = await res.text();
    const result = { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
    await validateResponse(hangar.baseUrl, options.method ?? 'POST', options.path ?? '/api/debug_files/upload', result);
    return result;
  }

  async function storedObjects(): Promise<string[]> {
    const names: string[] = [];
    if (!(await s3.bucketExists(bucket))) return names;
    for await (const item of s3.listObjectsV2(bucket, 'debug-files/', true)) if (item.name) names.push(item.name);
    return names.sort();
  }

  const eventually = (check: () => Promise<boolean>, timeoutMs = 15_000) => waitUntil(check, { timeoutMs, stepMs: 100, what: 'the objects in storage' });

  /** A real zip made with Info-ZIP's zip from `files` (archive path → content). */
  function zipOf(files: Record<string, string | Buffer>): Buffer {
    const stage = fs.mkdtempSync(path.join(workDir, 'stage-'));
    for (const [name, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(stage, name)), { recursive: true });
      fs.writeFileSync(path.join(stage, name), content);
    }
    const out = path.join(stage, 'out.zip');
    execFileSync('zip', ['-q', '-X', '-r', out, ...Object.keys(files)], { cwd: stage });
    return fs.readFileSync(out);
  }

  const mappingZip = (tag: string) => zipOf({ 'mapping.txt': `com.example.${tag}.Main -> a.a:\n    void run() -> a\n` });

  /** A fresh app with an iOS and an Android channel, made as the admin. */
  async function newApp(): Promise<{ appId: number; ios: string; android: string }> {
    const app = await api('POST', '/api/apps', { token: admin, form: { name: uniqueName('symbols') } });
    expect(app.status).toBe(201);
    const scheme = await api('POST', `/api/apps/${app.body.id}/schemes`, { token: admin, form: { name: 'Beta' } });
    const iosChannel = await api('POST', `/api/schemes/${scheme.body.id}/channels`, { token: admin, form: { name: 'iOS', device_type: 'ios' } });
    const androidChannel = await api('POST', `/api/schemes/${scheme.body.id}/channels`, { token: admin, form: { name: 'Android', device_type: 'android' } });
    expect([scheme.status, iosChannel.status, androidChannel.status]).toEqual([201, 201, 201]);
    return { appId: app.body.id, ios: iosChannel.body.slug, android: androidChannel.body.slug };
  }

  beforeAll(async () => {
    hangar = await startHangar({ S3_BUCKET: bucket, MAX_UPLOAD_BYTES: String(MAX_UPLOAD) });
    api = apiClient(hangar.baseUrl);
    admin = hangar.adminToken;
    s3 = testS3Client();
    ({ appId, ios, android } = await newApp());

    const name = `member${Date.now()}`;
    const user = await api('POST', '/api/users', { token: admin, form: { username: name, email: `${name}@example.com`, password: 'long-enough-pw', role: 'developer' } });
    expect(user.status).toBe(201);
    const token = await api('POST', `/api/users/${user.body.id}/tokens`, { token: admin, form: { name: 'ci' } });
    expect(token.status).toBe(201);
    memberToken = token.body.token;
    const added = await api('POST', `/api/apps/${appId}/collaborators`, { token: admin, form: { user_id: String(user.body.id), role: 'member' } });
    expect(added.status).toBe(201);
  });

  afterAll(async () => {
    await hangar?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  describe('dSYM archives', () => {
    let single: ApiResponse;
    let multi: ApiResponse;
    beforeAll(async () => {
      single = await upload(SINGLE(), { channel_key: ios, release_version: '9.9', build_version: '99' });
      multi = await upload(MULTI(), { channel_key: ios });
    });

    it('when the single-slice fixture is uploaded, then 200 with its one arm64 UUID, and the Info.plist versions win over the form', () => {
      expect(single.status).toBe(200);
      expect(single.body).toMatchObject({ device_type: 'ios', release_version: '1.0', build_version: '1' });
      expect(single.body.metadata.map((m: { uuid: string; type: string }) => [m.uuid, m.type])).toEqual([[SINGLE_UUID, 'arm64']]);
    });

    it('when the fat fixture is uploaded, then exactly its armv7 and arm64 UUIDs come back in the metadata shape B', () => {
      expect(multi.status).toBe(200);
      expect(multi.body).toMatchObject({ id: expect.any(Number), device_type: 'ios', release_version: '1.0', build_version: '2', app_name: expect.any(String) });
      expect(Object.keys(multi.body)).toEqual(['id', 'kind', 'app_name', 'device_type', 'release_version', 'build_version', 'file_url', 'metadata', 'releases', 'created_at', 'updated_at']);
      expect(multi.body.metadata.map((m: { uuid: string; type: string }) => [m.uuid, m.type])).toEqual([
        [ARMV7_UUID, 'armv7'],
        [ARM64_UUID, 'arm64'],
      ]);
      const row = multi.body.metadata[1];
      expect(Object.keys(row)).toEqual(['id', 'debug_file_id', 'uuid', 'type', 'object', 'data', 'size', 'created_at', 'updated_at']);
      expect(row).toMatchObject({ debug_file_id: multi.body.id, object: 'iOS', size: expect.any(Number), data: expect.objectContaining({ bundle_id: 'com.icyleaf.iOS' }) });
      expect(multi.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);
    });

    it('when the same archive is uploaded again, then 409 names the existing file and nothing new is stored', async () => {
      const before = await storedObjects();
      const again = await upload(MULTI(), { channel_key: ios });
      expect(again.status).toBe(409);
      expect(again.body.error).toContain(`debug file ${multi.body.id}`);
      expect(await storedObjects()).toEqual(before);
    });

    it('when files are listed by any of their UUIDs, then the one carrying it comes back, paginated with headers', async () => {
      const byArmv7 = await api('GET', `/api/debug_files?channel_key=${ios}&uuid=${ARMV7_UUID.toUpperCase()}`, { token: admin });
      expect(byArmv7.status).toBe(200);
      expect(byArmv7.body.map((f: { id: number }) => f.id)).toEqual([multi.body.id]);
      const bySingle = await api('GET', `/api/debug_files?channel_key=${ios}&uuid=${SINGLE_UUID}`, { token: admin });
      expect(bySingle.body.map((f: { id: number }) => f.id)).toEqual([single.body.id]);
      const page = await api('GET', `/api/debug_files?channel_key=${ios}&per_page=1`, { token: admin });
      expect(page.body.map((f: { id: number }) => f.id)).toEqual([multi.body.id]);
      expect(page.headers.get('x-total-count')).toBe('2');
      expect(page.headers.get('link')).toContain('rel="next"');
      expect((await api('GET', `/api/debug_files?channel_key=${ios}&uuid=00000000-0000-0000-0000-000000000000`, { token: admin })).body).toEqual([]);
    });

    it('when one is read by id, then 200; an unknown id 404; no channel key 422; no token 401', async () => {
      const got = await api('GET', `/api/debug_files/${single.body.id}?channel_key=${ios}`, { token: admin });
      expect(got.status).toBe(200);
      expect(got.body).toEqual(single.body);
      expect((await api('GET', `/api/debug_files/987654321?channel_key=${ios}`, { token: admin })).status).toBe(404);
      expect((await api('GET', `/api/debug_files/${single.body.id}?channel_key=${android}`, { token: admin })).status).toBe(404);
      const noKey = await api('GET', `/api/debug_files/${single.body.id}`, { token: admin });
      expect(noKey.status).toBe(422);
      expect(noKey.body.entry).toEqual({ channel_key: ["can't be blank"] });
      expect((await api('GET', '/api/debug_files', { token: admin })).status).toBe(422);
      expect((await api('GET', `/api/debug_files/${single.body.id}?channel_key=${ios}`)).status).toBe(401);
      expect((await api('GET', `/api/debug_files?channel_key=${ios}`)).status).toBe(401);
    });

    it('when a download is asked for, then 302 to a URL that serves the exact bytes; release_version is ignored for iOS', async () => {
      const newest = await api('GET', `/api/debug_files/download?channel_key=${ios}&release_version=5.5`);
      expect(newest.status).toBe(302);
      const bytes = Buffer.from(await (await fetch(newest.headers.get('location')!)).arrayBuffer());
      expect(bytes.equals(MULTI())).toBe(true);

      const build1 = await api('GET', `/api/debug_files/download?channel_key=${ios}&release_version=1.0&build_version=1`);
      expect(build1.status).toBe(302);
      expect(Buffer.from(await (await fetch(build1.headers.get('location')!)).arrayBuffer()).equals(SINGLE())).toBe(true);

      const viaFileUrl = await fetchChecked(hangar.baseUrl, single.body.file_url, { redirect: 'manual' });
      expect(viaFileUrl.status).toBe(302);
      expect(Buffer.from(await (await fetch(viaFileUrl.headers.get('location')!)).arrayBuffer()).equals(SINGLE())).toBe(true);
    });

    it('when nothing matches a download, then 404 with an error; a bad order is 422', async () => {
      const none = await api('GET', `/api/debug_files/download?channel_key=${ios}&build_version=404`);
      expect(none.status).toBe(404);
      expect(none.body).toEqual({ error: expect.any(String) });
      expect((await api('GET', `/api/debug_files/download?channel_key=${ios}&order=random`)).status).toBe(422);
      expect((await api('GET', '/api/debug_files/download?channel_key=no-such-channel')).status).toBe(404);
      expect((await api('GET', '/api/debug_files/download')).status).toBe(422);
    });
  });

  describe('mapping archives', () => {
    it('when the full mapping fixture is uploaded with versions, then its files, package and manifest versions come back', async () => {
      const res = await upload(fixture('proguards', 'full_mapping.zip'), { channel_key: android, release_version: '1.0', build_version: '1' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ device_type: 'android', release_version: '1.0', build_version: '1' });
      const rows = res.body.metadata as { type: string; object: string; uuid: string; data: Record<string, unknown> }[];
      expect(rows.map((m) => [m.type, m.object])).toEqual([
        ['manifest', 'AndroidManifest.xml'],
        ['r_txt', 'R.txt'],
        ['mapping', 'mapping.txt'],
      ]);
      expect(rows[0]!.data).toMatchObject({ package: 'com.icyleaf.appinfo', version_name: '1.0', version_code: '1' });
      expect(new Set(rows.map((m) => m.uuid)).size).toBe(1);
    });

    it('when the single mapping fixture is uploaded, then one mapping row; without versions, 422 naming both and nothing stored', async () => {
      const before = await storedObjects();
      const missing = await upload(fixture('proguards', 'single_mapping.zip'), { channel_key: android });
      expect(missing.status).toBe(422);
      expect(Object.keys(missing.body.entry).sort()).toEqual(['build_version', 'release_version']);
      expect(await storedObjects()).toEqual(before);
      const res = await upload(fixture('proguards', 'single_mapping.zip'), { channel_key: android, release_version: '1.0', build_version: '1' });
      expect(res.status).toBe(200);
      expect(res.body.metadata.map((m: { type: string; object: string }) => [m.type, m.object])).toEqual([['mapping', 'mapping.txt']]);
    });

    it('when builds 9, 10 and 2 of 2.0 are uploaded in that order, then order=version downloads 10 and order=upload_date 2', async () => {
      const zips: Record<string, Buffer> = {};
      for (const build of ['9', '10', '2']) {
        zips[build] = mappingZip(`b${build}`);
        const res = await upload(zips[build], { channel_key: android, release_version: '2.0', build_version: build });
        expect(res.status).toBe(200);
      }
      /** Which build's archive the download serves, by its bytes. */
      const target = async (query: string) => {
        const res = await api('GET', `/api/debug_files/download?channel_key=${android}&${query}`);
        expect(res.status).toBe(302);
        const bytes = Buffer.from(await (await fetch(res.headers.get('location')!)).arrayBuffer());
        return Object.keys(zips).find((build) => zips[build]!.equals(bytes));
      };
      expect(await target('release_version=2.0')).toBe('10');
      expect(await target('release_version=2.0&order=version')).toBe('10');
      expect(await target('release_version=2.0&order=upload_date')).toBe('2');
      expect(await target('release_version=2.0&build_version=9')).toBe('9');
      const noRelease = await api('GET', `/api/debug_files/download?channel_key=${android}&build_version=9`);
      expect(noRelease.status).toBe(422);
      expect((await api('GET', `/api/debug_files/download?channel_key=${android}&release_version=7.0`)).status).toBe(404);
    });
  });

  describe('refused uploads leave nothing behind', () => {
    let before: string[];
    beforeEach(async () => {
      before = await storedObjects();
    });
    afterEach(async () => {
      expect(await storedObjects()).toEqual(before);
    });

    it('when channel_key is missing, then 422 naming it', async () => {
      const res = await upload(SINGLE(), { release_version: '1', build_version: '1' });
      expect(res.status).toBe(422);
      expect(res.body.entry).toEqual({ channel_key: ["can't be blank"] });
    });

    it('when channel_key is unknown, then 404; when no token is sent, 401', async () => {
      expect((await upload(SINGLE(), { channel_key: 'no-such-channel-key' })).status).toBe(404);
      expect((await upload(SINGLE(), { channel_key: ios }, null)).status).toBe(401);
    });

    it('when the zip holds no symbols, or the file is not a zip, then 422 says what was expected', async () => {
      const noSymbols = await upload(zipOf({ 'notes/readme.txt': 'no symbols here' }), { channel_key: ios });
      expect(noSymbols.status).toBe(422);
      expect(noSymbols.body.error).toMatch(EXPECTED);
      const notZip = await upload(Buffer.from('this is not a zip archive'), { channel_key: android, release_version: '1', build_version: '1' });
      expect(notZip.status).toBe(422);
      expect(notZip.body.error).toMatch(EXPECTED);
      expect(notZip.body.entry).toHaveProperty('file');
    });

    it('when a dSYM goes to the Android channel, then 422; when there is no file, 422', async () => {
      // An app of its own: in the shared one this dSYM is already stored, and the same content twice in an app is a 409 before it is read.
      const fresh = await newApp();
      const wrong = await upload(SINGLE(), { channel_key: fresh.android, release_version: '1', build_version: '1' });
      expect(wrong.status).toBe(422);
      expect(wrong.body.error).toContain('dSYM');
      const noFile = await upload(undefined, { channel_key: ios });
      expect(noFile.status).toBe(422);
      expect(noFile.body.entry).toHaveProperty('file');
    });

    it('when the file is larger than the limit, then 413', async () => {
      const res = await upload(Buffer.alloc(MAX_UPLOAD + 512 * 1024, 3), { channel_key: ios });
      expect(res.status).toBe(413);
      const incomplete: string[] = [];
      for await (const item of s3.listIncompleteUploads(bucket, 'debug-files/', true)) incomplete.push(item.key);
      expect(incomplete).toEqual([]);
    });

    it('when a member collaborator uploads, replaces or deletes, then 403; reading is allowed', async () => {
      const mine = await upload(zipOf({ 'Member.app.dSYM/Contents/Resources/DWARF/x': 'x' }), { channel_key: ios }, memberToken);
      expect(mine.status).toBe(403);
      const list = await api('GET', `/api/debug_files?channel_key=${ios}`, { token: memberToken });
      expect(list.status).toBe(200);
      const id = list.body[0].id;
      expect((await api('GET', `/api/debug_files/${id}?channel_key=${ios}`, { token: memberToken })).status).toBe(200);
      expect((await upload(MULTI(), { channel_key: ios }, memberToken, { method: 'PUT', path: `/api/debug_files/${id}` })).status).toBe(403);
      expect((await api('DELETE', `/api/debug_files/${id}?channel_key=${ios}`, { token: memberToken })).status).toBe(403);
      expect((await api('GET', `/api/debug_files/${id}?channel_key=${ios}`, { token: admin })).status).toBe(200);
    });
  });

  describe('replace and delete', () => {
    it('when a file is replaced, then it is parsed again and the old archive leaves storage; without a file, 422', async () => {
      const { ios: channel } = await newApp();
      const initial = await storedObjects();
      const created = await upload(SINGLE(), { channel_key: channel });
      expect(created.status).toBe(200);
      const before = await storedObjects();
      const added = (list: string[]) => list.filter((key) => !initial.includes(key));
      // The archive and its one slice, stored on its own for the unified layout.
      expect(added(before)).toHaveLength(2);
      const noFile = await api('PUT', `/api/debug_files/${created.body.id}`, { token: admin, json: { channel_key: channel } });
      expect(noFile.status).toBe(422);
      const replaced = await upload(MULTI(), { channel_key: channel }, admin, { method: 'PUT', path: `/api/debug_files/${created.body.id}` });
      expect(replaced.status).toBe(200);
      expect(replaced.body).toMatchObject({ id: created.body.id, build_version: '2' });
      expect(replaced.body.metadata.map((m: { uuid: string }) => m.uuid)).toEqual([ARMV7_UUID, ARM64_UUID]);
      const after = await storedObjects();
      // The new archive and its two slices; nothing of the old one is left.
      expect(added(after)).toHaveLength(3);
      expect(added(after).filter((key) => before.includes(key))).toEqual([]);
      const unknown = await upload(MULTI(), { channel_key: channel }, admin, { method: 'PUT', path: '/api/debug_files/987654321' });
      expect(unknown.status).toBe(404);
      expect(await storedObjects()).toEqual(after);
    });

    it('when a file is deleted, then {"mesage":"OK"}, it is gone and its archive leaves storage', async () => {
      const { ios: channel } = await newApp();
      const created = await upload(MULTI(), { channel_key: channel });
      const withIt = await storedObjects();
      const noKey = await api('DELETE', `/api/debug_files/${created.body.id}`, { token: admin });
      expect(noKey.status).toBe(422);
      const deleted = await api('DELETE', `/api/debug_files/${created.body.id}?channel_key=${channel}`, { token: admin });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ mesage: 'OK' });
      expect((await api('GET', `/api/debug_files/${created.body.id}?channel_key=${channel}`, { token: admin })).status).toBe(404);
      expect((await api('DELETE', `/api/debug_files/${created.body.id}?channel_key=${channel}`, { token: admin })).status).toBe(404);
      // The archive and its two slices.
      await eventually(async () => (await storedObjects()).length === withIt.length - 3);
      expect((await api('GET', `/api/debug_files/download?channel_key=${channel}`)).status).toBe(404);
    });

    it('when the app is deleted, then its debug files leave storage', async () => {
      const doomed = await newApp();
      const created = await upload(SINGLE(), { channel_key: doomed.ios });
      expect(created.status).toBe(200);
      const withIt = await storedObjects();
      expect((await api('DELETE', `/api/apps/${doomed.appId}`, { token: admin })).status).toBe(200);
      // The archive and its slice.
      await eventually(async () => (await storedObjects()).length === withIt.length - 2);
    });
  });
});
