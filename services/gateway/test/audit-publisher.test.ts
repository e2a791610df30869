import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import express from 'express';
import { auditEntrySchema, auditStreamName, connectEventBus, ensureAuditStream, EventBus } from '@hangar/events';
import { createLogger } from '@hangar/logger';
import { eventually, testInfrastructure, uniqueName } from '@hangar/testing';
import { auditEntryOf } from '../src/audit/audit-entry';
import { AuditPublisher } from '../src/audit/audit-publisher';
import { AuditSpool } from '../src/audit/audit-spool';
import { recordWrites } from '../src/audit/record-writes.middleware';
import { rememberCaller, rememberOperation } from '../src/http/caller-context';

/**
 * The gateway's side of the audit log against a real NATS: entries JetStream did not take are
 * kept and sent later, once each — by the next process on the same spool when this one died.
 */
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

  const spoolDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'audit-spool-'));
  const spooledIds = (dir: string) =>
    fs
      .readFileSync(path.join(dir, 'pending.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { id: string }).id);

  it('when a gateway ends with entries unsent, then the next one on the same spool sends them, once each, and the spool is emptied', async () => {
    const dir = spoolDir();
    const ownPrefix = uniqueName('audit-spool');
    // A gateway whose NATS connection is gone: nothing it records reaches JetStream.
    const doomed = await connectEventBus(infra.natsUrl, 'audit-publisher-doomed', logger);
    await doomed.nc.close();
    const first = new AuditPublisher(doomed.js, ownPrefix, logger, { spool: AuditSpool.open(dir, logger) });
    const sent = [entry(11), entry(12), entry(13)];
    for (const e of sent) first.record(e);
    await first.stop();
    expect(spooledIds(dir)).toEqual(sent.map((e) => e.id));

    // The next process, on the same folder, with NATS back.
    const stream = await ensureAuditStream(bus.jsm, ownPrefix);
    try {
      const spool = AuditSpool.open(dir, logger);
      expect(spool.pending.map((e) => e.id)).toEqual(sent.map((e) => e.id));
      const second = new AuditPublisher(bus.js, ownPrefix, logger, { nc: bus.nc, spool });
      const fresh = entry(14);
      second.record(fresh);
      await eventually(async () => (await bus.jsm.streams.info(stream)).state.messages >= 4, { what: 'the held entries and the new one in the stream' });
      await second.flush();
      expect(spooledIds(dir)).toEqual([]);
      await second.stop();
      const stored = await Promise.all([1, 2, 3, 4].map(async (seq) => auditEntrySchema.parse(JSON.parse((await bus.jsm.streams.getMessage(stream, { seq }))!.string())).id));
      expect(stored).toEqual([...sent, fresh].map((e) => e.id));
      expect((await bus.jsm.streams.info(stream)).state.messages).toBe(4);
    } finally {
      await bus.jsm.streams.delete(stream).catch(() => undefined);
    }
  });

  it('when the spool ends in a line cut by a kill, then the entries before it are sent and the cut line dropped', async () => {
    const dir = spoolDir();
    const whole = entry(21);
    fs.writeFileSync(path.join(dir, 'pending.jsonl'), `${JSON.stringify(whole)}\n${JSON.stringify(entry(22)).slice(0, 40)}`);
    const spool = AuditSpool.open(dir, logger);
    expect(spool.pending.map((e) => e.id)).toEqual([whole.id]);
    // The cut line is gone from the file too: the next entry starts a line of its own.
    const next = entry(23);
    spool.append(next);
    expect(spooledIds(dir)).toEqual([whole.id, next.id]);
    spool.close();
  });

  it('when a write is answered, then its entry is in the spool before the answer is handed to the socket', async () => {
    const dir = spoolDir();
    const doomed = await connectEventBus(infra.natsUrl, 'audit-publisher-answer', logger);
    await doomed.nc.close();
    const publisher = new AuditPublisher(doomed.js, uniqueName('audit-answer'), logger, { spool: AuditSpool.open(dir, logger) });
    let spooledWhenAnswered: string[] | undefined;
    const app = express();
    app.use(rememberCaller);
    app.use(recordWrites(publisher));
    app.delete('/api/apps/:id', (req, res) => {
      // What a declared operation's route notes first (operations/mount.ts).
      rememberOperation(req, 'deleteApp', { id: String(req.params.id) });
      res.status(200).json({ ok: true });
      // res.json has handed the answer to the socket: a gateway killed now must still have the entry.
      spooledWhenAnswered = spooledIds(dir);
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/apps/7`, { method: 'DELETE' });
      expect(res.status).toBe(200);
      expect(spooledWhenAnswered).toHaveLength(1);
      // Recorded once: the response's close (past once the server has closed) adds nothing.
      await new Promise((resolve) => server.close(resolve));
      expect(spooledIds(dir)).toEqual(spooledWhenAnswered);
    } finally {
      server.close();
      await publisher.stop();
    }
  });
});
