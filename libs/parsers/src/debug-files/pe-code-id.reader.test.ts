import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { DebugFileParseError, parseDebugFile, readPeCodeId } from './index';

// A real PE image from MinGW-w64 gcc (GNU ld stamps the link time); llvm-readobj is the reference.

let dir: string;
let exe: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hangar-pe-'));
  writeFileSync(join(dir, 'app.c'), 'int main(void) { return 0; }\n');
  exe = join(dir, 'app.exe');
  execFileSync('x86_64-w64-mingw32-gcc', ['-o', exe, join(dir, 'app.c')]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('PE code id', () => {
  it("when MinGW links an exe, then its code id is llvm-readobj's TimeDateStamp and SizeOfImage", async () => {
    const headers = execFileSync('llvm-readobj', ['--file-headers', exe], { encoding: 'utf8' });
    const stamp = Number.parseInt(/TimeDateStamp: .*\(0x([0-9A-F]+)\)/.exec(headers)![1]!, 16);
    const sizeOfImage = Number(/SizeOfImage: (\d+)/.exec(headers)![1]);
    const id = await readPeCodeId(exe);
    expect(id).toMatchObject({ timeDateStamp: stamp, sizeOfImage, machine: 'x86_64' });
    expect(id.codeId).toBe(`${stamp.toString(16).toUpperCase().padStart(8, '0')}${sizeOfImage.toString(16).toUpperCase()}`);
    await expect(parseDebugFile(exe)).resolves.toMatchObject({ kind: 'pe', deviceType: 'windows', entries: [expect.objectContaining({ uuid: id.codeId })] });
  });

  it('when a PE is truncated or corrupted in its headers, then it parses or is refused with DebugFileParseError', async () => {
    const whole = readFileSync(exe);
    const target = join(dir, 'hostile.exe');
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 1024 }), fc.array(fc.tuple(fc.integer({ min: 2, max: 511 }), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }), async (cut, flips) => {
        const copy = Buffer.from(whole.subarray(0, cut));
        for (const [at, value] of flips) if (at < copy.length) copy[at] = value;
        writeFileSync(target, copy);
        await parseDebugFile(target).catch((err: unknown) => expect(err).toBeInstanceOf(DebugFileParseError));
      }),
      { numRuns: 300 },
    );
  });
});
