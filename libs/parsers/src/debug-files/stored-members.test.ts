import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { BufferByteSource, fixturesDir } from '@hangar/testing';
import type { DebugMemberStore } from './debug-file.types';
import { DebugFileParseError } from './debug-file-parse.error';
import { memberFolder } from './member-folder';
import { parseDebugFile } from './parse-debug-file';

/**
 * Debug files are read by position from any ByteSource (the service: a stored object by range),
 * and the members clients fetch on their own stream from the archive into a member store — no
 * copy of the upload in a temporary folder on the way.
 */
describe('parseDebugFile from a ByteSource, members into a store', () => {
  let dir: string;
  /** A tar of one ELF shared library, as a Linux build's symbols come. */
  let tar: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hangar-members-'));
    tar = join(dir, 'build.tar');
    execFileSync('gcc', ['-Wl,--build-id', '-o', join(dir, 'lib.so'), '-shared', '-x', 'c', '-'], { input: 'int f(void) { return 1; }\n' });
    execFileSync('tar', ['-cf', tar, '-C', dir, 'lib.so']);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A source over the bytes that counts what is read of them. */
  const counted = (bytes: Buffer) => {
    const source = new BufferByteSource(bytes);
    const read = source.read.bind(source);
    const stats = { bytesRead: 0 };
    source.read = async (offset, length) => {
      stats.bytesRead += length;
      return read(offset, length);
    };
    return { source, stats };
  };

  it('when a universal dSYM is parsed with a store, then each slice is stored byte for byte as the entry it is', async () => {
    const archive = join(fixturesDir(), 'dsyms/multi_ios.dSYM.zip');
    const members = memberFolder(mkdtempSync(join(dir, 'dsym-')));

    const parsed = await parseDebugFile(new BufferByteSource(readFileSync(archive)), { members });

    expect(parsed.entries.map((e) => e.type)).toEqual(['armv7', 'arm64']);
    for (const [index, entry] of parsed.entries.entries()) {
      const dwarf = execFileSync('unzip', ['-p', archive, String(entry.data.path)], { maxBuffer: 64 * 1024 * 1024 });
      const offset = Number(entry.data.offset);
      expect(entry.stored).toBe(true);
      expect(readFileSync(members.pathOf(index)).equals(dwarf.subarray(offset, offset + entry.size))).toBe(true);
    }
  });

  it('when a 64 MiB ELF file is parsed from a ByteSource, then only its headers, section table and notes are read', async () => {
    const binary = join(dir, 'app');
    execFileSync('gcc', ['-Wl,--build-id', '-o', binary, '-x', 'c', '-'], { input: 'int main(void) { return 0; }\n' });
    // The section table sits at the end of the file: padding goes before it, inside a section of its own.
    const padded = join(dir, 'padded');
    writeFileSync(join(dir, 'zeros'), Buffer.alloc(64 * 1024 * 1024));
    execFileSync('objcopy', ['--add-section', `.padding=${join(dir, 'zeros')}`, binary, padded]);
    const bytes = readFileSync(padded);
    const { source, stats } = counted(bytes);

    const parsed = await parseDebugFile(source);

    expect(parsed).toMatchObject({ kind: 'elf', entries: [{ size: bytes.length }] });
    expect(bytes.length).toBeGreaterThan(64 * 1024 * 1024);
    expect(stats.bytesRead).toBeLessThan(64 * 1024);
    // The caller's source stays open for the caller to close.
    expect(source.closes).toBe(0);
  });

  it('when the source streams ranges (one GET from S3), then a large member is streamed once past its first MiB, and the rest read by position', async () => {
    const binary = join(dir, 'app');
    execFileSync('gcc', ['-Wl,--build-id', '-o', binary, '-x', 'c', '-'], { input: 'int main(void) { return 0; }\n' });
    writeFileSync(join(dir, 'ones'), Buffer.alloc(8 * 1024 * 1024, 1));
    execFileSync('objcopy', ['--add-section', `.padding=${join(dir, 'ones')}`, binary, join(dir, 'big.debug')]);
    execFileSync('zip', ['-0', '-q', 'big.zip', 'big.debug'], { cwd: dir });
    const bytes = readFileSync(join(dir, 'big.zip'));
    const { source, stats } = counted(bytes);
    const streamed: Array<[number, number]> = [];
    const streaming = Object.assign(source, {
      stream: (offset: number, length: number) => {
        streamed.push([offset, length]);
        return Readable.from([bytes.subarray(offset, offset + length)]);
      },
    });
    const members = memberFolder(mkdtempSync(join(dir, 'streamed-')));

    const parsed = await parseDebugFile(streaming, { members });

    expect(parsed).toMatchObject({ kind: 'elf', entries: [{ object: 'big.debug', stored: true }] });
    expect(readFileSync(members.pathOf(0)).equals(readFileSync(join(dir, 'big.debug')))).toBe(true);
    // The member's first MiB through the block cache (a head costs no GET of its own), the rest as one stream.
    expect(streamed).toHaveLength(1);
    expect(streamed[0]![1]).toBeGreaterThan(7 * 1024 * 1024);
    expect(stats.bytesRead).toBeLessThan(2 * 1024 * 1024);
  });

  it("when the store fails, then the parse fails with the store's error, not as a damaged upload", async () => {
    const storageDown = new Error('storage is unavailable');
    const failing: DebugMemberStore = {
      put: async (_index, bytes) => {
        for await (const chunk of bytes) if (chunk.length > 0) throw storageDown;
      },
      open: () => Promise.reject(new Error('never stored')),
    };

    const outcome = await parseDebugFile(tar, { members: failing }).catch((error: unknown) => error);

    expect(outcome).toBe(storageDown);
    expect(outcome).not.toBeInstanceOf(DebugFileParseError);
  });

  it('when an archive of ELF files is parsed without a store, then it is a programming error, not a refusal of the upload', async () => {
    const outcome = await parseDebugFile(tar).catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(TypeError);
  });
});
