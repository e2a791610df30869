import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Unavailable } from '@hangar/errors';
import { EventBus, connectEventBus, ensureEventStream } from '@hangar/events';
import { createLogger } from '@hangar/logger';
import { Metrics } from '@hangar/metrics';
import { ObjectStorage } from '@hangar/storage';
import { fixturesDir, metricTotal, testInfrastructure, uniqueName } from '@hangar/testing';
import { type RunningParseWorker, requestParse, startParseWorker } from '@hangar/parse-jobs';

/** Parsing through NATS request/reply with real workers, NATS and S3. */
describe('package parsing workers', () => {
  const infra = testInfrastructure();
  const prefix = uniqueName('parse');
  const logger = createLogger({ service: 'parse-test', level: 'silent', destination: new Writable({ write: (_c, _e, d) => d() }) });
  const storage = new ObjectStorage({ ...infra.s3, bucket: uniqueName('parse-bucket') });
  let bus: EventBus;
  let worker: RunningParseWorker;

  const put = async (name: string, data: Buffer) => {
    const key = `packages/${uniqueName(name)}`;
    await storage.putBuffer(key, data);
    return key;
  };

  beforeAll(async () => {
    await storage.ensureBucket();
    bus = await connectEventBus(infra.natsUrl, 'parse-test', logger);
    // As in the service: the events stream exists and must not swallow parse requests.
    await ensureEventStream(bus.jsm, prefix);
    worker = startParseWorker({ nc: bus.nc, storage, logger, prefix, concurrency: 2 });
  });

  afterAll(async () => {
    await worker.stop();
    await bus.nc.drain();
  });

  it('when an ipa with an Apple-crushed icon is parsed, then its fields come back and the icon is stored as a PNG', async () => {
    const key = await put('ipad', fs.readFileSync(path.join(fixturesDir(), 'apps', 'ipad.ipa')));
    const reply = await requestParse(bus.nc, prefix, key, 30_000);
    if (!reply.ok) throw new Error(reply.message);
    expect(reply.parsed).toMatchObject({ platform: 'iOS', bundleId: 'com.icyleaf.bundle', releaseVersion: '1.0', buildVersion: '1', deviceType: 'iPad' });
    expect(reply.iconKey).toMatch(/^icons\/.+\.png$/);
    const icon = await storage.getRange(reply.iconKey!, 0, 8);
    const head: Buffer[] = [];
    for await (const chunk of icon) head.push(chunk as Buffer);
    expect(Buffer.concat(head).toString('hex')).toBe('89504e470d0a1a0a');
  });

  it('when several packages are parsed at once, then every answer matches its own package', async () => {
    const files = ['android.apk', 'iphone.ipa', 'tv.apk', 'wear.apk'];
    const keys = await Promise.all(files.map((f) => put(f, fs.readFileSync(path.join(fixturesDir(), 'apps', f)))));
    const replies = await Promise.all(keys.map((k) => requestParse(bus.nc, prefix, k, 30_000)));
    expect(replies.map((r) => (r.ok ? r.parsed.bundleId : r.message))).toEqual([
      'com.icyleaf.appinfodemo',
      'com.icyleaf.AppInfoDemo',
      'com.icyleaf.appinfotvdemo',
      'com.icyleaf.appinfoweardemo',
    ]);
  });

  it('when the package is truncated, then the reply says corrupt; when it is no package, unknown', async () => {
    const ipa = fs.readFileSync(path.join(fixturesDir(), 'apps', 'iphone.ipa'));
    const corrupt = await requestParse(bus.nc, prefix, await put('trunc', ipa.subarray(0, 20_000)), 30_000);
    expect(corrupt).toMatchObject({ ok: false, kind: 'corrupt' });
    const unknown = await requestParse(bus.nc, prefix, await put('text', Buffer.from('plain text')), 30_000);
    expect(unknown).toMatchObject({ ok: false, kind: 'unknown' });
  });

  it('when the object does not exist, then the reply says unavailable rather than hanging', async () => {
    const reply = await requestParse(bus.nc, prefix, 'packages/never-uploaded', 30_000);
    expect(reply).toMatchObject({ ok: false, kind: 'unavailable' });
  });

  it('when no worker listens, then the request fails fast as Unavailable', async () => {
    const started = Date.now();
    await expect(requestParse(bus.nc, uniqueName('nobody'), 'packages/x', 30_000)).rejects.toBeInstanceOf(Unavailable);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
  it('when requests outrun a worker, then hangar_package_parse_queue_depth counts those taken and not yet answered, and falls to 0 when all are', async () => {
    const metrics = new Metrics({ defaultMetrics: false });
    const ownPrefix = uniqueName('parse-queue');
    const slow = startParseWorker({ nc: bus.nc, storage, logger, prefix: ownPrefix, concurrency: 1, metrics });
    try {
      const files = ['android.apk', 'iphone.ipa', 'tv.apk', 'wear.apk'];
      const keys = await Promise.all(files.map((f) => put(f, fs.readFileSync(path.join(fixturesDir(), 'apps', f)))));
      let depthAtFirstAnswer = -1;
      const replies = keys.map((k) => requestParse(bus.nc, ownPrefix, k, 30_000));
      // One slot: when the first answer arrives, the other three have been taken and wait, or the second is being parsed.
      await Promise.race(replies);
      depthAtFirstAnswer = await metricTotal(metrics, 'hangar_package_parse_queue_depth');
      await Promise.all(replies);
      expect(depthAtFirstAnswer).toBeGreaterThanOrEqual(1);
      expect(await metricTotal(metrics, 'hangar_package_parse_queue_depth')).toBe(0);
    } finally {
      await slow.stop();
    }
  });
});
