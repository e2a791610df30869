import { Writable } from 'node:stream';
import { connectEventBus, EventBus } from '@hangar/events';
import { createLogger } from '@hangar/logger';
import { eventually, testInfrastructure, uniqueName } from '@hangar/testing';
import { UploadRecord, UploadRecords } from '../src/uploads/upload-records';
import { WriterClaim } from '../src/uploads/writer-claim';

/** A request's claim on an upload record in real NATS KV: its beats never make its final write fail. */
describe('gateway: the writer claim of a resumable upload', () => {
  const infra = testInfrastructure();
  const logger = createLogger({ service: 'writer-claim-test', level: 'warn', destination: new Writable({ write: (_c, _e, d) => d() }) });
  let bus: EventBus;
  let records: UploadRecords;

  const record = (id: string): UploadRecord => ({
    id, ownerId: 1, purpose: 'package', channelKey: '', fileName: 'x', length: 10, offset: 0, objectKey: `packages/${id}`, parts: [], createdAt: Date.now(), expiresAt: Date.now() + 60_000,
    writer: { token: 'mine', beatAt: Date.now() },
  });

  beforeAll(async () => {
    bus = await connectEventBus(infra.natsUrl, 'writer-claim-test', logger);
    records = await UploadRecords.open(bus.nc, uniqueName('claims'), 60_000);
  });
  afterAll(async () => {
    await bus?.nc.drain();
  });

  it('when the claim beats many times while the body streams, then its final write still lands, clearing the writer', async () => {
    const created = await records.create(record(uniqueName('u')));
    const claim = new WriterClaim(records, created, Date.now);
    claim.startBeating(2);
    // Five beats stored: each one a new revision of the record.
    await eventually(async () => ((await records.get(created.record.id))?.revision ?? 0) >= created.revision + 5, { what: 'five beats' });
    const done = await claim.finish((current) => ({ ...current, offset: 10 }));
    expect(done?.record.offset).toBe(10);
    expect(done?.record.writer).toBeUndefined();
    const stored = await records.get(claim.record.id);
    expect(stored?.record.offset).toBe(10);
  });

  it('when the record moved under the claim without naming it as writer, then the final write is refused', async () => {
    const created = await records.create(record(uniqueName('u')));
    const claim = new WriterClaim(records, created, Date.now);
    await records.replace({ ...created.record, writer: { token: 'someone else', beatAt: Date.now() } }, created.revision);
    expect(await claim.finish((current) => ({ ...current, offset: 10 }))).toBeUndefined();
    expect((await records.get(created.record.id))?.record.writer?.token).toBe('someone else');
  });

  it('when only a beat moved the record before the final write, then the write is tried again and lands', async () => {
    const created = await records.create(record(uniqueName('u')));
    const claim = new WriterClaim(records, created, Date.now);
    // Another beat of this same claim (as from a second replica's view) moved the revision.
    await records.replace({ ...created.record, writer: { token: 'mine', beatAt: Date.now() + 1 } }, created.revision);
    const done = await claim.finish((current) => ({ ...current, offset: 7 }));
    expect(done?.record.offset).toBe(7);
  });
});
