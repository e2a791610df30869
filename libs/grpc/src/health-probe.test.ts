import net from 'node:net';
import { createLogger } from '@hangar/logger';
import { checkHealth, createGrpcServer } from './index';

/**
 * A port nothing listens on yet (the kernel's pick, released at once). Not @hangar/infra's
 * freePort: infra depends on this library, and a probe test needs no protection from reuse.
 */
async function unusedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * The launcher probes each service while it starts (libs/infra launcher). A probe must see a
 * service that listens now, whatever the probes before it met: grpc-js shares a connection
 * between channels to one address, and a refused one waits out a reconnect backoff (500 ms and
 * growing) before it tries again — every start of Hangar waited it out (1.2 s seen per start).
 */
describe('health probe of an address', () => {
  const server = createGrpcServer({ logger: createLogger({ service: 'test', level: 'silent' }) });
  afterAll(() => server.shutdown(1_000));

  it('when a probe was refused and the service then listens, then the next probe sees it at once', async () => {
    const port = await unusedPort();
    expect(await checkHealth(`127.0.0.1:${port}`, 300)).toBe(false);
    await server.listen(`127.0.0.1:${port}`);
    // Inside the backoff a shared connection would be waiting out (grpc-js's default for the
    // probe's channel: 1 s less 20 % jitter, so at least 800 ms), with room for a loaded machine
    // to connect and answer (300 ms was missed under CI's load).
    expect(await checkHealth(`127.0.0.1:${port}`, 700)).toBe(true);
  });
});
