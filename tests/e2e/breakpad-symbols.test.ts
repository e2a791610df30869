import { RunningHangar, apiClient, createUserWithToken, sharedHangar, uniqueName } from '@hangar/testing';

/**
 * Breakpad `.sym` files uploaded through the ordinary debug-file upload and read back in
 * Breakpad's symbol-server layout, `<module>/<module id>/<module>.sym`. Debian ships no Breakpad
 * client or dump_syms, so the files follow the format's documentation and the reads are plain
 * HTTP GETs of that layout, as minidump processors make them.
 */
describe('Breakpad symbol layout over HTTP', () => {
  const WINDOWS_ID = '5A9832E5287241C1838ED98914E9B7FF1';
  const WINDOWS = `MODULE windows x86_64 ${WINDOWS_ID} app.pdb\r\nINFO CODE_ID 5AB380779000 app.exe\r\nFILE 0 c:\\src\\app.c\r\nFUNC 1000 2f 0 main\r\n`;
  let hangar: RunningHangar;
  let api: ReturnType<typeof apiClient>;
  let admin: string;
  let windows: string;
  let linux: string;

  async function channels(): Promise<{ windows: string; linux: string }> {
    const app = await api('POST', '/api/apps', { token: admin, form: { name: uniqueName('breakpad') } });
    const scheme = await api('POST', `/api/apps/${app.body.id}/schemes`, { token: admin, form: { name: 'Nightly' } });
    const win = await api('POST', `/api/schemes/${scheme.body.id}/channels`, { token: admin, form: { name: 'Windows', device_type: 'windows' } });
    const lin = await api('POST', `/api/schemes/${scheme.body.id}/channels`, { token: admin, form: { name: 'Linux', device_type: 'linux' } });
    expect([app.status, scheme.status, win.status, lin.status]).toEqual([201, 201, 201, 201]);
    return { windows: win.body.slug, linux: lin.body.slug };
  }

  beforeAll(async () => {
    hangar = await sharedHangar();
    api = apiClient(hangar.baseUrl);
    admin = hangar.adminToken;
    ({ windows, linux } = await channels());
  });

  afterAll(async () => {
    await hangar?.stop();
  });

  it('when a Windows .sym is uploaded to a Windows channel, then it is listed by module id; to a Linux channel, refused', async () => {
    const wrong = await api('POST', '/api/debug_files/upload', { token: admin, form: { channel_key: linux }, files: { file: { data: Buffer.from(WINDOWS), fileName: 'app.sym' } } });
    expect(wrong.status).toBeGreaterThanOrEqual(400);
    expect(wrong.status).toBeLessThan(500);
    expect(wrong.body.error).toMatch(/a Breakpad symbol file for windows/);
    const res = await api('POST', '/api/debug_files/upload', { token: admin, form: { channel_key: windows, release_version: '3.1', build_version: '12' }, files: { file: { data: Buffer.from(WINDOWS), fileName: 'app.sym' } } });
    expect(res.status).toBe(200);
    expect(res.body.metadata).toEqual([expect.objectContaining({ uuid: WINDOWS_ID.toLowerCase(), type: 'x86_64', object: 'app.pdb' })]);
  });

  it('when a symbol server client asks <module>/<id>/<module>.sym with the channel key in the URL, then it gets the very file', async () => {
    const res = await fetch(`${hangar.baseUrl}/breakpad/${windows}/app.pdb/${WINDOWS_ID}/app.sym`);
    expect(res.status).toBe(200); // fetch followed the 302 to storage
    expect(await res.text()).toBe(WINDOWS);
  });

  it('when the token is in the header, then GET and HEAD redirect; the id is matched in any case', async () => {
    const route = `/breakpad/app.pdb/${WINDOWS_ID.toLowerCase()}/app.sym`;
    const res = await api('GET', route, { token: admin });
    expect(res.status).toBe(302);
    const head = await fetch(`${hangar.baseUrl}${route}`, { method: 'HEAD', headers: { authorization: `Bearer ${admin}` }, redirect: 'manual' });
    expect(head.status).toBe(302);
  });

  it('when a user with no role on the app asks, then 403', async () => {
    const stranger = await createUserWithToken(api, admin, 'stranger');
    expect((await api('GET', `/breakpad/app.pdb/${WINDOWS_ID}/app.sym`, { token: stranger.token })).status).toBe(403);
  });

  it('when the module, id or path is wrong, then a 4xx in the contract shape', async () => {
    const cases: Array<[string, number]> = [
      [`/breakpad/${windows}/other.pdb/${WINDOWS_ID}/other.sym`, 404],
      [`/breakpad/${windows}/app.pdb/${WINDOWS_ID}/app.pdb`, 404],
      [`/breakpad/${windows}/app.pdb/${'A'.repeat(33)}/app.sym`, 404],
      [`/breakpad/${windows}/app.pdb/XYZ/app.sym`, 422],
      [`/breakpad/${windows}/..%2F..%2Fetc/${WINDOWS_ID}/..%2F..%2Fetc.sym`, 404],
      [`/breakpad/${linux}/app.pdb/${WINDOWS_ID}/app.sym`, 404],
      [`/breakpad/${windows}/app.pdb`, 404],
    ];
    for (const [route, status] of cases) {
      const res = await api('GET', route);
      expect([route, res.status]).toEqual([route, status]);
      expect(res.body).toEqual(expect.objectContaining({ error: expect.any(String) }));
    }
  });
});
