import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { DebugFileParseError, parseDebugFile, readElfIdentity } from './index';

// Real ELF files made by the real toolchain (gcc, objcopy, strip) in the test; the build-id
// Hangar reads is checked against binutils' own `readelf -n`.

let dir: string;
const SOURCE = 'int add(int a, int b) { return a + b; }\nint main(void) { return add(1, 2) - 3; }\n';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hangar-elf-'));
  writeFileSync(join(dir, 'app.c'), SOURCE);
  execFileSync('gcc', ['-g', '-O0', '-Wl,--build-id', '-o', join(dir, 'app'), join(dir, 'app.c')]);
  execFileSync('objcopy', ['--only-keep-debug', join(dir, 'app'), join(dir, 'app.debug')]);
  execFileSync('objcopy', ['--strip-debug', '--add-gnu-debuglink=' + join(dir, 'app.debug'), join(dir, 'app'), join(dir, 'app.stripped')]);
  execFileSync('gcc', ['-g', '-Wl,--build-id=none', '-o', join(dir, 'no-id'), join(dir, 'app.c')]);
  execFileSync('gcc', ['-g', '-Wl,--build-id=0x0102', '-o', join(dir, 'short-id'), join(dir, 'app.c')]);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The build-id as binutils prints it. */
function readelfBuildId(file: string): string {
  const out = execFileSync('readelf', ['-n', file], { encoding: 'utf8' });
  return /Build ID: ([0-9a-f]+)/.exec(out)![1]!;
}

describe('readElfIdentity', () => {
  it('when given an unstripped gcc -g binary, then it reads readelf\'s build-id, with code and debug info', async () => {
    const elf = await readElfIdentity(join(dir, 'app'));
    expect(elf.buildId).toBe(readelfBuildId(join(dir, 'app')));
    expect(elf.buildId).toHaveLength(40);
    expect(elf).toMatchObject({ arch: 'x86_64', elfType: 'dyn', hasCode: true, hasDebugInfo: true });
  });

  it('when given an objcopy --only-keep-debug file, then it has the same build-id, debug info and no code', async () => {
    const elf = await readElfIdentity(join(dir, 'app.debug'));
    expect(elf.buildId).toBe(readelfBuildId(join(dir, 'app')));
    expect(elf).toMatchObject({ hasCode: false, hasDebugInfo: true });
  });

  it('when given a stripped binary with a debuglink, then it has code, no debug info, and names its debug file', async () => {
    const elf = await readElfIdentity(join(dir, 'app.stripped'));
    expect(elf.buildId).toBe(readelfBuildId(join(dir, 'app')));
    expect(elf).toMatchObject({ hasCode: true, hasDebugInfo: false, debugLink: 'app.debug' });
  });
});

describe('parseDebugFile on ELF', () => {
  it('when an ELF file is uploaded as it is, then one linux entry carries its build-id', async () => {
    const parsed = await parseDebugFile(join(dir, 'app.debug'));
    expect(parsed.kind).toBe('elf');
    expect(parsed.deviceType).toBe('linux');
    expect(parsed.entries).toEqual([
      expect.objectContaining({ uuid: readelfBuildId(join(dir, 'app')), type: 'x86_64', data: expect.objectContaining({ has_debug_info: true, has_code: false }) }),
    ]);
  });

  it('when linked with --build-id=none, then it is refused as having no build-id', async () => {
    await expect(parseDebugFile(join(dir, 'no-id'))).rejects.toThrow(/no GNU build-id/);
  });

  it('when the build-id has the wrong length, then it is refused', async () => {
    await expect(parseDebugFile(join(dir, 'short-id'))).rejects.toThrow(/build-id of 2 bytes/);
  });

  it('when an ELF file is truncated at any point, then it parses or is refused with DebugFileParseError — nothing else', async () => {
    const whole = readFileSync(join(dir, 'app'));
    const target = join(dir, 'cut');
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 4, max: whole.length - 1 }), async (cut) => {
        writeFileSync(target, whole.subarray(0, cut));
        try {
          const parsed = await parseDebugFile(target);
          expect(parsed.entries[0]!.uuid).toBe(readelfBuildId(join(dir, 'app')));
        } catch (err) {
          expect(err).toBeInstanceOf(DebugFileParseError);
        }
      }),
      { numRuns: 200 },
    );
    // The section table sits at the end: cut there, the file cannot be read.
    writeFileSync(target, whole.subarray(0, whole.length - 100));
    await expect(parseDebugFile(target)).rejects.toThrow(/truncated ELF/);
  });

  it('when ELF bytes are flipped at random, then it parses or is refused with DebugFileParseError', async () => {
    const whole = readFileSync(join(dir, 'app.stripped'));
    const target = join(dir, 'flipped');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: 4, max: whole.length - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }), async (flips) => {
        const copy = Buffer.from(whole);
        for (const [at, value] of flips) copy[at] = value;
        writeFileSync(target, copy);
        await parseDebugFile(target).catch((err: unknown) => expect(err).toBeInstanceOf(DebugFileParseError));
      }),
      { numRuns: 300 },
    );
  });
});
