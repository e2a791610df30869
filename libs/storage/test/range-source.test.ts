import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parsePackage } from '@hangar/parsers';
import { fixturesDir, testInfrastructure, uniqueName } from '@hangar/testing';
import { ObjectStorage, type RangeReader } from '../src';

const KiB = 1024;
const MiB = 1024 * KiB;

const infra = testInfrastructure();
const bucket = uniqueName('range-test');

/** Ranged reads of stored objects against a real S3 server, counting the GETs they cost. */
describe('ObjectStorage.openRangeSource', () => {
  const storage = new ObjectStorage({ ...infra.s3, bucket });
  let getSpy: jest.SpyInstance;
  const gets = (): Array<{ offset: number; length: number }> =>
    getSpy.mock.calls.map((call: unknown[]) => ({ offset: call[2] as number, length: call[3] as number }));

  beforeAll(async () => {
    await storage.ensureBucket();
  });

  beforeEach(() => {
    getSpy = jest.spyOn(storage.client, 'getPartialObject');
  });

  afterEach(() => {
    getSpy.mockRestore();
  });

  afterAll(async () => {
    const keys: string[] = [];
    for await (const item of storage.client.listObjectsV2(bucket, '', true)) if (item.name) keys.push(item.name);
    await storage.client.removeObjects(bucket, keys);
    await storage.client.removeBucket(bucket);
  });

  const put = async (data: Buffer): Promise<string> => {
    const key = uniqueName('object');
    await storage.putBuffer(key, data);
    return key;
  };

  it('when a range is streamed, then it comes as one GET of exactly that range, byte-identical, and nothing is cached', async () => {
    const data = randomBytes(6 * MiB + 777);
    const source = await storage.openRangeSource(await put(data));
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of source.stream(1 * MiB + 5, 5 * MiB)) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(data.subarray(1 * MiB + 5, 6 * MiB + 5))).toBe(true);
      expect(gets()).toEqual([{ offset: 1 * MiB + 5, length: 5 * MiB }]);
      expect(source.cachedBytes).toBe(0);
      expect(() => source.stream(data.length - 10, 11)).toThrow(RangeError);
    } finally {
      await source.close();
    }
  });

  it('when the object is shorter than the reader was opened for (it changed), then the stream ends with an error, not short', async () => {
    const key = await put(randomBytes(2 * MiB));
    const source = await storage.openRangeSource(key);
    try {
      await storage.putBuffer(key, randomBytes(1 * MiB));
      const read = async () => {
        for await (const chunk of source.stream(0, 2 * MiB)) void chunk;
      };
      await expect(read()).rejects.toThrow();
    } finally {
      await source.close();
    }
  });

  it('when ranges anywhere in the object are read, then each comes back byte-identical and the size is the stored one', async () => {
    const data = randomBytes(3 * MiB + 12_345);
    const source = await storage.openRangeSource(await put(data));
    try {
      expect(source.size).toBe(data.length);
      const ranges: Array<[number, number]> = [
        [0, 1],
        [0, 4],
        [128 * KiB - 3, 10], // across a block boundary
        [1 * MiB + 17, 300 * KiB], // over several blocks
        [data.length - 22, 22], // the end, where a zip keeps its end record
        [data.length - 1, 1],
        [2 * MiB, 0],
      ];
      for (let i = 0; i < 50; i++) {
        const offset = Math.floor(Math.random() * data.length);
        ranges.push([offset, Math.min(data.length - offset, Math.floor(Math.random() * 200 * KiB))]);
      }
      for (const [offset, length] of ranges) {
        const got = await source.read(offset, length);
        expect(got.length).toBe(length);
        expect(got.equals(data.subarray(offset, offset + length))).toBe(true);
      }
      expect(source.stats.requests).toBe(getSpy.mock.calls.length);
    } finally {
      await source.close();
    }
  });

  it('when a zip-like walk reads the tail and then thousands of small records, then it costs a couple of GETs', async () => {
    const data = randomBytes(8 * MiB);
    const source = await storage.openRangeSource(await put(data));
    try {
      // yauzl: the last 64 KiB + 22 for the end record, then two reads per central directory record.
      await source.read(data.length - 65_557, 65_557);
      let offset = data.length - 200 * KiB;
      for (let record = 0; record < 2_000; record++) {
        const head = await source.read(offset, 46);
        const rest = await source.read(offset + 46, 40);
        expect(Buffer.concat([head, rest]).equals(data.subarray(offset, offset + 86))).toBe(true);
        offset += 86;
        if (offset + 86 > data.length) break;
      }
      expect(gets().length).toBeLessThanOrEqual(3);
      expect(source.stats.bytesFetched).toBeLessThanOrEqual(512 * KiB);
    } finally {
      await source.close();
    }
  });

  it('when a large member is read sequentially in small chunks, then read-ahead makes it a few GETs and memory stays at the cache size', async () => {
    const data = randomBytes(24 * MiB);
    const source = await storage.openRangeSource(await put(data));
    let peakCached = 0;
    try {
      const start = 1 * MiB + 100;
      const length = 20 * MiB;
      for (let done = 0; done < length; done += 64 * KiB) {
        const n = Math.min(64 * KiB, length - done);
        const chunk = await source.read(start + done, n);
        expect(chunk.equals(data.subarray(start + done, start + done + n))).toBe(true);
        peakCached = Math.max(peakCached, source.cachedBytes);
      }
      // 320 chunk reads; read-ahead grows to 1 MiB windows, so ~20-30 GETs, not hundreds.
      expect(gets().length).toBeLessThan(40);
      expect(gets().length).toBeGreaterThan(5);
      // Nothing fetched far past what was read (one read-ahead window at most).
      expect(source.stats.bytesFetched).toBeLessThanOrEqual(length + 2 * MiB);
      expect(peakCached).toBeLessThanOrEqual(4 * MiB);
    } finally {
      await source.close();
    }
    expect(source.cachedBytes).toBe(0);
  });

  it('when one read is larger than the cache could hold, then it is one GET of exactly that range', async () => {
    const data = randomBytes(6 * MiB);
    const source = await storage.openRangeSource(await put(data));
    try {
      const got = await source.read(1000, 5 * MiB);
      expect(got.equals(data.subarray(1000, 1000 + 5 * MiB))).toBe(true);
      expect(gets()).toEqual([{ offset: 1000, length: 5 * MiB }]);
    } finally {
      await source.close();
    }
  });

  it('when the same block is asked for by several reads at once, then it is fetched once', async () => {
    const data = randomBytes(1 * MiB);
    const source = await storage.openRangeSource(await put(data));
    try {
      const reads = await Promise.all([0, 100, 1000, 50_000, 100_000].map((offset) => source.read(offset, 10)));
      reads.forEach((got, i) => expect(got.equals(data.subarray([0, 100, 1000, 50_000, 100_000][i], [0, 100, 1000, 50_000, 100_000][i]! + 10))).toBe(true));
      expect(gets().length).toBe(1);
    } finally {
      await source.close();
    }
  });

  it('when a read falls outside the object, or comes after close, then it fails instead of returning short data', async () => {
    const source = await storage.openRangeSource(await put(randomBytes(1000)));
    await expect(source.read(990, 11)).rejects.toThrow(RangeError);
    await expect(source.read(-1, 1)).rejects.toThrow(RangeError);
    await source.close();
    await source.close(); // idempotent
    await expect(source.read(0, 1)).rejects.toThrow(/after close/);
  });

  it('when the object does not exist, then opening fails with NotFound', async () => {
    await expect(storage.openRangeSource(uniqueName('missing'))).rejects.toMatchObject({ code: 'NotFound' });
  });

  it('when the real android.apk is parsed from S3, then a handful of GETs read a fraction of it', async () => {
    const apk = fs.readFileSync(path.join(fixturesDir(), 'apps', 'android.apk'));
    const key = await put(apk);
    let source: RangeReader | undefined;
    const parsed = await storage.openRangeSource(key).then((opened) => {
      source = opened;
      return parsePackage(opened);
    });

    expect(parsed).toMatchObject({ format: 'apk', bundleId: 'com.icyleaf.appinfodemo', releaseVersion: '1.2.3', buildVersion: '5' });
    expect(parsed.icon?.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(gets().length).toBeLessThanOrEqual(12);
    expect(source!.stats.bytesFetched).toBeLessThan(apk.length);
  });
});
