import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RunningHangar, apiClient, fixturesDir, sharedHangar, uniqueName } from '@hangar/testing';

/** Debian's libproguard-java: ProGuard 6.2.2's own ReTrace (libs/testing/system-tools.json). */
const RETRACE_JAR = '/usr/share/java/proguard-retrace.jar';

/**
 * Android retrace over HTTP: a crash tool posts the channel key, the build's
 * versions and the obfuscated trace; Hangar answers what ProGuard's ReTrace prints with the
 * mapping stored for that build.
 */
describe('POST /api/debug_files/retrace', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-e2e-retrace-'));
  let hangar: RunningHangar;
  let api: ReturnType<typeof apiClient>;
  let android: string;
  let mappingId: number;
  const mappingFile = path.join(workDir, 'mapping.txt');

  /** A trace of real obfuscated frames of the fixture mapping: classes, methods and lines it declares. */
  function traceFromMapping(): string {
    const frames: string[] = [];
    let owner = '';
    for (const line of fs.readFileSync(mappingFile, 'utf8').split('\n')) {
      const header = /^\S.* -> (\S+):$/.exec(line);
      if (header) owner = header[1]!;
      const method = /^\s+(\d+):\d+:\S+ \S+\(.*\)(?::\d+(?::\d+)?)? -> (\S+)$/.exec(line);
      if (method && frames.length < 40 && Number(method[1]) % 3 === 1) frames.push(`\tat ${owner}.${method[2]}(SourceFile:${method[1]})`);
    }
    return ['java.lang.IllegalStateException: boom', ...frames, 'Caused by: a.a.k.l: inner', '\tat a.a.k.l.onCreate(Unknown Source)', '\t... 12 more', ''].join('\n');
  }

  beforeAll(async () => {
    hangar = await sharedHangar();
    api = apiClient(hangar.baseUrl);
    const token = hangar.adminToken;
    const app = await api('POST', '/api/apps', { token, form: { name: uniqueName('retrace') } });
    const scheme = await api('POST', `/api/apps/${app.body.id}/schemes`, { token, form: { name: 'Beta' } });
    const channel = await api('POST', `/api/schemes/${scheme.body.id}/channels`, { token, form: { name: 'Android', device_type: 'android' } });
    android = channel.body.slug;
    const zip = fs.readFileSync(path.join(fixturesDir(), 'proguards', 'full_mapping.zip'));
    const uploaded = await api('POST', '/api/debug_files/upload', { token, form: { channel_key: android, release_version: '2.1', build_version: '42' }, files: { file: { data: zip, fileName: 'mapping.zip' } } });
    expect(uploaded.status).toBe(200);
    mappingId = uploaded.body.id;
    fs.writeFileSync(mappingFile, execFileSync('unzip', ['-p', path.join(fixturesDir(), 'proguards', 'full_mapping.zip'), 'mapping.txt'], { maxBuffer: 64 * 1024 * 1024 }));
  });

  afterAll(async () => {
    await hangar?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('when a trace of the stored build is posted as JSON, then the answer is exactly what ProGuard ReTrace prints with that mapping', async () => {
    const trace = traceFromMapping();
    fs.writeFileSync(path.join(workDir, 'trace.txt'), trace);
    const expected = execFileSync('java', ['-jar', RETRACE_JAR, mappingFile, path.join(workDir, 'trace.txt')], { encoding: 'utf8' });
    expect(expected).toContain('androidx.');

    const res = await api('POST', '/api/debug_files/retrace', { json: { channel_key: android, release_version: '2.1', build_version: '42', stack_trace: trace } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ stack_trace: expected, debug_file_id: mappingId });
  });

  it('when the same is posted as multipart or urlencoded (curl -F / -d), then the same answer', async () => {
    const fields = { channel_key: android, release_version: '2.1', build_version: '42', stack_trace: '\tat a.a.k.l.onCreate(SourceFile:2)\n' };
    const multipart = await api('POST', '/api/debug_files/retrace', { form: fields });
    const urlencoded = await api('POST', '/api/debug_files/retrace', { urlencoded: fields });
    expect(multipart.status).toBe(200);
    expect(multipart.body.stack_trace).toContain('androidx.appcompat.app.AlertDialog.onCreate(AlertDialog.java:');
    expect(urlencoded.body).toEqual(multipart.body);
  });

  it('when no mapping is stored for the build, then 404 in the contract shape; an unknown channel key 404; missing fields 422 naming them', async () => {
    const none = await api('POST', '/api/debug_files/retrace', { json: { channel_key: android, release_version: '2.1', build_version: '43', stack_trace: '\tat a.a(SourceFile:1)' } });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ error: expect.stringContaining('No ProGuard mapping for 2.1 (43)') });

    const unknown = await api('POST', '/api/debug_files/retrace', { json: { channel_key: 'no-such-channel-key', release_version: '2.1', build_version: '42', stack_trace: 'x' } });
    expect(unknown.status).toBe(404);

    const blank = await api('POST', '/api/debug_files/retrace', { json: { channel_key: android } });
    expect(blank.status).toBe(422);
    expect(Object.keys(blank.body.entry).sort()).toEqual(['build_version', 'release_version', 'stack_trace']);
  });

  it.each(['json', 'multipart'] as const)('when a %s body of 50 MB is posted, then 413 in the contract shape, the body never held whole', async (encoding) => {
    const huge = `${'\tat a.a.k.l.onCreate(SourceFile:1)\n'.repeat(Math.ceil((50 * 1024 * 1024) / 35))}`;
    const fields = { channel_key: android, release_version: '2.1', build_version: '42', stack_trace: huge };
    const res = await api('POST', '/api/debug_files/retrace', encoding === 'json' ? { json: fields } : { form: fields });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: expect.any(String) });
  });
});
