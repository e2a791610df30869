import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Unavailable } from '@hangar/errors';
import { freePort, isListening, natsServerBinary, waitFor } from '@hangar/infra';
import { createLogger } from '@hangar/logger';
import { connectEventBus, EventBus, isDisconnected, openKvBucket } from '../src';

/**
 * A NATS server of this test's own, stopped and started again on the same port and store (the
 * suite's shared one serves other tests): while it is down, KV calls fail at once with
 * Unavailable — nats.js would hold them until its 5 s timeout — so every caller's fallback
 * (the database, this process's count, a bump retried later) answers without waiting.
 */
describe('events: KV calls while NATS is down', () => {
  const logger = createLogger({ service: 'connection-state-test', level: 'silent', destination: new Writable({ write: (_c, _e, d) => d() }) });
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-nats-down-'));
  let port = 0;
  let server: ChildProcess | undefined;
  let bus: EventBus;

  const startServer = async () => {
    server = spawn(natsServerBinary(), ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: 'ignore' });
    await waitFor('nats-server listening', () => isListening('127.0.0.1', port), { timeoutMs: 15_000 });
  };
  const stopServer = async () => {
    const proc = server!;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
  };

  beforeAll(async () => {
    port = await freePort();
    await startServer();
    bus = await connectEventBus(`nats://127.0.0.1:${port}`, 'connection-state-test', logger);
  });
  afterAll(async () => {
    await bus?.nc.close();
    if (server && server.exitCode === null) await stopServer();
    fs.rmSync(storeDir, { recursive: true, force: true });
  });

  it('when the server goes away, then KV calls fail at once with Unavailable, and work again once it is back', async () => {
    const kv = await openKvBucket(bus.nc, 'connection-state', { history: 1 });
    await kv.put('key', 'before');
    expect(isDisconnected(bus.nc)).toBe(false);

    await stopServer();
    await waitFor('the disconnect seen', async () => isDisconnected(bus.nc), { timeoutMs: 15_000 });
    // Each is refused before anything is sent; without it nats.js rejects with a TimeoutError
    // after 5 s, and a caller would have waited that long for its fallback.
    await expect(kv.get('key')).rejects.toBeInstanceOf(Unavailable);
    await expect(kv.put('key', 'during')).rejects.toBeInstanceOf(Unavailable);
    await expect(kv.update('key', 'during', 1)).rejects.toBeInstanceOf(Unavailable);
    // What does not send is untouched.
    expect(typeof kv.get).toBe('function');

    await startServer();
    await waitFor('the reconnect seen', async () => !isDisconnected(bus.nc));
    expect((await kv.get('key'))?.string()).toBe('before');
    await kv.put('key', 'after');
    expect((await kv.get('key'))?.string()).toBe('after');
  });
});
