import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { contentSample, sampledRanges } from './file-digest';

describe('file digests', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-cli-digest-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, bytes: Buffer) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    return file;
  };

  it('when a big file is sampled, then 64 ranges of 64 KiB run from its first byte to its last, and a byte changed in one changes the sample', async () => {
    const size = 40 * 1024 * 1024 + 3;
    const ranges = sampledRanges(size);
    expect(ranges).toHaveLength(64);
    expect(ranges[0]).toEqual({ offset: 0, length: 65536 });
    expect(ranges.at(-1)!.offset + ranges.at(-1)!.length).toBe(size);
    const bytes = randomBytes(size);
    const before = await contentSample(write('a', bytes), size);
    expect(await contentSample(write('copy', Buffer.from(bytes)), size)).toBe(before);
    const inSample = Buffer.from(bytes);
    inSample[ranges[30]!.offset + 100]! ^= 0xff;
    expect(await contentSample(write('b', inSample), size)).not.toBe(before);
    const longer = Buffer.concat([bytes, Buffer.alloc(1)]);
    expect(await contentSample(write('c', longer), longer.length)).not.toBe(before);
  });

  it('when a file is no bigger than the samples, then every byte of it is in the sample', async () => {
    const bytes = randomBytes(1024 * 1024);
    expect(sampledRanges(bytes.length)).toEqual([{ offset: 0, length: bytes.length }]);
    const changed = Buffer.from(bytes);
    changed[777_777]! ^= 1;
    expect(await contentSample(write('b', changed), bytes.length)).not.toBe(await contentSample(write('a', bytes), bytes.length));
  });
});
