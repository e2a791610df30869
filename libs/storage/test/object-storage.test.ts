import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { Client } from 'minio';
import { PayloadTooLarge, Unavailable } from '@hangar/errors';
import { Metrics } from '@hangar/metrics';
import { closedPort, eventually, metricTotal, testInfrastructure, uniqueName } from '@hangar/testing';
import { ObjectStorage } from '../src';

const MiB = 1024 * 1024;
const PART = 5 * MiB; // the S3 minimum for every part but the last

const infra = testInfrastructure();
const bucket = uniqueName('storage-test');

function storageWith(overrides: { partSize?: number; partConcurrency?: number; endpoint?: string; metrics?: Metrics } = {}): ObjectStorage {
  return new ObjectStorage({
    endpoint: overrides.endpoint ?? infra.s3.endpoint,
    accessKey: infra.s3.accessKey,
    secretKey: infra.s3.secretKey,
    bucket,
    partSize: overrides.partSize ?? PART,
    partConcurrency: overrides.partConcurrency ?? 2,
    metrics: overrides.metrics,
  });
}

async function readAll(stream: Readable): Promise<Buffer> {
  return Buffer.concat((await stream.toArray()) as Buffer[]);
}

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** Feeds `data` in socket-sized chunks, as an HTTP request body would arrive. */
function chunked(data: Buffer, chunkSize = 64 * 1024): Readable {
  let offset = 0;
  return new Readable({
    read() {
      if (offset >= data.length) return void this.push(null);
      this.push(data.subarray(offset, offset + chunkSize));
      offset += chunkSize;
    },
  });
}

/**
 * Produces `total` bytes lazily, never holding more than one chunk: each chunk
 * is a fresh copy of a random block with a counter stamped in, so nothing
 * (compression, dedupe) can make the upload cheaper than real data.
 */
/**
 * A source of `total` bytes; `read()`: how many it has produced so far; `stalled()`: whether it
 * has stopped producing, either all given or held back because a chunk waits unread in its
 * buffer (the reader took nothing more).
 */
function generated(total: number, chunkSize = 256 * 1024): { stream: Readable; read: () => number; stalled: () => boolean } {
  const block = randomBytes(chunkSize);
  let produced = 0;
  let counter = 0;
  const stream = new Readable({
    read() {
      if (produced >= total) return void this.push(null);
      const n = Math.min(chunkSize, total - produced);
      const chunk = Buffer.from(block.subarray(0, n));
      chunk.writeUInt32BE(counter++ >>> 0, 0);
      produced += n;
      this.push(chunk);
    },
  });
  return { stream, read: () => produced, stalled: () => produced >= total || stream.readableLength >= stream.readableHighWaterMark };
}

/** Sends `before` bytes, then fails the way a dropped client connection does. */
function failingAfter(before: Buffer): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(before);
        return;
      }
      setTimeout(() => this.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })), 10);
    },
  });
}

async function incompleteUploads(client: Client, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const item of client.listIncompleteUploads(bucket, prefix, true)) keys.push((item as { key: string }).key);
  return keys;
}

describe('ObjectStorage against a real S3 server', () => {
  const storage = storageWith();

  beforeAll(async () => {
    await storage.ensureBucket();
  });

  afterAll(async () => {
    const keys: string[] = [];
    for await (const item of storage.client.listObjectsV2(bucket, '', true)) if (item.name) keys.push(item.name);
    await storage.client.removeObjects(bucket, keys);
    for (const key of await incompleteUploads(storage.client, '')) await storage.client.removeIncompleteUpload(bucket, key);
    await storage.client.removeBucket(bucket);
  });

  it('when a stream is smaller than one part, then it is stored as one plain object and reads back byte-identical', async () => {
    const data = randomBytes(300 * 1024 + 7);
    const key = uniqueName('small');

    const stored = await storage.putStream(key, chunked(data), { contentType: 'application/vnd.android.package-archive' });

    expect(stored).toEqual({ key, size: data.length });
    expect((await readAll(await storage.getStream(key))).equals(data)).toBe(true);
    const stat = await storage.client.statObject(bucket, key);
    // A multipart object's ETag ends in -<parts>; a single PUT's is a plain MD5.
    expect(stat.etag).toBe(createHash('md5').update(data).digest('hex'));
    expect(stat.metaData['content-type']).toBe('application/vnd.android.package-archive');
    expect(await incompleteUploads(storage.client, key)).toEqual([]);
  });

  it('when the stream is empty, then a zero-byte object is stored (minio 8.0.7 fails on this, our single PUT does not)', async () => {
    const key = uniqueName('empty');

    const stored = await storage.putStream(key, Readable.from([]));

    expect(stored).toEqual({ key, size: 0 });
    expect(await storage.exists(key)).toBe(true);
    expect((await readAll(await storage.getStream(key))).length).toBe(0);
  });

  it('when a stream spans several parts, then it goes up as a multipart upload and reads back identical', async () => {
    const data = randomBytes(20 * MiB + 12_345);
    const key = uniqueName('large');

    const stored = await storage.putStream(key, chunked(data));

    expect(stored.size).toBe(data.length);
    expect(sha256(await readAll(await storage.getStream(key)))).toBe(sha256(data));
    expect((await storage.client.statObject(bucket, key)).etag).toMatch(/-5$/);
    // Ranged reads (what the parsers use) see the same bytes.
    const offset = 7 * MiB + 3;
    expect((await readAll(await storage.getRange(key, offset, 1000))).equals(data.subarray(offset, offset + 1000))).toBe(true);
    expect(await incompleteUploads(storage.client, key)).toEqual([]);
  });

  it('when a stream is exactly one part long, then it is stored whole', async () => {
    const data = randomBytes(PART);
    const key = uniqueName('one-part');

    await storage.putStream(key, chunked(data));

    expect(sha256(await readAll(await storage.getStream(key)))).toBe(sha256(data));
  });

  it('when 200 MiB stream through with 5 MiB parts and 2 in flight, then memory stays bounded and the source is read only as fast as parts go up', async () => {
    const total = 200 * MiB;
    const key = uniqueName('bounded');
    const source = generated(total);
    global.gc?.();
    const base = process.memoryUsage();
    let peakRss = base.rss;
    let peakArrayBuffers = base.arrayBuffers;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakArrayBuffers = Math.max(peakArrayBuffers, now.arrayBuffers);
    }, 20);

    let stored;
    try {
      stored = await storage.putStream(key, source.stream);
    } finally {
      clearInterval(sampler);
    }

    expect(stored.size).toBe(total);
    expect((await storage.client.statObject(bucket, key)).size).toBe(total);
    // partSize × (concurrency + 1) = 15 MiB of parts, plus sockets and GC lag.
    expect((peakArrayBuffers - base.arrayBuffers) / MiB).toBeLessThan(120);
    expect((peakRss - base.rss) / MiB).toBeLessThan(120);
    await storage.delete(key);
  }, 60_000);

  it('when S3 is slower than the source, then the next part is read while a part uploads and never more than partConcurrency are in flight', async () => {
    const slow = storageWith({ partConcurrency: 1 });
    const key = uniqueName('overlap');
    const source = generated(4 * PART + 100);
    const readWhenPartDone: number[] = [];
    let inFlight = 0;
    let peakInFlight = 0;
    const upload = slow.partClient.uploadPart.bind(slow.partClient);
    jest.spyOn(slow.partClient, 'uploadPart').mockImplementation(async (config, payload) => {
      peakInFlight = Math.max(peakInFlight, ++inFlight);
      try {
        // S3 slower than the source: the part goes up only once the source has stopped, having
        // given all the uploader reads ahead — one part more, below; an uploader that read
        // nothing ahead would have given one part by then, one that read without bound all.
        await eventually(() => source.stalled(), { timeoutMs: 10_000, what: 'the source to stop' });
        return await upload(config, payload);
      } finally {
        inFlight--;
        readWhenPartDone.push(source.read());
      }
    });

    await slow.putStream(key, source.stream);

    expect(peakInFlight).toBe(1);
    // Part 2 was filled from the source while part 1 went up…
    expect(readWhenPartDone[0]).toBeGreaterThanOrEqual(2 * PART);
    // …but not part 3: one part uploading plus one filling is the whole buffer.
    expect(readWhenPartDone[0]).toBeLessThan(3 * PART);
    expect((await slow.client.statObject(bucket, key)).size).toBe(4 * PART + 100);
  });

  it('when the stream passes maxBytes, then PayloadTooLarge is raised and neither object nor open multipart upload remains', async () => {
    const key = uniqueName('too-large');
    // Past two parts, so the multipart upload has started when the limit trips.
    const data = randomBytes(14 * MiB);

    const put = storage.putStream(key, chunked(data), { maxBytes: 12 * MiB });

    await expect(put).rejects.toBeInstanceOf(PayloadTooLarge);
    await expect(put).rejects.toMatchObject({ code: 'payload_too_large' });
    expect(await storage.exists(key)).toBe(false);
    expect(await incompleteUploads(storage.client, key)).toEqual([]);
  });

  it('when a small stream passes maxBytes before a part fills, then PayloadTooLarge is raised and nothing is stored', async () => {
    const key = uniqueName('too-large-small');

    await expect(storage.putStream(key, chunked(randomBytes(2000), 500), { maxBytes: 1200 })).rejects.toBeInstanceOf(PayloadTooLarge);

    expect(await storage.exists(key)).toBe(false);
  });

  it('when the source fails mid-way (client gone), then the upload rejects with that failure and leaves nothing behind', async () => {
    const key = uniqueName('disconnect');

    const put = storage.putStream(key, failingAfter(randomBytes(12 * MiB)));

    await expect(put).rejects.toThrow('aborted');
    // The client went away: storage itself is fine and must not be reported down.
    await expect(put).rejects.not.toBeInstanceOf(Unavailable);
    expect(await storage.exists(key)).toBe(false);
    expect(await incompleteUploads(storage.client, key)).toEqual([]);
  });

  it('when a presigned URL is fetched, then it serves the bytes with a Content-Disposition naming the file', async () => {
    const data = randomBytes(4096);
    const key = uniqueName('presigned');
    await storage.putBuffer(key, data);

    const url = await storage.presignedGetUrl(key, 60, { fileName: 'Hangar Demo 1.2.apk', contentType: 'application/vnd.android.package-archive' });
    const response = await fetch(url);

    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(data)).toBe(true);
    expect(response.headers.get('content-disposition')).toContain('filename="Hangar Demo 1.2.apk"');
    expect(response.headers.get('content-type')).toBe('application/vnd.android.package-archive');
  });

  it('when a presigned URL has expired, then it is refused', async () => {
    const key = uniqueName('expiring');
    await storage.putBuffer(key, Buffer.from('soon gone'));

    // The same 1 s URL, signed now and signed 10 s ago: S3 judges its expiry from the signing
    // time in it, so the second has run out without the test waiting for it to.
    const url = await storage.presignedGetUrl(key, 1);
    expect((await fetch(url)).status).toBe(200);
    const late = await fetch(await storage.presignedGetUrl(key, 1, { signedAt: new Date(Date.now() - 10_000) }));

    expect(late.status).toBe(403);
    await late.arrayBuffer();
  });

  it('when an object is deleted, then it no longer exists and deleting it again succeeds', async () => {
    const key = uniqueName('delete');
    await storage.putBuffer(key, Buffer.from('x'));
    expect(await storage.exists(key)).toBe(true);

    await storage.delete(key);

    expect(await storage.exists(key)).toBe(false);
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it('when the endpoint is unreachable, then every call fails fast with Unavailable', async () => {
    const down = storageWith({ endpoint: `http://127.0.0.1:${await closedPort()}` });
    const started = Date.now();

    for (const call of [
      () => down.putStream(uniqueName('down'), chunked(randomBytes(1000))),
      () => down.putStream(uniqueName('down'), chunked(randomBytes(6 * MiB))),
      () => down.putBuffer('k', Buffer.from('x')),
      () => down.getStream('k'),
      () => down.exists('k'),
      () => down.delete('k'),
      () => down.ensureBucket(),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'unavailable' });
    }
    await expect(down.exists('k')).rejects.toBeInstanceOf(Unavailable);
    expect(await down.ping()).toBe(false);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('when storage fails, then hangar_storage_errors_total counts it by operation; a missing object or an over-size upload is not a storage error', async () => {
    const metrics = new Metrics({ defaultMetrics: false });
    const down = storageWith({ endpoint: `http://127.0.0.1:${await closedPort()}`, metrics });
    await expect(down.putBuffer('k', Buffer.from('x'))).rejects.toBeInstanceOf(Unavailable);
    await expect(down.getStream('k')).rejects.toBeInstanceOf(Unavailable);
    await expect(down.exists('k')).rejects.toBeInstanceOf(Unavailable);
    expect(await metricTotal(metrics, 'hangar_storage_errors_total', { operation: 'putBuffer' })).toBe(1);
    expect(await metricTotal(metrics, 'hangar_storage_errors_total', { operation: 'getStream' })).toBe(1);
    expect(await metricTotal(metrics, 'hangar_storage_errors_total')).toBe(3);

    const healthy = new Metrics({ defaultMetrics: false });
    const up = storageWith({ metrics: healthy });
    await expect(up.getStream(uniqueName('missing'))).rejects.toBeDefined();
    await expect(up.openRangeSource(uniqueName('missing'))).rejects.toBeDefined();
    expect(await up.exists(uniqueName('missing'))).toBe(false);
    await expect(up.putStream(uniqueName('big'), chunked(randomBytes(2000)), { maxBytes: 1000 })).rejects.toBeInstanceOf(PayloadTooLarge);
    expect(await metricTotal(healthy, 'hangar_storage_errors_total')).toBe(0);
  });

  it('when the endpoint is named localhost and unreachable, then calls still fail with Unavailable', async () => {
    const down = storageWith({ endpoint: `http://localhost:${await closedPort()}` });

    await expect(down.exists('k')).rejects.toBeInstanceOf(Unavailable);
  });
});

/** A proxy in front of the real S3 server that notes how each request's body was signed. */
async function signatureRecordingProxy(target: string): Promise<{ endpoint: string; parts: string[]; others: string[]; close: () => Promise<void> }> {
  const parts: string[] = [];
  const others: string[] = [];
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    (/[?&]partNumber=/.test(req.url ?? '') ? parts : others).push(String(req.headers['x-amz-content-sha256']));
    const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { endpoint: `http://127.0.0.1:${port}`, parts, others, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * Parts are not hashed a second time just to be signed: over plain http the minio
 * client put each part's SHA-256 into its signature, one more pass over every uploaded byte.
 */
describe('how parts are signed', () => {
  const signingBucket = uniqueName('storage-signing');
  const through = (endpoint: string, unsignedParts?: boolean) =>
    new ObjectStorage({ ...infra.s3, endpoint, bucket: signingBucket, partSize: PART, ...(unsignedParts === undefined ? {} : { unsignedParts }) });

  afterAll(async () => {
    const storage = through(infra.s3.endpoint);
    for (const key of ['signing/streamed', 'signing/parts', 'signing/signed']) await storage.delete(key);
    await storage.client.removeBucket(signingBucket);
  });

  it('when parts go up (streamed or one by one), then they are signed UNSIGNED-PAYLOAD, S3 accepts them and the object reads back identical', async () => {
    const proxy = await signatureRecordingProxy(infra.s3.endpoint);
    try {
      const storage = through(proxy.endpoint);
      await storage.ensureBucket();
      const data = randomBytes(2 * PART + 1234);
      await storage.putStream('signing/streamed', chunked(data));
      expect(sha256(await readAll(await storage.getStream('signing/streamed')))).toBe(sha256(data));

      const uploadId = await storage.beginMultipart('signing/parts');
      const first = await storage.uploadPart('signing/parts', uploadId, 1, data.subarray(0, PART));
      const second = await storage.uploadPart('signing/parts', uploadId, 2, data.subarray(PART));
      await storage.completeMultipart('signing/parts', uploadId, [first, second]);
      expect(sha256(await readAll(await storage.getStream('signing/parts')))).toBe(sha256(data));

      expect(proxy.parts.length).toBe(5);
      expect(new Set(proxy.parts)).toEqual(new Set(['UNSIGNED-PAYLOAD']));
      // Everything else is still signed with its body's hash.
      expect(proxy.others.filter((value) => value === 'UNSIGNED-PAYLOAD')).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('when unsigned parts are turned off, then each part is signed with its SHA-256', async () => {
    const proxy = await signatureRecordingProxy(infra.s3.endpoint);
    try {
      const storage = through(proxy.endpoint, false);
      await storage.ensureBucket();
      const data = randomBytes(PART + 10);
      await storage.putStream('signing/signed', chunked(data));
      expect(sha256(await readAll(await storage.getStream('signing/signed')))).toBe(sha256(data));
      expect(proxy.parts).toEqual([sha256(data.subarray(0, PART)), sha256(data.subarray(PART))]);
    } finally {
      await proxy.close();
    }
  });
});
