import { Writable } from 'node:stream';
import { connectEventBus, EventBus } from '@hangar/events';
import { createLogger } from '@hangar/logger';
import { testInfrastructure, uniqueName } from '@hangar/testing';
import { UploadGroup, UploadRecords } from '../src/uploads/upload-records';

/**
 * The places of a parallel upload's file, claimed in real NATS KV: two uploads of one caller that
 * share a `parallel_upload` name never both get one place (both would write its S3 part numbers).
 */
describe('gateway: claiming a place in a parallel upload', () => {
  const infra = testInfrastructure();
  const logger = createLogger({ service: 'place-claims-test', level: 'warn', destination: new Writable({ write: (_c, _e, d) => d() }) });
  let bus: EventBus;
  let records: UploadRecords;
  const group = (objectKey: string): UploadGroup => ({ key: 'group.7.abc', ownerId: 7, purpose: 'package', size: 100, objectKey, multipartId: 'm', expiresAt: Date.now() + 60_000 });

  beforeAll(async () => {
    bus = await connectEventBus(infra.natsUrl, 'place-claims-test', logger);
    records = await UploadRecords.open(bus.nc, uniqueName('places'), 60_000);
  });
  afterAll(async () => {
    await bus?.nc.drain();
  });

  it('when two uploads ask for one place, then the first keeps it, asking again included, and the second is refused', async () => {
    const file = group('packages/one');
    expect(await records.claimPlace(file, 3, 'first')).toBe(true);
    expect(await records.claimPlace(file, 3, 'first')).toBe(true);
    expect(await records.claimPlace(file, 3, 'second')).toBe(false);
    // Other places of the same file are free.
    expect(await records.claimPlace(file, 4, 'second')).toBe(true);
  });

  it('when a later group takes the same name (the first joined or expired), then its places start free', async () => {
    expect(await records.claimPlace(group('packages/earlier'), 1, 'earlier')).toBe(true);
    expect(await records.claimPlace(group('packages/later'), 1, 'later')).toBe(true);
  });

  it('when many requests race for one place, then exactly one wins', async () => {
    const file = group('packages/raced');
    const won = await Promise.all(Array.from({ length: 10 }, (_, i) => records.claimPlace(file, 9, `upload-${i}`)));
    expect(won.filter(Boolean)).toHaveLength(1);
  });
});
