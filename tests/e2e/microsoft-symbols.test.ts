import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RunningHangar, apiClient, createUserWithToken, sharedHangar, uniqueName } from '@hangar/testing';

/**
 * Windows symbols in the Microsoft symbol-server layout. A MinGW-w64 build linked by lld writes
 * a PDB and records its GUID and age in the EXE's CodeView debug entry; the path a debugger
 * derives from that entry (read here with llvm-readobj) must fetch the PDB from Hangar, and LLVM's
 * PDB dumper must read the fetched file. Debian ships no Visual Studio, WinDbg or SSQP client.
 */
describe('Microsoft symbol server layout over HTTP', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-e2e-pdb-'));
  let hangar: RunningHangar;
  let api: ReturnType<typeof apiClient>;
  let admin: string;
  let windows: string;
  let pdb: Buffer;
  /** `<GUID><age>` as a debugger builds it from the EXE. */
  let idFromExe: string;

  beforeAll(async () => {
    fs.writeFileSync(path.join(workDir, 'app.c'), 'int add(int a, int b) { return a + b; }\nint main(void) { return add(1, 2) - 3; }\n');
    execFileSync('x86_64-w64-mingw32-gcc', ['-g', '-fuse-ld=lld', `-Wl,--pdb=${path.join(workDir, 'app.pdb')}`, '-o', path.join(workDir, 'app.exe'), path.join(workDir, 'app.c')]);
    pdb = fs.readFileSync(path.join(workDir, 'app.pdb'));
    const debugDir = execFileSync('llvm-readobj', ['--coff-debug-directory', path.join(workDir, 'app.exe')], { encoding: 'utf8' });
    const guid = Buffer.from(/PDBGUID: \(([0-9A-F ]+)\)/.exec(debugDir)![1]!.replace(/ /g, ''), 'hex');
    const age = Number(/PDBAge: (\d+)/.exec(debugDir)![1]);
    // GUID fields 1–3 are stored little-endian; the path spells them big-endian, then the age in hex.
    idFromExe = [guid.subarray(0, 4).reverse(), guid.subarray(4, 6).reverse(), guid.subarray(6, 8).reverse(), guid.subarray(8)].map((b) => b.toString('hex').toUpperCase()).join('') + age.toString(16).toUpperCase();

    hangar = await sharedHangar();
    api = apiClient(hangar.baseUrl);
    admin = hangar.adminToken;
    const app = await api('POST', '/api/apps', { token: admin, form: { name: uniqueName('windows-symbols') } });
    const scheme = await api('POST', `/api/apps/${app.body.id}/schemes`, { token: admin, form: { name: 'Nightly' } });
    const channel = await api('POST', `/api/schemes/${scheme.body.id}/channels`, { token: admin, form: { name: 'Windows', device_type: 'windows' } });
    windows = channel.body.slug;
  });

  afterAll(async () => {
    await hangar?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('when the PDB is uploaded, then it is listed by the id the EXE names, under its file name', async () => {
    const res = await api('POST', '/api/debug_files/upload', { token: admin, form: { channel_key: windows, release_version: '1.0', build_version: '3' }, files: { file: { data: pdb, fileName: 'app.pdb' } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ device_type: 'windows' });
    expect(res.body.metadata).toEqual([expect.objectContaining({ uuid: idFromExe.toLowerCase(), type: 'pdb', object: 'app.pdb' })]);
    expect((await api('POST', '/api/debug_files/upload', { token: admin, form: { channel_key: windows }, files: { file: { data: pdb, fileName: 'app.pdb' } } })).status).toBe(409);
  });

  it('when a debugger asks <file>/<GUID><age>/<file> from the EXE, then it gets the PDB, which llvm-pdbutil reads', async () => {
    const res = await fetch(`${hangar.baseUrl}/symbols/${windows}/app.pdb/${idFromExe}/app.pdb`);
    expect(res.status).toBe(200); // after the 302 to storage
    const fetched = Buffer.from(await res.arrayBuffer());
    expect(fetched.equals(pdb)).toBe(true);
    fs.writeFileSync(path.join(workDir, 'fetched.pdb'), fetched);
    const summary = execFileSync('llvm-pdbutil', ['dump', '--summary', path.join(workDir, 'fetched.pdb')], { encoding: 'utf8' });
    expect(summary).toMatch(/Has Debug Info: true/);
  });

  it('when SSQP asks the lowercased path, or the token comes in the header, then it redirects too (GET and HEAD)', async () => {
    expect((await api('GET', `/symbols/${windows}/app.pdb/${idFromExe.toLowerCase()}/app.pdb`)).status).toBe(302);
    const route = `/symbols/APP.PDB/${idFromExe}/app.pdb`;
    expect((await api('GET', route, { token: admin })).status).toBe(302);
    const head = await fetch(`${hangar.baseUrl}${route}`, { method: 'HEAD', headers: { authorization: `Bearer ${admin}` }, redirect: 'manual' });
    expect(head.status).toBe(302);
    const stranger = await createUserWithToken(api, admin, 'stranger');
    expect((await api('GET', route, { token: stranger.token })).status).toBe(403);
  });

  it("when the EXE itself is uploaded, then it is served by its code id (llvm-readobj's TimeDateStamp and SizeOfImage)", async () => {
    // GNU ld stamps the link time (lld writes 0 for reproducibility): the usual MinGW link.
    const exePath = path.join(workDir, 'plain.exe');
    execFileSync('x86_64-w64-mingw32-gcc', ['-o', exePath, path.join(workDir, 'app.c')]);
    const headers = execFileSync('llvm-readobj', ['--file-headers', exePath], { encoding: 'utf8' });
    const stamp = /TimeDateStamp: .*\(0x([0-9A-F]+)\)/.exec(headers)![1]!.padStart(8, '0');
    const codeId = `${stamp}${Number(/SizeOfImage: (\d+)/.exec(headers)![1]).toString(16).toUpperCase()}`;
    const exe = fs.readFileSync(exePath);
    const up = await api('POST', '/api/debug_files/upload', { token: admin, form: { channel_key: windows }, files: { file: { data: exe, fileName: 'Plain.exe' } } });
    expect(up.status).toBe(200);
    expect(up.body.metadata).toEqual([expect.objectContaining({ uuid: codeId.toLowerCase(), object: 'Plain.exe' })]);
    const res = await fetch(`${hangar.baseUrl}/symbols/${windows}/plain.exe/${codeId.toLowerCase()}/plain.exe`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(exe)).toBe(true);
  });

  it('when the name, id or path is wrong, then a 4xx in the contract shape', async () => {
    const cases: Array<[string, number]> = [
      [`/symbols/${windows}/other.pdb/${idFromExe}/other.pdb`, 404],
      [`/symbols/${windows}/app.pdb/${idFromExe}/other.pdb`, 404],
      [`/symbols/${windows}/app.pdb/${'A'.repeat(33)}/app.pdb`, 404],
      [`/symbols/${windows}/app.pdb/NOTANID/app.pdb`, 422],
      [`/symbols/${windows}/..%2F..%2Fetc%2Fpasswd/${idFromExe}/..%2F..%2Fetc%2Fpasswd`, 404],
      [`/symbols/app.pdb/${idFromExe}/app.pdb`, 401],
      [`/symbols/${windows}`, 404],
    ];
    for (const [route, status] of cases) {
      const res = await api('GET', route);
      expect([route, res.status]).toEqual([route, status]);
      expect(res.body).toEqual(expect.objectContaining({ error: expect.any(String) }));
    }
  });
});
