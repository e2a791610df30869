import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DebugFileParseError, InflationLimitError } from './debug-file-parse.error';
import { parseDebugFile } from './parse-debug-file';

/**
 * Decompression bombs: an archive is refused as soon as what it inflates to crosses the total
 * (DEBUG_FILE_MAX_INFLATED_BYTES) or the compression ratio — a zip from its directory, before
 * anything inflates; a tar.gz as it streams. The archives are made by the real zip, tar and gzip.
 */
describe('debug archives that inflate past the limits', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-bomb-'));
    // 64 MiB of zeros: zip and gzip make about 64 KiB of it (≈ 1000:1).
    fs.writeFileSync(path.join(dir, 'mapping.txt'), Buffer.alloc(64 * 1024 ** 2));
    execFileSync('zip', ['-q', '-9', 'bomb.zip', 'mapping.txt'], { cwd: dir });
    execFileSync('tar', ['-czf', 'bomb.tar.gz', 'mapping.txt'], { cwd: dir });
    // A real mapping's text, 20 MiB: compresses far less than 200:1.
    let text = '';
    for (let i = 0; text.length < 20 * 1024 ** 2; i++) text += `com.example.pkg${i % 997}.Class${i} -> a${i.toString(36)}:\n    int field${i} -> ${i.toString(36)}\n`;
    fs.mkdirSync(path.join(dir, 'real'));
    fs.writeFileSync(path.join(dir, 'real', 'mapping.txt'), text);
    execFileSync('zip', ['-q', '-9', '../real.zip', 'mapping.txt'], { cwd: path.join(dir, 'real') });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('when a zip entry inflates more than 200 times over 16 MiB, then it is refused from the directory', async () => {
    const err = await parseDebugFile(path.join(dir, 'bomb.zip')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InflationLimitError);
    expect(err).toBeInstanceOf(DebugFileParseError);
    expect((err as Error).message).toMatch(/more than 200 times/);
  });

  it('when a zip declares more than the inflated total allowed, then it is refused', async () => {
    const err = await parseDebugFile(path.join(dir, 'real.zip'), { limits: { maxTotalBytes: 8 * 1024 ** 2 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InflationLimitError);
    expect((err as Error).message).toMatch(/more than the 8388608 bytes allowed once inflated/);
  });

  it('when a tar.gz inflates more than 200 times, then inflating stops with a refusal', async () => {
    const err = await parseDebugFile(path.join(dir, 'bomb.tar.gz')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InflationLimitError);
    expect((err as Error).message).toMatch(/more than 200 times/);
  });

  it('when a tar.gz inflates past the total allowed, then inflating stops with a refusal', async () => {
    const err = await parseDebugFile(path.join(dir, 'bomb.tar.gz'), { limits: { maxTotalBytes: 4 * 1024 ** 2, maxCompressionRatio: 1e9 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InflationLimitError);
    expect((err as Error).message).toMatch(/more than the 4194304 bytes allowed/);
    // A plain tar's total is its members' sizes: the same bound.
    execFileSync('tar', ['-cf', 'plain.tar', 'mapping.txt'], { cwd: dir });
    await expect(parseDebugFile(path.join(dir, 'plain.tar'), { limits: { maxTotalBytes: 4 * 1024 ** 2 } })).rejects.toBeInstanceOf(InflationLimitError);
  });

  it('when a real mapping of 20 MiB is zipped, then the limits let it through', async () => {
    const parsed = await parseDebugFile(path.join(dir, 'real.zip'));
    expect(parsed.kind).toBe('proguard');
  });
});
