import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RunningHangar, apiClient, createUserWithToken, fixturesDir, sharedHangar, uniqueName } from '@hangar/testing';

/**
 * A crash report names a Mach-O UUID and an address; the dSYM holding that UUID is fetched from
 * Hangar by the UUID alone and LLVM's own `llvm-symbolizer` turns the address into a function and
 * a source line. Addresses and lines are the fixture's (single_ios.dSYM.zip, arm64 slice).
 */
describe('Apple dSYMs by UUID over HTTP', () => {
  const UUID = 'ea9bbf2d-bfdd-3ce0-85b2-1cbe7152fca5';
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-e2e-dsym-'));
  const zip = fs.readFileSync(path.join(fixturesDir(), 'dsyms', 'single_ios.dSYM.zip'));
  let hangar: RunningHangar;
  let api: ReturnType<typeof apiClient>;
  let admin: string;
  let ios: string;
  let android: string;

  beforeAll(async () => {
    hangar = await sharedHangar();
    api = apiClient(hangar.baseUrl);
    admin = hangar.adminToken;
    const app = await api('POST', '/api/apps', { token: admin, form: { name: uniqueName('dsym-uuid') } });
    const scheme = await api('POST', `/api/apps/${app.body.id}/schemes`, { token: admin, form: { name: 'Beta' } });
    const iosChannel = await api('POST', `/api/schemes/${scheme.body.id}/channels`, { token: admin, form: { name: 'iOS', device_type: 'ios' } });
    const androidChannel = await api('POST', `/api/schemes/${scheme.body.id}/channels`, { token: admin, form: { name: 'Android', device_type: 'android' } });
    ios = iosChannel.body.slug;
    android = androidChannel.body.slug;
    const uploaded = await api('POST', '/api/debug_files/upload', { token: admin, form: { channel_key: ios }, files: { file: { data: zip, fileName: 'symbols.zip' } } });
    expect(uploaded.status).toBe(200);
  });

  afterAll(async () => {
    await hangar?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('when the dSYM is fetched by UUID with the channel key in the URL, then llvm-symbolizer resolves the fixture\'s addresses to function and line', async () => {
    const res = await fetch(`${hangar.baseUrl}/apple/${ios}/dsym/${UUID.toUpperCase()}.zip`);
    expect(res.status).toBe(200); // after the 302 to storage
    const fetched = Buffer.from(await res.arrayBuffer());
    expect(fetched.equals(zip)).toBe(true);
    const file = path.join(workDir, 'fetched.zip');
    fs.writeFileSync(file, fetched);
    execFileSync('unzip', ['-q', '-o', file, '-d', path.join(workDir, 'out')]);
    const dwarf = path.join(workDir, 'out', 'ios.DSYM', 'Contents', 'Resources', 'DWARF', 'iOS');
    const out = execFileSync('llvm-symbolizer', [`--obj=${dwarf}`, '0x100006aa8', '0x100006a70'], { encoding: 'utf8' });
    expect(out.split('\n').filter(Boolean)).toEqual(['main', '/Users/icyleaf/Desktop/iOS/iOS/main.m:12:0', '-[ViewController viewDidLoad]', '/Users/icyleaf/Desktop/iOS/iOS/ViewController.m:18:5']);
  });

  it('when the token is in the header, then GET and HEAD redirect, the UUID without dashes too', async () => {
    const route = `/apple/dsym/${UUID.replace(/-/g, '')}.zip`;
    expect((await api('GET', route, { token: admin })).status).toBe(302);
    const head = await fetch(`${hangar.baseUrl}${route}`, { method: 'HEAD', headers: { authorization: `Bearer ${admin}` }, redirect: 'manual' });
    expect(head.status).toBe(302);
    const stranger = await createUserWithToken(api, admin, 'stranger');
    expect((await api('GET', route, { token: stranger.token })).status).toBe(403);
  });

  it('when the UUID, channel or path is wrong, then a 4xx in the contract shape', async () => {
    const cases: Array<[string, number]> = [
      [`/apple/${ios}/dsym/${'0'.repeat(32)}.zip`, 404],
      [`/apple/${android}/dsym/${UUID}.zip`, 404],
      [`/apple/${ios}/dsym/${UUID}`, 404],
      [`/apple/${ios}/dsym/not-a-uuid.zip`, 422],
      [`/apple/${ios}/dsym/..%2F..%2Fetc%2Fpasswd.zip`, 422],
      [`/apple/dsym/${UUID}.zip`, 401],
    ];
    for (const [route, status] of cases) {
      const res = await api('GET', route);
      expect([route, res.status]).toEqual([route, status]);
      expect(res.body).toEqual(expect.objectContaining({ error: expect.any(String) }));
    }
  });
  it("when one slice is fetched in Sentry's unified layout, then it is the thin Mach-O of that UUID and llvm-symbolizer resolves the same addresses with it", async () => {
    const hex = UUID.replace(/-/g, '');
    const res = await fetch(`${hangar.baseUrl}/apple/${ios}/unified/${hex.slice(0, 2)}/${hex.slice(2)}/debuginfo`);
    expect(res.status).toBe(200); // after the 302 to storage
    const slice = path.join(workDir, 'slice');
    fs.writeFileSync(slice, Buffer.from(await res.arrayBuffer()));
    // The fixture's DWARF file is thin already: the slice is that file, byte for byte.
    const original = execFileSync('unzip', ['-p', path.join(fixturesDir(), 'dsyms', 'single_ios.dSYM.zip'), 'ios.DSYM/Contents/Resources/DWARF/iOS'], { maxBuffer: 64 * 1024 * 1024 });
    expect(fs.readFileSync(slice).equals(original)).toBe(true);
    const out = execFileSync('llvm-symbolizer', [`--obj=${slice}`, '0x100006aa8', '0x100006a70'], { encoding: 'utf8' });
    expect(out.split('\n').filter(Boolean)).toEqual(['main', '/Users/icyleaf/Desktop/iOS/iOS/main.m:12:0', '-[ViewController viewDidLoad]', '/Users/icyleaf/Desktop/iOS/iOS/ViewController.m:18:5']);
  });

  it('when a slice of the fat fixture is fetched in the unified layout, then it is exactly that architecture\'s Mach-O, as llvm-lipo thins it', async () => {
    const app = await api('POST', '/api/apps', { token: admin, form: { name: uniqueName('fat-dsym') } });
    const scheme = await api('POST', `/api/apps/${app.body.id}/schemes`, { token: admin, form: { name: 'Beta' } });
    const channel = await api('POST', `/api/schemes/${scheme.body.id}/channels`, { token: admin, form: { name: 'iOS', device_type: 'ios' } });
    const fat = fs.readFileSync(path.join(fixturesDir(), 'dsyms', 'multi_ios.dSYM.zip'));
    const up = await api('POST', '/api/debug_files/upload', { token: admin, form: { channel_key: channel.body.slug }, files: { file: { data: fat, fileName: 'fat.zip' } } });
    expect(up.status).toBe(200);
    const fatDwarf = path.join(workDir, 'fat-dwarf');
    fs.writeFileSync(fatDwarf, execFileSync('unzip', ['-p', path.join(fixturesDir(), 'dsyms', 'multi_ios.dSYM.zip'), 'iOS.app.dSYM/Contents/Resources/DWARF/iOS'], { maxBuffer: 64 * 1024 * 1024 }));
    expect(up.body.metadata.map((m: { type: string }) => m.type)).toEqual(['armv7', 'arm64']);
    for (const row of up.body.metadata as { uuid: string; type: string }[]) {
      const hex = row.uuid.replace(/-/g, '');
      const res = await fetch(`${hangar.baseUrl}/apple/unified/${hex.slice(0, 2)}/${hex.slice(2)}/debuginfo`, { headers: { authorization: `Bearer ${admin}` } });
      expect(res.status).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      // LLVM's lipo thins the fat file independently: the same bytes.
      const thinned = path.join(workDir, `thin-${row.type}`);
      execFileSync('llvm-lipo-14', [fatDwarf, '-thin', row.type, '-output', thinned]);
      expect(bytes.equals(fs.readFileSync(thinned))).toBe(true);
      // A thin Mach-O (64- or 32-bit magic), not the fat file.
      expect([0xfeedfacf, 0xfeedface]).toContain(bytes.readUInt32LE(0));
    }
    const bad = await api('GET', `/apple/${channel.body.slug}/unified/zz/${'0'.repeat(30)}/debuginfo`);
    expect(bad.status).toBe(404);
    expect(bad.body).toEqual({ error: expect.any(String) });
  });
});
