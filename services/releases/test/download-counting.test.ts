import { Writable } from 'node:stream';
import type { Connection } from 'mongoose';
import { EventBus, EVENT_REGISTRY, connectEventBus, createEnvelope, downloadStreamName, downloadSubject } from '@hangar/events';
import { createLogger } from '@hangar/logger';
import { connectMongo, syncIndexes } from '@hangar/mongo';
import { eventually, testInfrastructure, uniqueName } from '@hangar/testing';
import { downloadStatsModels, DownloadStatsModels } from '../src/data/download-stats.model';
import { DownloadStatsRepository, ReleaseOwner } from '../src/data/download-stats.repository';
import { CountedMessage, RecordDownloadsDeps, flushDownloadNotices, pruneOldClaims, recordDownloads } from '../src/domain/record-downloads';
import { RunningDownloadsConsumer, startDownloadsConsumer } from '../src/events/downloads.consumer';

/**
 * Download counting against real FerretDB and NATS JetStream: the
 * aggregation (storms, unique clients per day, redelivery, the minute's
 * release.downloaded) and the durable consumer (messages published while it
 * is down are counted when it comes back, each once).
 */
describe('releases: downloads counted', () => {
  const infra = testInfrastructure();
  const prefix = uniqueName('dl-ct');
  const logger = createLogger({ service: 'downloads-test', level: 'warn', destination: new Writable({ write: (c, _e, d) => (process.env.DEBUG_LOGS && process.stderr.write(c), d()) }) });
  let connection: Connection;
  let models: DownloadStatsModels;
  let stats: DownloadStatsRepository;
  let bus: EventBus;
  let releaseIds = 70_000;
  const owners = new Map<number, ReleaseOwner>();

  beforeAll(async () => {
    connection = await connectMongo({ url: infra.mongoUrl, dbName: `${prefix.replace(/-/g, '_')}_releases`, logger, queryLogDir: process.env.HANGAR_QUERY_LOG_DIR });
    models = downloadStatsModels(connection);
    await syncIndexes(connection);
    stats = new DownloadStatsRepository(models);
    bus = await connectEventBus(infra.natsUrl, 'downloads-test', logger);
  });

  afterAll(async () => {
    await bus?.nc.drain();
    await connection?.dropDatabase().catch(() => undefined);
    await connection?.close();
  });

  function newRelease(): ReleaseOwner {
    const releaseId = (releaseIds += 1);
    const owner = { releaseId, appId: 1, schemeId: 2, channelId: 3 };
    owners.set(releaseId, owner);
    return owner;
  }

  function deps(overrides: Partial<RecordDownloadsDeps> = {}): RecordDownloadsDeps & { bumped: number[]; poked: number } {
    const record = {
      bumped: [] as number[],
      poked: 0,
      stats,
      ownerOf: async (id: number) => owners.get(id) ?? null,
      onCountsChanged: async (channelIds: number[]) => {
        record.bumped.push(...channelIds);
      },
      onEventsRecorded: () => {
        record.poked += 1;
      },
      noticeIntervalMs: 60_000,
      ...overrides,
    };
    return record;
  }

  let seq = 0;
  /** A message of one download. */
  const message = (releaseId: number, client: string, at = Date.parse('2026-11-20T10:00:00Z'), n = 1): CountedMessage => ({
    id: `domain-test:${(seq += 1)}`,
    tallies: [{ r: releaseId, c: client, t: at, n }],
  });
  /** A message as a gateway sends it: several tallies, of several releases and clients. */
  const tallies = (...of: [releaseId: number, client: string, n: number][]): CountedMessage => ({
    id: `domain-test:${(seq += 1)}`,
    tallies: of.map(([r, c, n]) => ({ r, c, t: Date.parse('2026-11-20T10:00:00Z'), n })),
  });

  const totalOf = async (releaseId: number) => (await models.totals.findOne({ _id: releaseId }).lean())!;
  const daysOf = async (releaseId: number) => (await stats.daysOfRelease(releaseId)).sort((a, b) => a.day.localeCompare(b.day));

  it('when one client downloads a build 10,000 times, then it counts 10,000 downloads and one unique client', async () => {
    const { releaseId } = newRelease();
    const d = deps();
    const storm = Array.from({ length: 10_000 }, () => message(releaseId, 'same-client-hash'));
    for (let i = 0; i < storm.length; i += 1000) await recordDownloads(d, storm.slice(i, i + 1000));

    expect(await daysOf(releaseId)).toEqual([expect.objectContaining({ day: '2026-11-20', total: 10_000, unique: 1 })]);
    expect((await totalOf(releaseId)).total).toBe(10_000);
    expect(d.bumped).toContain(3);
  });

  it('when clients download on two days, then unique clients are counted per day and a client counts again on a new day', async () => {
    const { releaseId } = newRelease();
    const day1 = Date.parse('2026-11-20T23:59:00Z');
    const day2 = Date.parse('2026-11-21T00:01:00Z');
    await recordDownloads(deps(), [message(releaseId, 'a', day1), message(releaseId, 'b', day1), message(releaseId, 'a', day1), message(releaseId, 'a', day2)]);
    await recordDownloads(deps(), [message(releaseId, 'b', day1), message(releaseId, 'c', day2)]);

    expect(await daysOf(releaseId)).toEqual([
      expect.objectContaining({ day: '2026-11-20', total: 4, unique: 2 }),
      expect.objectContaining({ day: '2026-11-21', total: 2, unique: 2 }),
    ]);
    expect((await totalOf(releaseId)).total).toBe(6);
  });

  it('when thousands of new clients download, then one document per release and day holds them, exact to 4,096 and estimated past it, redeliveries adding nothing', async () => {
    const { releaseId } = newRelease();
    const sketchesBefore = await models.uniques.estimatedDocumentCount();
    const clientsOf = (from: number, count: number) => Array.from({ length: count }, (_, i) => message(releaseId, `new-client-${from + i}`));
    const first = clientsOf(0, 4_000);
    for (let i = 0; i < first.length; i += 1000) await recordDownloads(deps(), first.slice(i, i + 1000));
    expect(await daysOf(releaseId)).toEqual([expect.objectContaining({ total: 4_000, unique: 4_000 })]);

    const more = clientsOf(4_000, 6_000);
    for (let i = 0; i < more.length; i += 1000) await recordDownloads(deps(), more.slice(i, i + 1000));
    await recordDownloads(deps(), more.slice(0, 1000)); // redelivered: neither total nor unique moves
    const [day] = await daysOf(releaseId);
    expect(day!.total).toBe(10_000);
    expect(Math.abs(day!.unique - 10_000) / 10_000).toBeLessThan(0.025);

    expect(await models.uniques.estimatedDocumentCount()).toBe(sketchesBefore + 1);
    const stored = await models.uniques.findOne({ _id: `${releaseId}:2026-11-20` }).lean();
    expect(Buffer.from((stored!.sketch as unknown as { value(): Uint8Array }).value()).length).toBeLessThanOrEqual(16_385);
  });

  it('when an installation counted a row per client before, then starting drops that collection and counting goes on', async () => {
    await connection.db!.collection('download_clients').insertOne({ _id: 'legacy' as never, day: '2026-11-20' });
    await stats.dropClientClaims();
    await stats.dropClientClaims(); // a second replica starting at once
    expect(await connection.db!.listCollections({ name: 'download_clients' }).toArray()).toEqual([]);
    const { releaseId } = newRelease();
    await recordDownloads(deps(), [message(releaseId, 'after-upgrade')]);
    expect(await daysOf(releaseId)).toEqual([expect.objectContaining({ total: 1, unique: 1 })]);
  });

  it('when a batch is delivered again after newer ones were counted (a redelivery after a crash), then nothing is counted twice', async () => {
    const { releaseId } = newRelease();
    const first = [message(releaseId, 'x'), message(releaseId, 'y'), message(releaseId, 'x')];
    await recordDownloads(deps(), first);
    await recordDownloads(deps(), [message(releaseId, 'z')]);
    await recordDownloads(deps(), first);
    await recordDownloads(deps(), [...first, message(releaseId, 'w')]);

    expect(await daysOf(releaseId)).toEqual([expect.objectContaining({ total: 5, unique: 4 })]);
    expect((await totalOf(releaseId)).total).toBe(5);
  });

  it('when counting fails part-way, then the releases not reached give their claims back and are counted by the redelivery', async () => {
    const a = newRelease();
    const b = newRelease();
    const batch = [message(a.releaseId, 'p'), message(b.releaseId, 'q'), message(b.releaseId, 'r')];
    let calls = 0;
    const failing = deps({
      ownerOf: async (id) => {
        calls += 1;
        if (calls === 1) throw new Error('apps unreachable');
        return owners.get(id) ?? null;
      },
    });
    await expect(recordDownloads(failing, batch)).rejects.toThrow('apps unreachable');
    await recordDownloads(deps(), batch);

    expect((await totalOf(b.releaseId)).total).toBe(2);
  });

  it('when a gateway\'s message adds up downloads of several releases and clients, then each release counts its sums once, redelivered or not', async () => {
    const a = newRelease();
    const b = newRelease();
    const sums = tallies([a.releaseId, 'client-1', 700], [a.releaseId, 'client-2', 3], [b.releaseId, 'client-1', 40]);
    await recordDownloads(deps(), [sums, message(a.releaseId, 'client-1', undefined, 7)]);
    await recordDownloads(deps(), [sums]); // redelivered

    expect((await totalOf(a.releaseId)).total).toBe(710);
    expect(await daysOf(a.releaseId)).toEqual([expect.objectContaining({ total: 710, unique: 2 })]);
    expect((await totalOf(b.releaseId)).total).toBe(40);
    expect(await daysOf(b.releaseId)).toEqual([expect.objectContaining({ total: 40, unique: 1 })]);
  });

  it('when counting fails at a release that shares a message with others, then that message keeps its claim and a message of releases not reached is counted on redelivery', async () => {
    const a = newRelease();
    const b = newRelease();
    const c = newRelease();
    const shared = tallies([a.releaseId, 'p', 2], [b.releaseId, 'q', 3]);
    const later = tallies([c.releaseId, 'r', 4]);
    let calls = 0;
    const failing = deps({
      ownerOf: async (id) => {
        calls += 1;
        if (calls === 2) throw new Error('apps unreachable'); // at b, after a was counted
        return owners.get(id) ?? null;
      },
    });
    await expect(recordDownloads(failing, [shared, later])).rejects.toThrow('apps unreachable');
    await recordDownloads(deps(), [shared, later]);

    expect((await totalOf(a.releaseId)).total).toBe(2); // never twice
    expect(await models.totals.findOne({ _id: b.releaseId }).lean()).toBeNull(); // at worst not at all
    expect((await totalOf(c.releaseId)).total).toBe(4);
  });

  it('when claims and distinct clients are older than the stream keeps messages, then they are forgotten, and younger ones kept', async () => {
    const { releaseId } = newRelease();
    const now = Date.parse('2026-11-30T12:00:00Z');
    const old = message(releaseId, 'old-client', now - 10 * 86_400_000);
    const recent = message(releaseId, 'recent-client', now - 2 * 86_400_000);
    await recordDownloads(deps(), [old, recent]);
    await pruneOldClaims(stats, now);
    expect(await models.claims.findOne({ _id: old.id }).lean()).toBeNull();
    expect(await models.uniques.findOne({ _id: `${releaseId}:2026-11-20` }).lean()).toBeNull();
    expect(await models.claims.findOne({ _id: recent.id }).lean()).not.toBeNull();
    expect(await models.uniques.findOne({ _id: `${releaseId}:2026-11-28` }).lean()).not.toBeNull();
    expect((await totalOf(releaseId)).total).toBe(2); // counts stay
  });

  it('when downloads of a release that is gone arrive, then they are dropped', async () => {
    await recordDownloads(deps(), [message(999_999, 'x')]);
    expect(await models.totals.findOne({ _id: 999_999 }).lean()).toBeNull();
  });

  it('when downloads keep coming, then release.downloaded is made at most once a minute per release, carrying the count since the last', async () => {
    const { releaseId } = newRelease();
    let now = Date.parse('2026-11-20T10:00:00Z');
    const d = deps({ now: () => now });

    await recordDownloads(d, [message(releaseId, 'a'), message(releaseId, 'b')]);
    now += 10_000;
    await recordDownloads(d, [message(releaseId, 'c')]);
    now += 10_000;
    await recordDownloads(d, [message(releaseId, 'd'), message(releaseId, 'e')]);
    expect(await flushDownloadNotices(d)).toBe(0); // the last one is 20 s old
    now += 45_000;
    expect(await flushDownloadNotices(d)).toBe(1);
    expect(await flushDownloadNotices(d)).toBe(0); // nothing since

    const total = await totalOf(releaseId);
    expect(total.outbox).toHaveLength(2);
    const data = total.outbox.map((entry) => (JSON.parse(entry.payload) as { data: unknown }).data);
    expect(data).toEqual([
      { release_id: releaseId, app_id: 1, scheme_id: 2, channel_id: 3, count: 2, total: 2 },
      { release_id: releaseId, app_id: 1, scheme_id: 2, channel_id: 3, count: 3, total: 5 },
    ]);
    expect(total.outbox.map((entry) => entry.type)).toEqual(['release.downloaded', 'release.downloaded']);
    expect(() => EVENT_REGISTRY['release.downloaded'].schema.parse(data[1])).not.toThrow();
    expect(d.poked).toBe(2);
  });

  it('when two replicas flush the same release from the same reading, then one release.downloaded is made', async () => {
    const { releaseId } = newRelease();
    let now = Date.parse('2026-11-20T10:00:00Z');
    const d = deps({ now: () => now });
    await recordDownloads(d, [message(releaseId, 'a')]);
    now += 5_000;
    await recordDownloads(d, [message(releaseId, 'b')]);
    const reading = (await stats.dirtyTotals()).find((t) => t._id === releaseId)!;
    const event = () => createEnvelope('release.downloaded', { release_id: releaseId, app_id: 1, scheme_id: 2, channel_id: 3, count: 1, total: 2 }, 'releases');
    // One after the other: FerretDB's compare-and-set is not atomic under true concurrency
    // (docs/decisions.md); MongoDB 7's is, and the condition is what this checks.
    const made = [await stats.markNotified(reading, event(), new Date(now)), await stats.markNotified(reading, event(), new Date(now))];
    expect(made.filter(Boolean)).toHaveLength(1);
    expect((await totalOf(releaseId)).outbox).toHaveLength(2); // the first download's, and one for the second
  });

  describe('the durable consumer', () => {
    let consumer: RunningDownloadsConsumer | undefined;
    afterEach(async () => {
      await consumer?.stop();
      consumer = undefined;
    });

    // Every message this file sends to the downloads stream (its prefix is this file's alone).
    let sent = 0;
    const send = (text: string) => {
      bus.nc.publish(downloadSubject(prefix), text);
      sent += 1;
    };
    const publish = (releaseId: number, client: string, n: number) => {
      for (let i = 0; i < n; i += 1) send(JSON.stringify({ r: releaseId, c: client, t: Date.now(), k: 'download' }));
      return bus.nc.flush();
    };

    const until = (check: () => Promise<boolean>, timeoutMs = 60_000) => eventually(check, { timeoutMs, stepMs: 100, what: 'the downloads to be counted' });

    /**
     * Waits until the stream holds every message sent and the durable has acked or terminated
     * each (ack floor past them all, none pending): the count is final then. A message is acked
     * only once its downloads are recorded, and an acked one is never delivered again, so a
     * total read after this cannot grow by a second count of anything.
     */
    async function drained(): Promise<void> {
      const stream = downloadStreamName(prefix);
      const state = async () => ({ stream: (await bus.jsm.streams.info(stream)).state, consumer: await bus.jsm.consumers.info(stream, 'releases-downloads') });
      await eventually(
        async () => {
          const { stream: held, consumer: durable } = await state();
          return held.last_seq >= sent && durable.num_pending === 0 && durable.num_ack_pending === 0 && durable.ack_floor.stream_seq >= sent;
        },
        { timeoutMs: 30_000, what: `the durable to settle all ${sent} messages`, explain: async () => JSON.stringify(await state()) },
      );
    }

    it('when downloads are published while the service is down, then it counts each of them once when it starts, and more after a restart', async () => {
      const start = () => startDownloadsConsumer(deps(), { bus, prefix, logger, batchSize: 500 });
      // The stream exists once the service has started once.
      consumer = await start();
      await consumer.stop();
      consumer = undefined;

      const { releaseId } = newRelease();
      await publish(releaseId, 'storm-client', 2_000);
      send('not json'); // terminated, never blocks the rest
      await publish(releaseId, 'another-client', 3);
      consumer = await start();
      await until(async () => ((await models.totals.findOne({ _id: releaseId }).lean())?.total ?? 0) >= 2_003);

      await consumer.stop();
      consumer = undefined;
      await publish(releaseId, 'storm-client', 500);
      consumer = await start();
      await until(async () => ((await models.totals.findOne({ _id: releaseId }).lean())?.total ?? 0) >= 2_503);
      await drained();

      expect((await totalOf(releaseId)).total).toBe(2_503);
      const days = await daysOf(releaseId);
      expect(days.reduce((s, d) => s + d.total, 0)).toBe(2_503);
      // Two clients a day (a run across midnight UTC counts both again on the second day).
      expect(days.every((d) => d.unique === 2)).toBe(true);
    });

    it('when gateways send sums and an older gateway a message per download, then both are counted', async () => {
      consumer = await startDownloadsConsumer(deps(), { bus, prefix, logger, batchSize: 100 });
      const { releaseId } = newRelease();
      const now = Date.now();
      send(JSON.stringify({ e: [{ r: releaseId, c: 'summed-client-1', t: now, n: 1_500 }, { r: releaseId, c: 'summed-client-2', t: now, n: 2 }] }));
      send(JSON.stringify({ e: [] })); // malformed: no tallies — terminated
      await publish(releaseId, 'summed-client-1', 3);
      await until(async () => ((await models.totals.findOne({ _id: releaseId }).lean())?.total ?? 0) >= 1_505, 30_000);
      await drained();

      expect((await totalOf(releaseId)).total).toBe(1_505);
      expect((await daysOf(releaseId)).reduce((s, d) => s + d.unique, 0)).toBeGreaterThanOrEqual(2);
    });

    it('when two replicas count at once, then each download is counted once', async () => {
      // Two processes: each its own connection, as two releases replicas have.
      const otherBus = await connectEventBus(infra.natsUrl, 'downloads-test-2', logger);
      const second = await startDownloadsConsumer(deps(), { bus: otherBus, prefix, logger, batchSize: 20 });
      consumer = await startDownloadsConsumer(deps(), { bus, prefix, logger, batchSize: 20 });
      try {
        // New releases, each a burst of 40 at once: both replicas' waiting fetches get part of it,
        // and their first counts of a release meet (the case the end-to-end suite with two replicas hit).
        const releases = Array.from({ length: 8 }, () => newRelease().releaseId);
        // Each burst settled before the next is sent: every burst meets both replicas waiting.
        for (const releaseId of releases) {
          await publish(releaseId, 'client-a', 20);
          await publish(releaseId, 'client-b', 20);
          await drained();
        }
        const counted = async () => Promise.all(releases.map(async (id) => (await models.totals.findOne({ _id: id }).lean())?.total ?? 0));
        expect(await counted()).toEqual(releases.map(() => 40));
        for (const id of releases) expect((await daysOf(id)).reduce((sum, d) => sum + d.total, 0)).toBe(40);
      } finally {
        await second.stop();
        await otherBus.nc.drain();
      }
    });
  });
});
