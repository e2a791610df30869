import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { DebugFileParseError, parseDebugFile, readPdbIdentity } from './index';

// A real PDB, linked here by LLVM's lld from a MinGW-w64 gcc build (the toolchain Hangar's
// Windows builds can use on Debian); llvm-pdbutil, LLVM's own PDB dumper, is the reference.

let dir: string;
let pdb: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hangar-pdb-'));
  writeFileSync(join(dir, 'app.c'), 'int add(int a, int b) { return a + b; }\nint main(void) { return add(1, 2) - 3; }\n');
  pdb = join(dir, 'app.pdb');
  execFileSync('x86_64-w64-mingw32-gcc', ['-g', '-fuse-ld=lld', `-Wl,--pdb=${pdb}`, '-o', join(dir, 'app.exe'), join(dir, 'app.c')]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function pdbutilSummary(file: string): { guid: string; age: number } {
  const out = execFileSync('llvm-pdbutil', ['dump', '--summary', file], { encoding: 'utf8' });
  return { guid: /GUID: (\{[0-9A-F-]+\})/.exec(out)![1]!, age: Number(/Age: (\d+)/.exec(out)![1]) };
}

describe('PDB files', () => {
  it("when lld links a MinGW build with --pdb, then the PDB's GUID and age are llvm-pdbutil's", async () => {
    const expected = pdbutilSummary(pdb);
    const identity = await readPdbIdentity(pdb);
    expect({ guid: identity.guid, age: identity.age }).toEqual(expected);
    expect(identity.symbolServerId).toBe(`${expected.guid.replace(/[{}-]/g, '')}${expected.age.toString(16).toUpperCase()}`);
  });

  it('when the PDB is uploaded, then one windows entry carries its symbol-server id', async () => {
    const parsed = await parseDebugFile(pdb);
    expect(parsed).toMatchObject({ kind: 'pdb', deviceType: 'windows' });
    expect(parsed.entries[0]!.uuid).toMatch(/^[0-9A-F]{33,40}$/);
  });

  it('when the PDB info stream carries a zero GUID, then it is refused as having no GUID', async () => {
    const bytes = readFileSync(pdb);
    const { guid } = pdbutilSummary(pdb);
    // Find the GUID's bytes (little-endian Data1-3) and zero them.
    const hex = guid.replace(/[{}]/g, '').split('-');
    const le = Buffer.concat([
      Buffer.from(hex[0]!, 'hex').reverse(),
      Buffer.from(hex[1]!, 'hex').reverse(),
      Buffer.from(hex[2]!, 'hex').reverse(),
      Buffer.from(hex[3]! + hex[4]!, 'hex'),
    ]);
    const at = bytes.indexOf(le);
    expect(at).toBeGreaterThan(0);
    le.fill(0).copy(bytes, at);
    const file = join(dir, 'zero-guid.pdb');
    writeFileSync(file, bytes);
    await expect(parseDebugFile(file)).rejects.toThrow(/no GUID/);
  });

  it('when a PDB is truncated or corrupted anywhere, then it parses or is refused with DebugFileParseError', async () => {
    const whole = readFileSync(pdb);
    const target = join(dir, 'hostile.pdb');
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 8, max: whole.length }),
        fc.array(fc.tuple(fc.integer({ min: 8, max: whole.length - 1 }), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
        async (cut, flips) => {
          const copy = Buffer.from(whole.subarray(0, cut));
          for (const [at, value] of flips) if (at < copy.length) copy[at] = value;
          writeFileSync(target, copy);
          await parseDebugFile(target).catch((err: unknown) => expect(err).toBeInstanceOf(DebugFileParseError));
        },
      ),
      { numRuns: 300 },
    );
    writeFileSync(target, whole.subarray(0, 40));
    await expect(parseDebugFile(target)).rejects.toThrow(/truncated PDB/);
  });
});
