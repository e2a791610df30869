import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DebugFileParseError, parseDebugFile } from './index';

// Debian ships no Breakpad dump_syms, so these .sym files are written here in the format its
// documentation gives (docs/symbol_files.md of google/breakpad): MODULE, INFO CODE_ID, FILE, FUNC.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hangar-breakpad-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function sym(text: string): string {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.sym`);
  writeFileSync(file, text);
  return file;
}

const WINDOWS = 'MODULE windows x86_64 5A9832E5287241C1838ED98914E9B7FF1 app.pdb\r\nINFO CODE_ID 5AB380779000 app.exe\r\nFILE 0 c:\\src\\app.c\r\nFUNC 1000 2f 0 main\r\n';
const LINUX = 'MODULE Linux x86_64 B4F2B2B79E0FCC8F2C5A7C1DD9CEA9C10 app\nINFO CODE_ID B7B2F2B40F9E8FCC2C5A7C1DD9CEA9C1A2B3C4D5\nFILE 0 /src/app.c\nFUNC 1129 14 0 add\n1129 4 2 0\n';

describe('Breakpad symbol files', () => {
  it('when a Windows .sym is uploaded, then its module id, name and code id are read, for a windows channel', async () => {
    const parsed = await parseDebugFile(sym(WINDOWS));
    expect(parsed).toMatchObject({ kind: 'breakpad', deviceType: 'windows' });
    expect(parsed.entries).toEqual([
      expect.objectContaining({ uuid: '5A9832E5287241C1838ED98914E9B7FF1', type: 'x86_64', object: 'app.pdb', data: expect.objectContaining({ code_id: '5AB380779000', os: 'windows' }) }),
    ]);
  });

  it('when a Linux .sym is uploaded, then it is for a linux channel', async () => {
    const parsed = await parseDebugFile(sym(LINUX));
    expect(parsed).toMatchObject({ kind: 'breakpad', deviceType: 'linux', entries: [expect.objectContaining({ uuid: 'B4F2B2B79E0FCC8F2C5A7C1DD9CEA9C10', object: 'app' })] });
  });

  it('when the file is gigabytes long, then only its head is read', async () => {
    const file = sym(LINUX);
    truncateSync(file, 3 * 1024 ** 3); // sparse: a long file that costs no disk
    const started = Date.now();
    await expect(parseDebugFile(file)).resolves.toMatchObject({ kind: 'breakpad' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it.each([
    ['truncated in its MODULE line', 'MODULE Linux x86_64 B4F2B2B79E0FCC8F2C5A7C1DD9CE', /MODULE line does not end/],
    ['a module id of the wrong length', 'MODULE Linux x86_64 B4F2B2 app\n', /33 to 40 hex digits/],
    ['a module id that is not hex', 'MODULE Linux x86_64 Z4F2B2B79E0FCC8F2C5A7C1DD9CEA9C10 app\n', /MODULE <os> <arch> <id> <name>/],
    ['a path for a name', 'MODULE Linux x86_64 B4F2B2B79E0FCC8F2C5A7C1DD9CEA9C10 ../../etc/passwd\n', /file name, without a path/],
    ['a system Hangar has no channels for', 'MODULE Plan9 mips B4F2B2B79E0FCC8F2C5A7C1DD9CEA9C10 app\n', /Plan9/],
  ])('when the .sym has %s, then it is refused with DebugFileParseError', async (_what, text, message) => {
    const outcome = parseDebugFile(sym(text));
    await expect(outcome).rejects.toBeInstanceOf(DebugFileParseError);
    await expect(outcome).rejects.toThrow(message);
  });
});
