import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { BufferByteSource, MUTATION_KINDS, type Mutation, mutate, settleWithin, storedZip, fixturesDir } from '@hangar/testing';
import { DebugFileParseError, memberFolder, parseDebugFile, type ParsedDebugFile } from './index';

// Hostile input, property-based: a debug-file upload of any bytes either parses to the
// documented shape or is refused with DebugFileParseError — never another error, never a hang.
// Seeds are the real dSYM and ProGuard archives; the fixed-case rejections stay in
// parse-debug-file.test.ts.

const FIXTURES = fixturesDir();
const ARCHIVES = ['dsyms/single_ios.dSYM.zip', 'dsyms/multi_ios.dSYM.zip', 'proguards/single_mapping.zip', 'proguards/full_mapping.zip'];
const HANG_MS = 10_000;

let workDir: string;
const seeds = new Map<string, Buffer>();
/** Layouts of real archives whose hand-decoded member (Mach-O, Info.plist, manifest) is damaged. */
const layouts = new Map<string, { target: string; members: Array<{ name: string; data: Buffer }> }>();

beforeAll(async () => {
  for (const method of ['debug', 'warn', 'error'] as const) jest.spyOn(console, method).mockImplementation(() => undefined);
  workDir = await mkdtemp(join(tmpdir(), 'hangar-hostile-debug-'));
  for (const archive of ARCHIVES) seeds.set(archive, await readFile(join(FIXTURES, archive)));
  // Linux: a gcc -g binary and its objcopy --only-keep-debug half, made here.
  await writeFile(join(workDir, 'app.c'), 'int add(int a, int b) { return a + b; }\nint main(void) { return add(1, 2) - 3; }\n');
  execFileSync('gcc', ['-g', '-Wl,--build-id', '-o', join(workDir, 'app'), join(workDir, 'app.c')]);
  execFileSync('objcopy', ['--only-keep-debug', join(workDir, 'app'), join(workDir, 'app.debug')]);
  seeds.set('ELF binary', await readFile(join(workDir, 'app')));
  seeds.set('ELF .debug file', await readFile(join(workDir, 'app.debug')));
  // The same two, packed in a zip as a Linux build's symbols: each member is extracted and read.
  const elfMembers = [
    { name: 'usr/bin/app', data: seeds.get('ELF binary')! },
    { name: 'usr/lib/debug/app.debug', data: seeds.get('ELF .debug file')! },
    { name: 'README', data: Buffer.from('symbols\n') },
  ];
  seeds.set('ELF files in a zip', storedZip(elfMembers));
  // And as GNU tar writes them, plain and gzipped (read front to back, members copied out).
  await writeFile(join(workDir, 'README'), 'symbols\n');
  execFileSync('tar', ['-cf', join(workDir, 'linux-build.tar'), '-C', workDir, 'app', 'app.debug', 'README']);
  execFileSync('tar', ['-czf', join(workDir, 'linux-build.tar.gz'), '-C', workDir, 'app', 'app.debug', 'README']);
  seeds.set('ELF files in a tar', await readFile(join(workDir, 'linux-build.tar')));
  seeds.set('ELF files in a tar.gz', await readFile(join(workDir, 'linux-build.tar.gz')));
  layouts.set('ELF .debug file in a zip', { target: 'usr/lib/debug/app.debug', members: elfMembers });
  const unzip = (archive: string, member: string) => execFileSync('unzip', ['-p', join(FIXTURES, archive), member], { maxBuffer: 64 * 1024 * 1024 });
  const dsym = [
    // The universal (armv7 + arm64) DWARF file: fat header, two slices, UUID load commands.
    { name: 'iOS.app.dSYM/Contents/Resources/DWARF/iOS', data: unzip('dsyms/multi_ios.dSYM.zip', 'iOS.app.dSYM/Contents/Resources/DWARF/iOS') },
    { name: 'iOS.app.dSYM/Contents/Info.plist', data: unzip('dsyms/multi_ios.dSYM.zip', 'iOS.app.dSYM/Contents/Info.plist') },
  ];
  layouts.set('dSYM DWARF Mach-O', { target: dsym[0]!.name, members: dsym });
  layouts.set('dSYM Info.plist', { target: dsym[1]!.name, members: dsym });
  const proguard = ['AndroidManifest.xml', 'R.txt'].map((name) => ({ name, data: unzip('proguards/full_mapping.zip', name) }));
  // A short mapping keeps each run cheap; the hashing reads it whole either way.
  proguard.push({ name: 'mapping.txt', data: unzip('proguards/full_mapping.zip', 'mapping.txt').subarray(0, 64 * 1024) });
  layouts.set('ProGuard AndroidManifest.xml', { target: 'AndroidManifest.xml', members: proguard });
  layouts.set('ProGuard mapping.txt', { target: 'mapping.txt', members: proguard });
});

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

function assertWellFormed(parsed: ParsedDebugFile): void {
  expect(Array.isArray(parsed.entries)).toBe(true);
  const json = JSON.stringify(parsed);
  expect(json.length).toBeGreaterThan(0);
}

/** A folder of its own for the members one parse stores (ELF files, dSYM slices). */
async function newMembers(): Promise<ReturnType<typeof memberFolder> & { dir: string }> {
  const dir = await mkdtemp(join(workDir, 'members-'));
  return { ...memberFolder(dir), dir };
}

/** Parsed as the service parses: from a ByteSource (a stored object there), members into a store. */
async function checkDebugBytes(bytes: Buffer): Promise<void> {
  const members = await newMembers();
  try {
    const outcome = await settleWithin(parseDebugFile(new BufferByteSource(bytes), { members }), HANG_MS);
    if (outcome.kind === 'hang') throw new Error(`parseDebugFile did not settle in ${HANG_MS} ms`);
    if (outcome.kind === 'error' && !(outcome.error instanceof DebugFileParseError)) {
      throw new Error(`parseDebugFile threw ${String((outcome.error as Error)?.name)}: ${String((outcome.error as Error)?.message)}`);
    }
    if (outcome.kind === 'value') assertWellFormed(outcome.value);
  } finally {
    await rm(members.dir, { recursive: true, force: true });
  }
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom(...MUTATION_KINDS),
  at: fc.nat(),
  region: fc.constantFrom('head', 'tail', 'anywhere'),
  span: fc.nat(),
  noise: fc.array(fc.nat({ max: 255 }), { minLength: 1, maxLength: 64 }),
});
const runs = (numRuns: number): fc.Parameters<unknown> => ({ numRuns, interruptAfterTimeLimit: 20_000, markInterruptAsFailure: false });

describe('debug-file parser on hostile bytes (property-based)', () => {
  it('when the bytes are arbitrary, optionally behind zip, ELF, PDB (MSF) or Breakpad magic, then only DebugFileParseError comes back', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('', 'PK\x03\x04', 'PK\x05\x06', '\x7fELF\x02\x01\x01', '\x7fELF\x01\x02\x01', 'MODULE ', 'MODULE Linux x86_64 ', 'Microsoft C/C++ MSF 7.00\r\n\x1aDS\0\0\0'), fc.uint8Array({ maxLength: 2048 }), async (magic, body) => {
        await checkDebugBytes(Buffer.concat([Buffer.from(magic, 'latin1'), Buffer.from(body)]));
      }),
      runs(100),
    );
  });

  it('when a real dSYM, mapping archive or ELF file is damaged, then it parses or is refused with DebugFileParseError', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...seeds.keys()), fc.array(mutation, { minLength: 1, maxLength: 3 }), async (seed, mutations) => {
        let bytes = seeds.get(seed)!;
        for (const m of mutations) bytes = mutate(bytes, m);
        await checkDebugBytes(bytes);
      }),
      runs(150),
    );
  });

  it('when the Mach-O, plist, manifest or ELF file inside an otherwise sound archive is damaged, then it parses or is refused with DebugFileParseError', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...layouts.keys()), fc.array(mutation, { minLength: 1, maxLength: 3 }), async (key, mutations) => {
        const { target, members } = layouts.get(key)!;
        const zip = storedZip(
          members.map((member) => {
            if (member.name !== target) return member;
            let data = member.data;
            for (const m of mutations) data = mutate(data, m);
            return { name: member.name, data };
          }),
        );
        await checkDebugBytes(zip);
      }),
      runs(150),
    );
  });

  it('when a zip holds 10,000 tiny files and no symbols, then it is refused quickly with DebugFileParseError, memory bounded', async () => {
    const members = Array.from({ length: 10_000 }, (_, i) => ({ name: `junk/${i}.txt`, data: 'x' }));
    const before = process.memoryUsage().heapUsed;
    const started = Date.now();
    const path = join(workDir, 'ten-thousand.zip');
    await writeFile(path, storedZip(members));
    await expect(parseDebugFile(path)).rejects.toBeInstanceOf(DebugFileParseError);
    expect(Date.now() - started).toBeLessThan(HANG_MS);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(200 * 1024 * 1024);
    // Over the entry limit: refused on the count alone.
    await expect(parseDebugFile(path, { limits: { maxEntries: 5_000 } })).rejects.toThrow(DebugFileParseError);
    await rm(path, { force: true });
  });

  it('when a zip holds more ELF files than a build has (300), then it is refused with DebugFileParseError before any is extracted', async () => {
    const path = join(workDir, 'many-elf.zip');
    await writeFile(path, storedZip(Array.from({ length: 300 }, (_, i) => ({ name: `lib/lib${i}.so`, data: seeds.get('ELF binary')! }))));
    const members = await newMembers();
    const started = Date.now();
    await expect(parseDebugFile(path, { members })).rejects.toThrow(/more than 256 ELF files/);
    expect(Date.now() - started).toBeLessThan(HANG_MS);
    // Nothing was stored.
    expect(await readdir(members.dir)).toEqual([]);
    await rm(path, { force: true });
  });

  it('when a zip holds a Linux build\'s binary and .debug file, then each is an entry with its build-id, extracted byte for byte', async () => {
    const path = join(workDir, 'linux-build.zip');
    await writeFile(path, seeds.get('ELF files in a zip')!);
    const members = await newMembers();
    const parsed = await parseDebugFile(path, { members });
    const buildId = /Build ID: ([0-9a-f]+)/.exec(execFileSync('readelf', ['-n', join(workDir, 'app')], { encoding: 'utf8' }))![1]!;
    expect(parsed.kind).toBe('elf');
    expect(parsed.entries.map((e) => [e.uuid, e.object, e.data.has_code, e.data.has_debug_info])).toEqual([
      [buildId, 'app', true, true],
      [buildId, 'app.debug', false, true],
    ]);
    expect(parsed.entries.map((e) => e.stored)).toEqual([true, true]);
    expect(await readFile(members.pathOf(0))).toEqual(seeds.get('ELF binary'));
    expect(await readFile(members.pathOf(1))).toEqual(seeds.get('ELF .debug file'));
    await rm(path, { force: true });
  });

  it.each(['tar', 'tar.gz'])('when a Linux build\'s binary and .debug file come as a %s made by GNU tar, then each is an entry with its build-id, extracted byte for byte', async (kind) => {
    const path = join(workDir, `copy.${kind}`);
    await writeFile(path, seeds.get(`ELF files in a ${kind}`)!);
    const members = await newMembers();
    const parsed = await parseDebugFile(path, { members });
    const buildId = /Build ID: ([0-9a-f]+)/.exec(execFileSync('readelf', ['-n', join(workDir, 'app')], { encoding: 'utf8' }))![1]!;
    expect(parsed.entries.map((e) => [e.uuid, e.object, e.data.path, e.data.has_code])).toEqual([
      [buildId, 'app', 'app', true],
      [buildId, 'app.debug', 'app.debug', false],
    ]);
    expect(parsed.entries.map((e) => e.stored)).toEqual([true, true]);
    expect(await readFile(members.pathOf(0))).toEqual(seeds.get('ELF binary'));
    expect(await readFile(members.pathOf(1))).toEqual(seeds.get('ELF .debug file'));
    await rm(path, { force: true });
  });

  it('when a tar holds no ELF file, or more entries than allowed, then DebugFileParseError', async () => {
    const path = join(workDir, 'readme-only.tar');
    execFileSync('tar', ['-cf', path, '-C', workDir, 'README']);
    await expect(parseDebugFile(path, { members: await newMembers() })).rejects.toThrow(/the tar holds no ELF file/);
    execFileSync('tar', ['-cf', path, '-C', workDir, 'app', 'app.debug', 'README']);
    await expect(parseDebugFile(path, { limits: { maxEntries: 2 }, members: await newMembers() })).rejects.toThrow(/more than the 2 entries allowed/);
    await rm(path, { force: true });
  });

  it('when entry names are hostile (traversal, absolute, NUL, backslash, huge), then the archive is refused or parsed, never crashes', async () => {
    const hostileName = fc.oneof(
      fc.constantFrom('../mapping.txt', '/etc/mapping.txt', 'a/../../mapping.txt', 'C:/mapping.txt', 'a\\..\\mapping.txt', 'x.dSYM/Contents/Resources/DWARF/\0', '__MACOSX/mapping.txt'),
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.string({ minLength: 1, maxLength: 40 }).map((s) => `${s}.dSYM/Contents/Resources/DWARF/${s}`),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(hostileName, { minLength: 1, maxLength: 5 }), fc.boolean(), async (names, withMapping) => {
        const members = names.map((name) => ({ name, data: Buffer.from('x') }));
        if (withMapping) members.push({ name: 'mapping.txt', data: Buffer.from('a.b.C -> a:\n') });
        await checkDebugBytes(storedZip(members));
      }),
      runs(100),
    );
  });
});
