import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fixturesDir } from '@hangar/testing';
import { Sha256PassThrough } from './sha256-pass-through';

describe('Sha256PassThrough', () => {
  it('when a real package streams through in small chunks, then every byte comes out unchanged and the digest is its SHA-256', async () => {
    const file = path.join(fixturesDir(), 'apps', 'wear.apk');
    const hasher = Sha256PassThrough.of(fs.createReadStream(file, { highWaterMark: 4096 }));
    const out: Buffer[] = [];
    await pipeline(hasher, new PassThrough().on('data', (c: Buffer) => out.push(c)));
    const bytes = fs.readFileSync(file);
    expect(Buffer.concat(out).equals(bytes)).toBe(true);
    expect(hasher.digest()).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('when the digest is asked for before the end, or the source fails, then it says so instead of a wrong hash', async () => {
    const source = new Readable({ read() {} });
    const hasher = Sha256PassThrough.of(source);
    expect(() => hasher.digest()).toThrow('has not ended');
    const failed = new Promise((resolve) => hasher.on('error', resolve));
    source.destroy(new Error('client went away'));
    expect(((await failed) as Error).message).toBe('client went away');
  });
});
