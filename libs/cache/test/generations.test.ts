import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect } from '@nats-io/transport-node';
import { freePort, natsServerBinary } from '@hangar/infra';
import { eventually, eventuallyValue, testInfrastructure, uniqueName } from '@hangar/testing';
import { openGenerations } from '../src/generations';

describe('generations in NATS KV', () => {
  it('when a key is bumped on one connection, then another connection reads the new generation at once', async () => {
    const { natsUrl } = testInfrastructure();
    const prefix = uniqueName('gen');
    const [writerConn, readerConn] = await Promise.all([connect({ servers: natsUrl }), connect({ servers: natsUrl })]);
    try {
      const writer = await openGenerations(writerConn, prefix);
      const reader = await openGenerations(readerConn, prefix);
      expect(await reader.read(['users', 'releases.7'])).toEqual([0, 0]);
      for (let i = 0; i < 20; i++) {
        const [before] = await reader.read(['releases.7']);
        await writer.bump(['releases.7']);
        const [after] = await reader.read(['releases.7']);
        expect(after).toBeGreaterThan(before!);
      }
      expect(await reader.read(['users'])).toEqual([0]);
    } finally {
      await Promise.all([writerConn.close(), readerConn.close()]);
    }
  });
});

describe('generations from a NATS server that does not answer', () => {
  it('when the server is cut off (its socket open, silent), then a read gives up within its bound, and answers again once it is back', async () => {
    const port = await freePort();
    const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-generations-'));
    const server = spawn(natsServerBinary(), ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: 'ignore' });
    const conn = await eventuallyValue(() => connect({ servers: `nats://127.0.0.1:${port}` }).catch(() => undefined), (c) => c !== undefined, { what: 'nats-server answering', timeoutMs: 15_000 });
    try {
      const generations = await openGenerations(conn!, uniqueName('gen'), 300);
      expect(await generations.read(['users'])).toEqual([0]);
      server.kill('SIGSTOP');
      // A signal is delivered asynchronously: read only once the server is stopped (state T),
      // or a request sent at once may still be answered (seen once in CI).
      await eventually(() => fs.readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1]?.startsWith('T') === true, { what: 'nats-server stopped' });
      const started = Date.now();
      // Without the bound the read waits nats.js's request timeout (5 s), past a gRPC deadline.
      await expect(generations.read(['users'])).rejects.toThrow(/not read in 300 ms/);
      expect(Date.now() - started).toBeLessThan(2_000);
      server.kill('SIGCONT');
      await eventually(async () => (await generations.read(['users']).catch(() => undefined))?.[0] === 0, { what: 'reads answered again' });
    } finally {
      server.kill('SIGCONT');
      await conn?.close().catch(() => undefined);
      server.kill('SIGTERM');
      fs.rmSync(storeDir, { recursive: true, force: true });
    }
  });
});
