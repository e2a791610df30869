import { Writable } from 'node:stream';
import { auditEntrySchema, auditStreamName, connectEventBus, ensureAuditStream, EventBus } from '@hangar/events';
import { createLogger } from '@hangar/logger';
import { eventually, testInfrastructure, uniqueName } from '@hangar/testing';
import { auditEntryOf } from '../src/audit/audit-entry';
import { AuditPublisher } from '../src/audit/audit-publisher';

/** The gateway's side of the audit log against a real NATS: entries JetStream did not take are kept and sent later, once each. */
describe('gateway: audit entries published', () => {
  const infra = testInfrastructure();
  const prefix = uniqueName('audit-gw');
  const logger = createLogger({ service: 'audit-publisher-test', level: 'error', destination: new Writable({ write: (_c, _e, d) => d() }) });
  let bus: EventBus;

  beforeAll(async () => {
    bus = await connectEventBus(infra.natsUrl, 'audit-publisher-test', logger);
  });
  afterAll(async () => {
    await bus?.jsm.streams.delete(auditStreamName(prefix)).catch(() => undefined);
    await bus?.nc.drain();
  });

  const entry = (n: number) =>
    auditEntryOf({ at: Date.now(), userId: n, operationId: 'deleteApp', method: 'DELETE', path: `/api/apps/${n}`, params: { id: String(n) }, body: {}, answer: undefined, address: '192.0.2.1', requestId: `r${n}`, status: 200 });

  it('when the audit stream is missing at first, then entries wait and arrive in order, once each, when it is there', async () => {
    const publisher = new AuditPublisher(bus.js, prefix, logger);
    const sent = [entry(1), entry(2), entry(3)];
    for (const e of sent) publisher.record(e);
    await publisher.flush();
    // No stream yet: nothing could be stored.
    await expect(bus.jsm.streams.info(auditStreamName(prefix))).rejects.toThrow();

    const stream = await ensureAuditStream(bus.jsm, prefix);
    await eventually(async () => (await bus.jsm.streams.info(stream)).state.messages >= 3, { what: 'the three entries in the stream' });
    // A flush after success sends nothing again.
    await publisher.flush();
    await publisher.stop();
    const info = await bus.jsm.streams.info(stream);
    expect(info.state.messages).toBe(3);
    const stored = await Promise.all([1, 2, 3].map(async (seq) => auditEntrySchema.parse(JSON.parse((await bus.jsm.streams.getMessage(stream, { seq }))!.string()))));
    expect(stored.map((e) => e.id)).toEqual(sent.map((e) => e.id));
  });
});
