import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RunningHangar, createUserWithToken, apiClient, fixturesDir, sharedHangar, uniqueName } from '@hangar/testing';
import { CliHome, cliHome, runCli } from './cli-runner';

/**
 * What an upload's refusals say, to API clients and to the CLI's user: the platform with its
 * article, a finishing call after a wrong SHA-256 told the upload was discarded and why, and a
 * file Hangar cannot read explained in the CLI's flags while the API keeps its field names.
 */
describe('the words of an upload refused', () => {
  let hangar: RunningHangar;
  let home: CliHome;
  let work: string;
  let androidChannel: string;
  const apk = fs.readFileSync(path.join(fixturesDir(), 'apps', 'android.apk'));
  const ipa = fs.readFileSync(path.join(fixturesDir(), 'apps', 'iphone.ipa'));
  const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
  const b64 = (text: string) => Buffer.from(text).toString('base64');

  const multipart = async (fields: Record<string, string>, file: Buffer, fileName: string) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([file]), fileName);
    const res = await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', headers: { authorization: `Bearer ${hangar.adminToken}` }, body: form });
    return { status: res.status, body: (await res.json()) as { error?: string; entry?: Record<string, string[]>; channel?: { slug: string } } };
  };

  /** A complete tus upload of `data` by `token`'s owner; its id. */
  async function tusUpload(data: Buffer, token: string): Promise<string> {
    const headers = { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}` };
    const created = await fetch(`${hangar.baseUrl}/api/uploads`, {
      method: 'POST',
      headers: { ...headers, 'upload-length': String(data.length), 'upload-metadata': `filename ${b64('app.apk')},channel_key ${b64(androidChannel)}` },
    });
    expect(created.status).toBe(201);
    const url = new URL(created.headers.get('location')!, hangar.baseUrl).toString();
    const sent = await fetch(url, { method: 'PATCH', headers: { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, body: data });
    expect(sent.status).toBe(204);
    return url.split('/').pop()!;
  }

  const finish = async (token: string, fields: Record<string, string>) => {
    const res = await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(fields) });
    return { status: res.status, body: (await res.json()) as { error: string; entry?: Record<string, string[]> } };
  };

  beforeAll(async () => {
    hangar = await sharedHangar();
    home = cliHome();
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-upload-words-'));
    const first = await multipart({}, apk, 'android.apk');
    expect(first.status).toBe(201);
    androidChannel = first.body.channel!.slug;
  });

  afterAll(async () => {
    await hangar?.stop();
    home?.remove();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('when an iOS build is sent to an Android channel, then the refusal says "an iOS build", not "a iOS build"', async () => {
    const refused = await multipart({ channel_key: androidChannel }, ipa, 'iphone.ipa');
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatch(/takes Android builds, but this package is an iOS build$/);
    expect(refused.body.entry).toEqual({ file: ['is an iOS package'] });
  });

  it('when a finishing call after a wrong SHA-256 is made again, then it is told the upload was discarded and why, not that it is not theirs', async () => {
    const id = await tusUpload(apk, hangar.adminToken);
    const wrong = await finish(hangar.adminToken, { upload_id: id, sha256: '0'.repeat(64) });
    expect(wrong.status).toBe(422);
    expect(wrong.body.entry!.sha256![0]).toMatch(/the upload was discarded$/);

    const again = await finish(hangar.adminToken, { upload_id: id, sha256: sha256(apk) });
    expect(again.status).toBe(422);
    expect(again.body.error).toBe('The upload was discarded: the SHA-256 sent to finish it did not match the bytes received. Upload the file again, as a new upload');
    expect(again.body.entry).toEqual({ upload_id: ['was discarded: its SHA-256 did not match; upload the file again'] });
    // Someone else is still told nothing about it.
    const api = apiClient(hangar.baseUrl);
    const stranger = await createUserWithToken(api, hangar.adminToken, uniqueName('stranger'));
    expect((await finish(stranger.token, { upload_id: id })).body.entry).toEqual({ upload_id: ['is not an upload of yours'] });
    // The tus side keeps answering 404 for it, as for any upload that is no more.
    const head = await fetch(`${hangar.baseUrl}/api/uploads/${id}`, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${hangar.adminToken}` } });
    expect(head.status).toBe(404);
    // A new upload of the same bytes is made into a build.
    expect((await finish(hangar.adminToken, { upload_id: await tusUpload(apk, hangar.adminToken), sha256: sha256(apk) })).status).toBe(201);
  });

  it("when the CLI uploads a file Hangar cannot read without versions, then it names its own flags, while the API names its fields", async () => {
    const unknown = path.join(work, 'firmware.bin');
    fs.writeFileSync(unknown, randomBytes(64 * 1024));
    const api = await multipart({ channel_key: androidChannel }, fs.readFileSync(unknown), 'firmware.bin');
    expect(api.status).toBe(422);
    expect(api.body.error).toContain('upload it into an existing channel (channel_key) with release_version and build_version to store it anyway');

    const run = await runCli(['upload', unknown, '--channel-key', androidChannel], { ...home.env, HANGAR_URL: hangar.baseUrl, HANGAR_TOKEN: hangar.adminToken }, { cwd: work });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const said = run.stderr.slice(run.stderr.indexOf('hangar: file is not a package'));
    expect(said).toMatch(/^hangar: file is not a package Hangar can read \(.+\)\. Readable: .+; upload it into an existing channel \(--channel-key\) with --release-version and --build-version to store it anyway\n$/);
    expect(said).not.toMatch(/release_version|build_version|channel_key/);
  });
});
