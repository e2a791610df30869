import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DebugFileParseError } from './debug-file-parse.error';
import { memberFolder } from './member-folder';
import { parseDebugFile } from './parse-debug-file';

/** The tars of Linux debug files, made by GNU tar in the formats it writes, read through tar-stream. */
describe('parseDebugFile on tars of ELF files', () => {
  let dir: string;
  const deep = `${'d'.repeat(120)}/lib`;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hangar-tar-'));
    mkdirSync(join(dir, deep), { recursive: true });
    execFileSync('gcc', ['-Wl,--build-id', '-o', join(dir, deep, 'app'), '-x', 'c', '-'], { input: 'int main(void) { return 0; }\n' });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  /** Members stored in a folder of their own per parse. */
  const members = () => memberFolder(mkdtempSync(join(dir, 'members-')));

  it.each(['gnu', 'pax', 'ustar'])('when a member\'s path is longer than a header holds (%s format), then its whole path is kept', (format) => {
    const tar = join(dir, `${format}.tar`);
    execFileSync('tar', [`--format=${format}`, '-cf', tar, '-C', dir, `${deep}/app`]);
    return expect(parseDebugFile(tar, { members: members() })).resolves.toMatchObject({ kind: 'elf', entries: [{ object: 'app', data: { path: `${deep}/app` } }] });
  });

  it('when a tar.gz fails its gzip checksum, then it is refused as a damaged upload', async () => {
    const good = join(dir, 'good.tar.gz');
    execFileSync('tar', ['-czf', good, '-C', dir, `${deep}/app`]);
    const bytes = readFileSync(good);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 6) ^ 0xff, bytes.length - 6);
    const bad = join(dir, 'bad-crc.tar.gz');
    writeFileSync(bad, bytes);
    await expect(parseDebugFile(good, { members: members() })).resolves.toMatchObject({ kind: 'elf' });
    await expect(parseDebugFile(bad, { members: members() })).rejects.toThrow(DebugFileParseError);
  });

  it('when a tar is cut inside a member, then it is refused as a damaged upload', async () => {
    const whole = join(dir, 'whole.tar');
    execFileSync('tar', ['-cf', whole, '-C', dir, `${deep}/app`]);
    const cut = join(dir, 'cut.tar');
    writeFileSync(cut, readFileSync(whole).subarray(0, 3000));
    await expect(parseDebugFile(cut, { members: members() })).rejects.toThrow(/tar: Unexpected end of data/);
  });
});
