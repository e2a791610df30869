import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as tus from 'tus-js-client';
import { RunningHangar, TestUser, apiClient, createUserWithToken, eventually, fixturesDir, sharedHangar, startHangar, testS3Client, uniqueName } from '@hangar/testing';

/**
 * Resumable uploads over tus 1.0: a tus client no one here wrote (tus-js-client)
 * sends a build in pieces, in parallel parts, and the finishing call turns it into exactly one
 * release whose bytes are the source's. The protocol's refusals change nothing.
 */

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** A real apk with a 20 MB stored entry added: several 8 MiB parts, still a package Hangar reads. */
function paddedApk(dir: string): Buffer {
  const file = path.join(dir, 'padded.apk');
  fs.copyFileSync(path.join(fixturesDir(), 'apps', 'android.apk'), file);
  fs.chmodSync(file, 0o644);
  fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'assets', 'padding.bin'), randomBytes(20 * 1024 * 1024));
  execFileSync('zip', ['-q', '-0', file, 'assets/padding.bin'], { cwd: dir });
  return fs.readFileSync(file);
}

describe('resumable uploads (tus 1.0)', () => {
  let hangar: RunningHangar;
  let api: ReturnType<typeof apiClient>;
  let dir: string;
  let apk: Buffer;
  let developer: TestUser;
  let stranger: TestUser;
  let member: TestUser;
  let channelKey: string;

  const endpoint = () => `${hangar.baseUrl}/api/uploads`;
  const tusHeaders = (token: string, extra: Record<string, string> = {}) => ({ 'tus-resumable': '1.0.0', authorization: `Bearer ${token}`, ...extra });

  /** Uploads `data` with tus-js-client; resolves with the upload's URL. */
  function tusUpload(data: Buffer, token: string, options: Partial<tus.UploadOptions> = {}): Promise<string> {
    return new Promise((resolve, reject) => {
      const upload = new tus.Upload(data, {
        endpoint: endpoint(),
        headers: { authorization: `Bearer ${token}` },
        metadata: { filename: 'padded.apk', channel_key: channelKey },
        retryDelays: [0, 200, 500],
        onError: reject,
        onSuccess: () => resolve(upload.url!),
        ...options,
      });
      upload.start();
    });
  }

  async function create(token: string, length: number, metadata: Record<string, string> = { filename: 'x.apk', channel_key: channelKey }, extra: Record<string, string> = {}) {
    const meta = Object.entries(metadata).map(([k, v]) => `${k} ${b64(v)}`).join(',');
    return fetch(endpoint(), { method: 'POST', headers: tusHeaders(token, { 'upload-length': String(length), 'upload-metadata': meta, ...extra }) });
  }

  const patch = (url: string, token: string, offset: number, body: Buffer, extra: Record<string, string> = {}) =>
    fetch(url, { method: 'PATCH', headers: tusHeaders(token, { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', ...extra }), body });
  const head = (url: string, token: string) => fetch(url, { method: 'HEAD', headers: tusHeaders(token) });
  const idOf = (url: string) => url.split('/').pop()!;

  async function channelBuilds(): Promise<number> {
    const res = await api('GET', `/api/apps/versions?channel_key=${channelKey}`);
    return Number(res.headers.get('x-total-count'));
  }

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-tus-'));
    apk = paddedApk(dir);
    hangar = await sharedHangar();
    api = apiClient(hangar.baseUrl);
    developer = await createUserWithToken(api, hangar.adminToken, 'tus-dev', 'developer');
    stranger = await createUserWithToken(api, hangar.adminToken, 'tus-stranger', 'developer');
    member = await createUserWithToken(api, hangar.adminToken, 'tus-member', 'member');
    const app = await api('POST', '/api/apps', { token: developer.token, form: { name: 'Resumable' } });
    const scheme = await api('POST', `/api/apps/${app.body.id}/schemes`, { token: developer.token, form: { name: 'Nightly' } });
    const channel = await api('POST', `/api/schemes/${scheme.body.id}/channels`, { token: developer.token, form: { name: 'Android', device_type: 'android' } });
    if (channel.status !== 201) throw new Error(`creating the channel answered ${channel.status}: ${channel.text}`);
    channelKey = channel.body.slug;
  }, 180_000);

  afterAll(async () => {
    await hangar?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('when tus-js-client sends a build in three parallel parts, then the finishing call makes one release with the same bytes and their SHA-256', async () => {
    const url = await tusUpload(apk, developer.token, { parallelUploads: 3, metadataForPartialUploads: { filename: 'padded.apk', channel_key: channelKey } });
    const finish = () => api('POST', '/api/apps/upload', { token: developer.token, json: { upload_id: idOf(url), sha256: sha256(apk), changelog: 'resumed' } });
    const first = await finish();
    expect(first.status).toBe(201);
    expect(first.body.size).toBe(apk.length);
    expect(first.body.sha256).toBe(sha256(apk));
    // Retried (a CI step that timed out waiting): the same release, never a second.
    const again = await finish();
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(await channelBuilds()).toBe(1);

    const download = await fetch(`${hangar.baseUrl}/api/releases/${first.body.id}/download?token=${developer.token}`);
    expect(download.status).toBe(200);
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(apk));
  }, 120_000);

  it('when parallel parts name their upload and where they start, then their bytes go into one S3 multipart upload as they arrive, and the final joins them there without a copy — in the file\'s order only', async () => {
    const MiB = 1024 * 1024;
    const s3 = testS3Client();
    type Incomplete = { key: string; uploadId: string };
    const incomplete = async (): Promise<Incomplete[]> => (await s3.listIncompleteUploadsQuery(hangar.bucket, 'packages/', '', '', '')).uploads as Incomplete[];
    const before = new Set((await incomplete()).map((u) => u.uploadId));
    const cuts = [
      { start: 0, end: 8 * MiB },
      { start: 8 * MiB, end: 16 * MiB },
      { start: 16 * MiB, end: apk.length },
    ];
    const meta = { channel_key: channelKey, parallel_upload: uniqueName('parallel'), parallel_size: String(apk.length) };
    const urls: string[] = [];
    for (const cut of cuts) {
      const res = await create(developer.token, cut.end - cut.start, meta, { 'upload-concat': 'partial' });
      expect(res.status).toBe(201);
      urls.push(res.headers.get('location')!);
    }
    // Side by side, the last first, in 3 MiB requests: each part's bytes between requests wait in a tail of its own.
    await Promise.all(
      [...cuts.keys()].reverse().map(async (i) => {
        const { start, end } = cuts[i]!;
        for (let at = start; at < end; at += 3 * MiB) {
          const res = await patch(urls[i]!, developer.token, at - start, apk.subarray(at, Math.min(end, at + 3 * MiB)), { 'hangar-partial-start': String(start) });
          expect({ part: i, at, status: res.status }).toEqual({ part: i, at, status: 204 });
        }
      }),
    );
    // One multipart upload holds the three parts' bytes, numbered by their place in the file.
    const opened = (await incomplete()).filter((u) => !before.has(u.uploadId));
    expect(opened).toHaveLength(1);
    const s3Parts = await (s3 as unknown as { listParts(b: string, k: string, u: string): Promise<{ part: number; size: number }[]> }).listParts(hangar.bucket, opened[0]!.key, opened[0]!.uploadId);
    const lastParts = Math.ceil((apk.length - 16 * MiB) / (8 * MiB));
    expect(s3Parts.map((p) => p.part).sort((a, b) => a - b)).toEqual([1, 2, ...Array.from({ length: lastParts }, (_, i) => 4 + i)]);

    const final = (parts: string[]) =>
      fetch(endpoint(), { method: 'POST', headers: tusHeaders(developer.token, { 'upload-concat': `final;${parts.join(' ')}`, 'upload-metadata': `filename ${b64('padded.apk')},channel_key ${b64(channelKey)}` }) });
    // Out of the file's order, or not all of them: refused, nothing joined.
    const swapped = await final([urls[1]!, urls[0]!, urls[2]!]);
    expect(swapped.status).toBe(400);
    expect(((await swapped.json()) as { error: string }).error).toMatch(/in the order of their bytes/);
    const short = await final([urls[0]!, urls[1]!]);
    expect(short.status).toBe(400);
    expect((await incomplete()).map((u) => u.uploadId)).toContain(opened[0]!.uploadId);

    const joined = await final(urls);
    expect(joined.status).toBe(201);
    // Completed where the bytes were: the file is that upload's object, and no multipart upload is left open.
    expect((await incomplete()).filter((u) => !before.has(u.uploadId))).toEqual([]);
    expect((await s3.statObject(hangar.bucket, opened[0]!.key)).size).toBe(apk.length);
    const made = await api('POST', '/api/apps/upload', { token: developer.token, json: { upload_id: idOf(joined.headers.get('location')!), sha256: sha256(apk) } });
    expect(made.status).toBe(201);
    expect(made.body.sha256).toBe(sha256(apk));
    const download = await fetch(`${hangar.baseUrl}/api/releases/${made.body.id}/download?token=${developer.token}`);
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(apk));
  }, 120_000);

  it('when two uploads of one caller share a parallel_upload name and size, then neither overwrites the other: the first keeps its places, the second is joined by a copy, each its own bytes', async () => {
    const MiB = 1024 * 1024;
    // Another real apk of the same size: other random padding, so its parts' bytes differ from apk's.
    const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-tus-other-'));
    const other = paddedApk(otherDir);
    fs.rmSync(otherDir, { recursive: true, force: true });
    expect(other.length).toBe(apk.length);
    expect(sha256(other)).not.toBe(sha256(apk));
    const cuts = [
      { start: 0, end: 8 * MiB },
      { start: 8 * MiB, end: 16 * MiB },
      { start: 16 * MiB, end: apk.length },
    ];
    const meta = { channel_key: channelKey, parallel_upload: uniqueName('same-name'), parallel_size: String(apk.length) };
    const sendParts = async (file: Buffer): Promise<string[]> => {
      const urls: string[] = [];
      for (const { start, end } of cuts) {
        const res = await create(developer.token, end - start, meta, { 'upload-concat': 'partial' });
        expect(res.status).toBe(201);
        const url = res.headers.get('location')!;
        const sent = await patch(url, developer.token, 0, file.subarray(start, end), { 'hangar-partial-start': String(start) });
        expect(sent.status).toBe(204);
        urls.push(url);
      }
      return urls;
    };
    const first = await sendParts(apk);
    const second = await sendParts(other);
    const final = (urls: string[]) =>
      fetch(endpoint(), { method: 'POST', headers: tusHeaders(developer.token, { 'upload-concat': `final;${urls.join(' ')}`, 'upload-metadata': `filename ${b64('padded.apk')},channel_key ${b64(channelKey)}` }) });
    // The second joined first: had its parts taken the first's places, the first's join would find them overwritten.
    for (const [urls, file] of [[second, other], [first, apk]] as const) {
      const joined = await final(urls);
      expect(joined.status).toBe(201);
      const made = await api('POST', '/api/apps/upload', { token: developer.token, json: { upload_id: idOf(joined.headers.get('location')!), sha256: sha256(file) } });
      expect([made.status, made.body.sha256]).toEqual([201, sha256(file)]);
      const download = await fetch(`${hangar.baseUrl}/api/releases/${made.body.id}/download?token=${developer.token}`);
      expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(file));
    }
  }, 120_000);

  it('when a partial names its parallel upload with a size smaller than itself, or not a number, then it is refused before anything is made', async () => {
    for (const parallel_size of ['10', 'ten']) {
      const res = await create(developer.token, 1_000, { channel_key: channelKey, parallel_upload: 'p', parallel_size }, { 'upload-concat': 'partial' });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(/parallel_size/);
    }
  });

  it('when the parallel parts are under S3\'s 5 MiB part minimum, then they are joined through the gateway and hashed on the way: the same bytes and SHA-256', async () => {
    const small = fs.readFileSync(path.join(fixturesDir(), 'apps', 'android.apk'));
    const url = await tusUpload(small, developer.token, { parallelUploads: 3, metadataForPartialUploads: { filename: 'android.apk', channel_key: channelKey } });
    const made = await api('POST', '/api/apps/upload', { token: developer.token, json: { upload_id: idOf(url), sha256: sha256(small) } });
    expect(made.status).toBe(201);
    expect(made.body.sha256).toBe(sha256(small));
    const download = await fetch(`${hangar.baseUrl}/api/releases/${made.body.id}/download?token=${developer.token}`);
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(small));
  }, 120_000);

  it('when the client sends small chunks one after another, then the bytes between parts are kept between requests and the file is whole', async () => {
    // 3 MiB chunks never fill an 8 MiB part in one request: every request leaves a tail.
    const url = await tusUpload(apk, developer.token, { chunkSize: 3 * 1024 * 1024 });
    const res = await api('POST', '/api/debug_files/upload', { token: developer.token, form: { upload_id: idOf(url), channel_key: channelKey } });
    // The finishing call checks the purpose: this upload was made for a package.
    expect(res.status).toBe(422);
    expect(res.body.entry.upload_id[0]).toMatch(/package/);
    const made = await api('POST', '/api/apps/upload', { token: developer.token, form: { upload_id: idOf(url), sha256: sha256(apk) } });
    expect(made.status).toBe(201);
    const download = await fetch(`${hangar.baseUrl}/api/releases/${made.body.id}/download?token=${developer.token}`);
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(apk));
  }, 120_000);

  it('when the client vanishes mid-request, then what arrived is kept and the upload resumes from there', async () => {
    const created = await create(developer.token, apk.length);
    expect(created.status).toBe(201);
    const url = created.headers.get('location')!;
    const sent = 11 * 1024 * 1024;
    await new Promise<void>((resolve) => {
      const { hostname, port, pathname } = new URL(url);
      const socket = net.connect(Number(port), hostname, () => {
        socket.write(
          `PATCH ${pathname} HTTP/1.1\r\nHost: ${hostname}\r\nTus-Resumable: 1.0.0\r\nAuthorization: Bearer ${developer.token}\r\n` +
            `Upload-Offset: 0\r\nContent-Type: application/offset+octet-stream\r\nContent-Length: ${apk.length}\r\n\r\n`,
        );
        socket.write(apk.subarray(0, sent), () => setTimeout(() => socket.destroy(), 300));
      });
      socket.on('close', () => resolve());
      socket.on('error', () => undefined);
    });
    let offset = 0;
    // The bytes before the cut are recorded a moment after the connection closes.
    await eventually(async () => (offset = Number((await head(url, developer.token)).headers.get('upload-offset'))) === sent, { timeoutMs: 5_000, stepMs: 50 }).catch(() => undefined);
    expect(offset).toBe(sent);
    const rest = await patch(url, developer.token, sent, apk.subarray(sent));
    expect(rest.status).toBe(204);
    expect(rest.headers.get('upload-offset')).toBe(String(apk.length));
    const made = await api('POST', '/api/apps/upload', { token: developer.token, json: { upload_id: idOf(url), sha256: sha256(apk) } });
    expect(made.status).toBe(201);
  }, 120_000);

  it('when an offset or a chunk checksum does not match, then the tus status says so and the upload is where it was', async () => {
    const created = await create(developer.token, 1000);
    const url = created.headers.get('location')!;
    expect((await patch(url, developer.token, 0, Buffer.alloc(100, 1))).status).toBe(204);

    const stale = await patch(url, developer.token, 0, Buffer.alloc(100, 2));
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { error: string }).error).toMatch(/Upload-Offset 0 does not match the upload's offset 100/);

    const chunk = Buffer.alloc(100, 3);
    const wrong = createHash('sha256').update('something else').digest('base64');
    const mismatch = await patch(url, developer.token, 100, chunk, { 'upload-checksum': `sha256 ${wrong}` });
    expect(mismatch.status).toBe(460);
    expect((await head(url, developer.token)).headers.get('upload-offset')).toBe('100');

    const right = createHash('sha256').update(chunk).digest('base64');
    const good = await patch(url, developer.token, 100, chunk, { 'upload-checksum': `sha256 ${right}` });
    expect(good.status).toBe(204);
    expect(good.headers.get('upload-offset')).toBe('200');

    expect((await patch(url, developer.token, 200, Buffer.alloc(900))).status).toBe(413);
    expect((await head(url, developer.token)).headers.get('upload-offset')).toBe('200');
    expect((await fetch(url, { method: 'PATCH', headers: tusHeaders(developer.token, { 'upload-offset': '200', 'content-type': 'text/plain' }), body: 'x' })).status).toBe(415);
    expect((await fetch(url, { method: 'PATCH', headers: { authorization: `Bearer ${developer.token}`, 'upload-offset': '200', 'content-type': 'application/offset+octet-stream' }, body: 'x' })).status).toBe(412);
  });

  it('when an upload is terminated, then later parts are refused and its bytes are gone', async () => {
    const created = await create(developer.token, 50);
    const url = created.headers.get('location')!;
    expect((await patch(url, developer.token, 0, Buffer.alloc(10))).status).toBe(204);
    expect((await fetch(url, { method: 'DELETE', headers: tusHeaders(developer.token) })).status).toBe(204);
    expect((await patch(url, developer.token, 10, Buffer.alloc(10))).status).toBe(404);
    expect((await head(url, developer.token)).status).toBe(404);
  });

  it('when someone else touches an upload, finishes it or joins its parts, then it does not exist for them', async () => {
    const created = await create(developer.token, 10);
    const url = created.headers.get('location')!;
    expect((await patch(url, developer.token, 0, Buffer.alloc(10))).status).toBe(204);
    expect((await head(url, stranger.token)).status).toBe(404);
    expect((await patch(url, stranger.token, 10, Buffer.alloc(1))).status).toBe(404);
    expect((await fetch(url, { method: 'DELETE', headers: tusHeaders(stranger.token) })).status).toBe(404);
    const finish = await api('POST', '/api/apps/upload', { token: stranger.token, json: { upload_id: idOf(url) } });
    expect(finish.status).toBe(422);
    expect(finish.body.entry.upload_id).toEqual(['is not an upload of yours']);

    const part = await create(developer.token, 10, { filename: 'p' }, { 'upload-concat': 'partial' });
    const partUrl = part.headers.get('location')!;
    expect((await patch(partUrl, developer.token, 0, Buffer.alloc(10))).status).toBe(204);
    const joined = await fetch(endpoint(), { method: 'POST', headers: tusHeaders(stranger.token, { 'upload-concat': `final;${partUrl}`, 'upload-metadata': `filename ${b64('joined.apk')}` }) });
    expect(joined.status).toBe(400);
    expect(((await joined.json()) as { error: string }).error).toMatch(/not found/i);
    expect((await head(partUrl, developer.token)).status).toBe(200);
  });

  it('when a final upload names one partial twice, then it is 400 and the partial stays free for a final that names it once', async () => {
    const part = await create(developer.token, 10, { filename: 'p' }, { 'upload-concat': 'partial' });
    const partUrl = part.headers.get('location')!;
    expect((await patch(partUrl, developer.token, 0, Buffer.alloc(10, 7))).status).toBe(204);
    const final = (urls: string) => fetch(endpoint(), { method: 'POST', headers: tusHeaders(developer.token, { 'upload-concat': `final;${urls}`, 'upload-metadata': `filename ${b64('joined.apk')},channel_key ${b64(channelKey)}` }) });
    const twice = await final(`${partUrl} ${partUrl}`);
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as { error: string }).error).toMatch(/more than once/);
    expect((await head(partUrl, developer.token)).status).toBe(200);
    const once = await final(partUrl);
    expect(once.status).toBe(201);
    const joined = await head(once.headers.get('location')!, developer.token);
    expect(joined.headers.get('upload-offset')).toBe('10');
  });

  it('when the token, the channel or the right to upload is missing, then the upload is refused before a byte is taken', async () => {
    const body = Buffer.alloc(1000, 7);
    const withBody = { 'content-type': 'application/offset+octet-stream' };
    const noToken = await fetch(endpoint(), { method: 'POST', headers: { 'tus-resumable': '1.0.0', 'upload-length': '1000', ...withBody }, body });
    expect(noToken.status).toBe(401);
    const badChannel = await create(developer.token, 1000, { filename: 'x.apk', channel_key: 'no-such-channel' });
    expect(badChannel.status).toBe(404);
    const notHis = await create(stranger.token, 1000, { filename: 'x.apk', channel_key: channelKey });
    expect(notHis.status).toBe(403);
    const memberWithoutChannel = await create(member.token, 1000, { filename: 'x.apk' });
    expect(memberWithoutChannel.status).toBe(403);
    const debugWithoutChannel = await create(developer.token, 1000, { filename: 'x.zip', purpose: 'debug_file' });
    expect(debugWithoutChannel.status).toBe(422);
    const tooLarge = await create(developer.token, 5 * 1024 * 1024 * 1024);
    expect(tooLarge.status).toBe(413);
  });

  it('when the client says the file has another SHA-256, then no release is made and the upload is thrown away', async () => {
    const url = await tusUpload(apk, developer.token);
    const before = await channelBuilds();
    const wrong = await api('POST', '/api/apps/upload', { token: developer.token, json: { upload_id: idOf(url), sha256: '0'.repeat(64) } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.entry.sha256[0]).toContain(sha256(apk));
    expect(await channelBuilds()).toBe(before);
    expect((await head(url, developer.token)).status).toBe(404);
    const malformed = await api('POST', '/api/apps/upload', { token: developer.token, json: { upload_id: idOf(url), sha256: 'xyz' } });
    expect(malformed.status).toBe(422);
  }, 120_000);

  it('when an upload is not complete, then finishing it is refused and it can still be completed', async () => {
    const created = await create(developer.token, 20);
    const url = created.headers.get('location')!;
    expect((await patch(url, developer.token, 0, Buffer.alloc(5))).status).toBe(204);
    const early = await api('POST', '/api/apps/upload', { token: developer.token, json: { upload_id: idOf(url) } });
    expect(early.status).toBe(422);
    expect(early.body.error).toMatch(/5 of 20 bytes/);
  });

  it('when a debug file is sent resumably, then /api/debug_files/upload with upload_id stores it', async () => {
    const mapping = fs.readFileSync(path.join(fixturesDir(), 'proguards', 'single_mapping.zip'));
    const url = await tusUpload(mapping, developer.token, { metadata: { filename: 'symbols.zip', purpose: 'debug_file', channel_key: channelKey } });
    const res = await api('POST', '/api/debug_files/upload', { token: developer.token, form: { upload_id: idOf(url), channel_key: channelKey, release_version: '1.0', build_version: '1' } });
    expect(res.status).toBe(200);
    const again = await api('POST', '/api/debug_files/upload', { token: developer.token, form: { upload_id: idOf(url), channel_key: channelKey, release_version: '1.0', build_version: '1' } });
    expect(again.body.id).toBe(res.body.id);
  }, 60_000);

  it('when asked with OPTIONS, then the server names its tus version, extensions, limit and checksum algorithm', async () => {
    const res = await fetch(endpoint(), { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('tus-version')).toBe('1.0.0');
    expect(res.headers.get('tus-extension')!.split(',')).toEqual(
      expect.arrayContaining(['creation', 'creation-with-upload', 'checksum', 'termination', 'expiration', 'concatenation']),
    );
    expect(res.headers.get('tus-checksum-algorithm')).toBe('sha256');
    expect(Number(res.headers.get('tus-max-size'))).toBeGreaterThan(0);
  });
});

describe('resumable uploads that expire', () => {
  let hangar: RunningHangar;
  const bucket = uniqueName('e2e-tus-expiry');

  beforeAll(async () => {
    // The releases janitor sweeps every second and removes what is older than 6 s. An upload's
    // 9 MiB PATCH below must end before that: with 2 s (and 3 s) it outlived them once on a
    // loaded CI machine (answered 410 now, 500 then: services/gateway/test/upload-gone.test.ts).
    hangar = await startHangar({ RESUMABLE_UPLOAD_EXPIRY_MS: '5000', STORAGE_JANITOR_GRACE_MS: '6000', STORAGE_JANITOR_INTERVAL_MS: '1000', S3_BUCKET: bucket });
  }, 180_000);

  afterAll(async () => {
    await hangar?.stop();
  });

  it('when an upload is not finished in time, then it is gone (410) for every later request', async () => {
    const headers = { 'tus-resumable': '1.0.0', authorization: `Bearer ${hangar.adminToken}` };
    const created = await fetch(`${hangar.baseUrl}/api/uploads`, { method: 'POST', headers: { ...headers, 'upload-length': '10' } });
    expect(created.status).toBe(201);
    const expires = new Date(created.headers.get('upload-expires')!).getTime();
    expect(expires).toBeGreaterThan(Date.now());
    const url = created.headers.get('location')!;
    // Upload-Expires has whole seconds: a second past it, the upload has expired.
    await new Promise((r) => setTimeout(r, Math.max(0, expires - Date.now()) + 1000));
    expect((await fetch(url, { method: 'HEAD', headers })).status).toBe(410);
    const late = await fetch(url, { method: 'PATCH', headers: { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, body: Buffer.alloc(10) });
    expect(late.status).toBe(410);
  }, 30_000);

  it('when an unfinished upload has expired, then its parts and its tail are removed from storage', async () => {
    const headers = { 'tus-resumable': '1.0.0', authorization: `Bearer ${hangar.adminToken}` };
    const created = await fetch(`${hangar.baseUrl}/api/uploads`, { method: 'POST', headers: { ...headers, 'upload-length': String(20 * 1024 * 1024) } });
    const url = created.headers.get('location')!;
    // One full 8 MiB part in the S3 multipart upload, and 1 MiB waiting in a tail object.
    const sent = await fetch(url, { method: 'PATCH', headers: { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, body: randomBytes(9 * 1024 * 1024) });
    expect(sent.status).toBe(204);
    const s3 = testS3Client();
    const stored = async () => {
      const objects = await s3.listObjectsV2Query(bucket, 'packages/', '', '', 1000, '');
      const uploads = await s3.listIncompleteUploadsQuery(bucket, 'packages/', '', '', '');
      return { objects: objects.objects.length, uploads: uploads.uploads.length };
    };
    // The tail object and this upload's multipart upload (the test before may have left one too).
    const before = await stored();
    expect(before.objects).toBe(1);
    expect(before.uploads).toBeGreaterThanOrEqual(1);
    let left = before;
    await eventually(async () => {
      left = await stored();
      return left.objects === 0 && left.uploads === 0;
    }, { timeoutMs: 20_000, stepMs: 100 }).catch(() => undefined);
    expect(left).toEqual({ objects: 0, uploads: 0 });
  }, 60_000);
});

describe('direct uploads: bytes that never cross the gateway (S3_PUBLIC_ENDPOINT)', () => {
  let hangar: RunningHangar;
  let api: ReturnType<typeof apiClient>;
  let publicEndpoint: string;
  let dir: string;
  let apk: Buffer;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-direct-'));
    apk = paddedApk(dir);
    // The same S3 server under another name, as clients would reach it: URLs signed for the
    // internal name would be refused here, so a part that lands proves whose name they carry.
    const internal = new URL(process.env.S3_ENDPOINT!);
    publicEndpoint = `http://localhost:${internal.port}`;
    hangar = await startHangar({ S3_PUBLIC_ENDPOINT: publicEndpoint });
    api = apiClient(hangar.baseUrl);
  }, 180_000);

  afterAll(async () => {
    await hangar?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('when the client PUTs every presigned part to S3, then the finishing call completes, checks and records the build', async () => {
    const begun = await api('POST', '/api/direct_uploads', { token: hangar.adminToken, json: { filename: 'padded.apk', length: String(apk.length) } });
    expect(begun.status).toBe(201);
    const parts = begun.body.parts as { part_number: number; offset: number; length: number; url: string }[];
    expect(parts.length).toBe(Math.ceil(apk.length / begun.body.part_size));
    for (const part of parts) expect(new URL(part.url).origin).toBe(publicEndpoint);

    // All but the last part: finishing now names what is missing, and makes nothing.
    const put = (p: (typeof parts)[number]) => fetch(p.url, { method: 'PUT', body: apk.subarray(p.offset, p.offset + p.length) });
    await Promise.all(parts.slice(0, -1).map(async (p) => expect((await put(p)).status).toBe(200)));
    const early = await api('POST', '/api/apps/upload', { token: hangar.adminToken, json: { upload_id: begun.body.upload_id } });
    expect(early.status).toBe(422);
    expect(early.body.error).toContain(`part ${parts.length} is missing`);

    expect((await put(parts[parts.length - 1]!)).status).toBe(200);
    const wrong = await api('POST', '/api/apps/upload', { token: hangar.adminToken, json: { upload_id: begun.body.upload_id, sha256: 'f'.repeat(64) } });
    expect(wrong.status).toBe(422);

    // The bad checksum threw that upload away: the same bytes again, with the right one.
    const again = await api('POST', '/api/direct_uploads', { token: hangar.adminToken, json: { filename: 'padded.apk', length: String(apk.length) } });
    await Promise.all((again.body.parts as typeof parts).map(async (p) => expect((await put(p)).status).toBe(200)));
    const made = await api('POST', '/api/apps/upload', { token: hangar.adminToken, json: { upload_id: again.body.upload_id, sha256: sha256(apk) } });
    expect(made.status).toBe(201);
    expect(made.body.size).toBe(apk.length);
    expect(made.body.sha256).toBe(sha256(apk));
    const download = await fetch(`${hangar.baseUrl}/api/releases/${made.body.id}/download?token=${hangar.adminToken}`);
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(apk));
  }, 120_000);

  it('when a direct upload is asked without a token or with a bad length, then it is refused', async () => {
    expect((await api('POST', '/api/direct_uploads', { json: { filename: 'x', length: '10' } })).status).toBe(401);
    const bad = await api('POST', '/api/direct_uploads', { token: hangar.adminToken, json: { filename: 'x', length: '-1' } });
    expect(bad.status).toBe(422);
    expect(bad.body.entry.length).toBeDefined();
    const huge = await api('POST', '/api/direct_uploads', { token: hangar.adminToken, json: { filename: 'x', length: String(64 * 1024 ** 3) } });
    expect(huge.status).toBe(413);
  });
});
