import { Writable } from 'node:stream';
import { createLogger } from '@hangar/logger';
import { users } from '@hangar/proto';
import { GrpcServer, channelAddress, createGrpcServer, createServiceClient } from './index';

/**
 * A target listing several replicas (what `npm run up` gives with
 * HANGAR_REPLICAS): every replica answers a share of the calls, and calls
 * keep succeeding when one of them is gone.
 */
describe('a client of several replicas', () => {
  const logger = createLogger({ service: 'test', level: 'silent', destination: new Writable({ write: (_c, _e, done) => done() }) });
  const answered = [0, 0];
  const servers: GrpcServer[] = [];
  let target = '';

  beforeAll(async () => {
    const ports: number[] = [];
    for (const replica of [0, 1]) {
      const server = createGrpcServer({ logger });
      const impl = Object.fromEntries(
        Object.keys(users.UsersServiceDefinition.methods).map((name) => [
          name,
          async (req: { id?: number }) => {
            answered[replica]!++;
            return { id: req.id, username: `replica-${replica}`, email: 'e', locale: 'en', appearance: 'auto', timezone: 'Etc/UTC', role: 'member', createdAtMs: 0, updatedAtMs: 0 };
          },
        ]),
      );
      server.add(users.UsersServiceDefinition, impl as unknown as users.UsersServiceImplementation);
      ports.push(await server.listen('127.0.0.1:0'));
      servers.push(server);
    }
    target = ports.map((port) => `127.0.0.1:${port}`).join(',');
  });

  afterAll(() => Promise.all(servers.map((s) => s.shutdown(1_000))));

  it('when a target lists addresses, then it is read as IPv4 addresses; a single name still resolves by DNS', () => {
    expect(channelAddress('127.0.0.1:5001,127.0.0.1:5002')).toBe('ipv4:127.0.0.1:5001,127.0.0.1:5002');
    expect(channelAddress('users:50051')).toBe('dns:///users:50051');
  });

  it('when two replicas serve, then both answer calls, and when one stops, then every call is still answered', async () => {
    const client = createServiceClient(users.UsersServiceDefinition, target, { defaultDeadlineMs: 5_000 });
    const names = new Set<string>();
    for (let i = 0; i < 20; i++) names.add((await client.getUser({ id: i })).username);
    expect(names).toEqual(new Set(['replica-0', 'replica-1']));
    expect(answered[0]).toBeGreaterThan(0);
    expect(answered[1]).toBeGreaterThan(0);

    await servers[0]!.shutdown(1_000);
    const before = answered[1]!;
    for (let i = 0; i < 20; i++) expect((await client.getUser({ id: i })).username).toBe('replica-1');
    expect(answered[1]! - before).toBe(20);
  });
});
