import net from 'node:net';
import mongoose, { ConnectOptions, Connection } from 'mongoose';
import { createLogger } from '@hangar/logger';
import { eventually, testInfrastructure, uniqueName } from '@hangar/testing';
import { watchServerChecks } from '../src/server-check-watchdog';

const infra = testInfrastructure();
const logger = createLogger({ service: 'mongo-watchdog-test', level: 'silent' });

/** A TCP relay to the MongoDB-wire server that can drop every connection and refuse new ones: the server "down". */
async function relay(target: URL): Promise<{ url: string; down(): void; up(): void; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let refusing = false;
  const server = net.createServer((client) => {
    if (refusing) return client.destroy();
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined).on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `mongodb://127.0.0.1:${port}/?directConnection=true`,
    down() {
      refusing = true;
      for (const s of sockets) s.destroy();
    },
    up() {
      refusing = false;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The driver's monitors of a client, stopped as the stuck one was seen: no check ever runs again. */
function stopChecks(connection: Connection): void {
  const servers = (connection.getClient() as unknown as { topology: { s: { servers: Map<string, { monitor: { monitorId: { stop(): void } } }> } } }).topology.s.servers;
  for (const server of servers.values()) server.monitor.monitorId.stop();
}

describe("the watchdog of a connection's server checks", () => {
  const dbName = uniqueName('watchdog');
  const STALLED_MS = 1_500;
  let proxy: Awaited<ReturnType<typeof relay>>;
  let connection: Connection;
  let options: ConnectOptions;

  beforeEach(async () => {
    proxy = await relay(new URL(infra.mongoUrl));
    options = { dbName, bufferCommands: false, serverSelectionTimeoutMS: 500, heartbeatFrequencyMS: 300, connectTimeoutMS: 500 };
    connection = await mongoose.createConnection(proxy.url, options).asPromise();
  });

  afterEach(async () => {
    await connection.close(true);
    await proxy.close();
  });

  it('when the checks stop for good, then the client is replaced, checks run again and queries are answered', async () => {
    watchServerChecks(connection, { url: proxy.url, options, logger, stalledAfterMs: STALLED_MS, everyMs: 100 });
    const before = connection.getClient();
    const Ping = connection.model('Ping', new mongoose.Schema({ at: Number }), 'pings');
    await Ping.create({ at: 1 });
    stopChecks(connection);
    // The stall as it was met: the server restarted under the client, which then never looked again.
    proxy.down();
    proxy.up();

    await eventually(() => connection.getClient() !== before, { timeoutMs: 10_000, stepMs: 50, what: 'a new client' });
    // The service's models follow the connection to its new client.
    await eventually(async () => (await Ping.countDocuments().catch(() => -1)) === 1, { timeoutMs: 10_000, stepMs: 100, what: 'a query answered' });
    let checks = 0;
    connection.getClient().on('serverHeartbeatSucceeded', () => checks++);
    await eventually(() => checks >= 2, { timeoutMs: 5_000, stepMs: 50, what: "the new client's checks" });
    await connection.dropDatabase();
  });

  it('when the server is down for many times the stall limit, then its failing checks go on and nothing is replaced; it is used again once back', async () => {
    watchServerChecks(connection, { url: proxy.url, options, logger, stalledAfterMs: STALLED_MS, everyMs: 100 });
    const before = connection.getClient();
    let failed = 0;
    before.on('serverHeartbeatFailed', () => failed++);
    proxy.down();
    // Failed checks are the positive sign that the monitor is alive through the outage: wait for
    // enough of them to span three stall limits.
    await eventually(() => failed >= Math.ceil((3 * STALLED_MS) / 500), { timeoutMs: 20_000, stepMs: 50, what: 'failed checks through the outage' });
    expect(connection.getClient()).toBe(before);
    proxy.up();
    await eventually(async () => (await connection.collection('pings').countDocuments().catch(() => -1)) >= 0, { timeoutMs: 10_000, stepMs: 100, what: 'a query answered after the outage' });
    expect(connection.getClient()).toBe(before);
  });

  it('when the service closes its connection, then the watchdog stops at once: it listens no more, so it never opens it again', async () => {
    const client = connection.getClient();
    const listening = () => client.listenerCount('serverHeartbeatStarted') + client.listenerCount('serverHeartbeatSucceeded') + client.listenerCount('serverHeartbeatFailed');
    const without = listening();
    watchServerChecks(connection, { url: proxy.url, options, logger, stalledAfterMs: STALLED_MS, everyMs: 100 });
    expect(listening()).toBe(without + 3);
    await connection.close();
    // stop() removes the listeners and clears the timer together (server-check-watchdog.ts).
    expect(listening()).toBe(without);
    expect(connection.readyState).toBe(mongoose.ConnectionStates.disconnected);
  });
});
