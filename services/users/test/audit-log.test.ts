import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { PermissionDenied } from '@hangar/errors';
import { AuditEntryMessage, auditStreamName, auditSubject } from '@hangar/events';
import type { users } from '@hangar/proto';
import { eventually, testInfrastructure } from '@hangar/testing';
import { recordAuditEntry, utcDay } from '../src/domain/audit-log';
import { sweepAuditEntries } from '../src/jobs/audit-retention.job';
import { usersServiceUnderTest } from './users-service-under-test';

/** The audit log's store in the users service: fed from the audit stream, read over gRPC, pruned past retention. */
describe('audit log in the users service', () => {
  const infra = testInfrastructure();
  // The database is kept: the plan check (tests/plans) explains the queries
  // recorded here (the retention sweep's among them) on it after the suites.
  const under = usersServiceUnderTest('users-audit', { keepDatabase: true });
  const { prefix } = under;
  const DAY_MS = 24 * 3600 * 1000;

  const entry = (extra: Partial<AuditEntryMessage> = {}): AuditEntryMessage => ({
    id: randomUUID(),
    at: Date.now(),
    user_id: 7,
    token_id: 3,
    operation: 'deleteRelease',
    method: 'DELETE',
    path: '/api/releases/9',
    resource_ids: { id: '9' },
    app_id: 4,
    fields: [],
    address: '192.0.2.1',
    request_id: 'req-1',
    status: 200,
    ...extra,
  });

  it('when the gateway publishes an entry twice (a redelivery), then it is stored once', async () => {
    const nc = await connect({ servers: infra.natsUrl });
    const sent = entry({ operation: 'updateRelease', user_id: 11 });
    try {
      const js = jetstream(nc);
      // Different message ids: JetStream keeps both, so the store itself must refuse the second.
      await js.publish(auditSubject(prefix), JSON.stringify(sent), { msgID: `${sent.id}-a` });
      await js.publish(auditSubject(prefix), JSON.stringify(sent), { msgID: `${sent.id}-b` });
      const last = await js.publish(auditSubject(prefix), JSON.stringify(entry({ operation: 'updateRelease', user_id: 11 })), { msgID: randomUUID() });
      // The service's durable has acked all three (an entry is acked once stored, or once found
      // stored already): what the log holds now is all it will hold of them.
      const jsm = await jetstreamManager(nc);
      const durable = () => jsm.consumers.info(auditStreamName(prefix), 'users-audit');
      await eventually(
        async () => {
          const info = await durable();
          return info.ack_floor.stream_seq >= last.seq && info.num_ack_pending === 0;
        },
        { what: 'the audit consumer to ack all three', explain: async () => JSON.stringify(await durable()) },
      );
    } finally {
      await nc.close();
    }
    const listed: users.AuditEntryList = await under.client.listAuditEntries({ actor: under.admin, days: [utcDay(Date.now())], userId: 11, page: { page: 1, perPage: 25 } });
    expect(listed.total).toBe(2);
    expect(listed.entries.filter((e) => e.id === sent.id)).toHaveLength(1);
  });

  it('when a non-admin asks without an app, then PermissionDenied', async () => {
    await expect(under.client.listAuditEntries({ actor: { userId: 5, role: 'developer' }, days: [utcDay(Date.now())], page: { page: 1, perPage: 25 } })).rejects.toBeInstanceOf(PermissionDenied);
  });

  it('when the retention sweep runs, then entries older than the retention are removed and newer ones kept', async () => {
    const now = Date.now();
    const old = entry({ at: now - 400 * DAY_MS, user_id: 21 });
    const recent = entry({ at: now - 10 * DAY_MS, user_id: 21 });
    expect(await recordAuditEntry(under.service.deps, old)).toBe(true);
    expect(await recordAuditEntry(under.service.deps, recent)).toBe(true);
    expect(await recordAuditEntry(under.service.deps, recent)).toBe(false);
    expect(await sweepAuditEntries(under.service.deps.audit, 365, now)).toBe(1);
    const days = [utcDay(old.at), utcDay(recent.at)];
    const left = await under.client.listAuditEntries({ actor: under.admin, days, userId: 21, page: { page: 1, perPage: 25 } });
    expect(left.entries.map((e) => e.id)).toEqual([recent.id]);
  });
});
