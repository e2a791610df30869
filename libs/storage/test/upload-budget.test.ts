import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { testInfrastructure, uniqueName } from '@hangar/testing';
import { ObjectStorage } from '../src';

const MiB = 1024 * 1024;

/** Many uploads sharing one small memory budget against the real S3 server. */
describe('uploads sharing a memory budget', () => {
  const storage = new ObjectStorage({ ...testInfrastructure().s3, bucket: uniqueName('budget-test'), partSize: 5 * MiB, partConcurrency: 2, uploadMemoryBytes: 10 * MiB });

  beforeAll(() => storage.ensureBucket());

  it('when six uploads of three parts each run on a two-part budget, then all complete intact (no deadlock)', async () => {
    const files = Array.from({ length: 6 }, () => randomBytes(13 * MiB));
    const keys = files.map(() => `budget/${uniqueName('f')}`);
    await Promise.all(files.map((data, i) => storage.putStream(keys[i]!, Readable.from(chunksOf(data, 64 * 1024)))));
    for (const [i, data] of files.entries()) {
      const stored: Buffer[] = [];
      for await (const chunk of await storage.getStream(keys[i]!)) stored.push(chunk as Buffer);
      expect(createHash('sha256').update(Buffer.concat(stored)).digest('hex')).toBe(createHash('sha256').update(data).digest('hex'));
    }
  });
});

function* chunksOf(data: Buffer, size: number): Generator<Buffer> {
  for (let offset = 0; offset < data.length; offset += size) yield data.subarray(offset, offset + size);
}
