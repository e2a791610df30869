import { Writable } from 'node:stream';
import { NotFound } from '@hangar/errors';
import { createLogger } from '@hangar/logger';
import { Metrics } from '@hangar/metrics';
import { users } from '@hangar/proto';
import { createGrpcServer, createServiceClient } from './index';

/** Server and client metrics on a real call: by service, method and final status. */
describe('gRPC metrics', () => {
  const logger = createLogger({ service: 'test', level: 'silent', destination: new Writable({ write: (_c, _e, done) => done() }) });
  const serverMetrics = new Metrics({ defaultMetrics: false });
  const clientMetrics = new Metrics({ defaultMetrics: false });
  const server = createGrpcServer({ logger, metrics: serverMetrics });
  let client: ReturnType<typeof createServiceClient<typeof users.UsersServiceDefinition>>;

  beforeAll(async () => {
    const impl = Object.fromEntries(
      Object.keys(users.UsersServiceDefinition.methods).map((name) => [
        name,
        async (req: { id?: number }, context: { signal: AbortSignal }) => {
          if (req.id === 2) throw new NotFound('no user 2');
          // Answers only once the caller has given up: the call ends by its deadline.
          if (req.id === 3) await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve()));
          return { id: req.id, username: 'u', email: 'e', locale: 'en', appearance: 'auto', timezone: 'Etc/UTC', role: 'member', createdAtMs: 0, updatedAtMs: 0 };
        },
      ]),
    );
    server.add(users.UsersServiceDefinition, impl as unknown as users.UsersServiceImplementation);
    const port = await server.listen('127.0.0.1:0');
    client = createServiceClient(users.UsersServiceDefinition, `127.0.0.1:${port}`, { defaultDeadlineMs: 10_000, metrics: clientMetrics });
  });

  afterAll(() => server.shutdown(1_000));

  const value = async (metrics: Metrics, name: string, labels: Record<string, string>) =>
    (await metrics.registry.getSingleMetric(name)!.get()).values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))?.value ?? 0;

  it('when calls succeed, fail and run past the deadline, then each side counts them with the status it saw', async () => {
    await client.getUser({ id: 1 });
    await expect(client.getUser({ id: 2 })).rejects.toBeInstanceOf(NotFound);
    await expect(client.getUser({ id: 3 }, { deadline: 200 })).rejects.toMatchObject({ code: 'deadline_exceeded' });
    const labels = (method: string, code: string) => ({ service: 'hangar.users.v1.UsersService', method, code });
    expect(await value(serverMetrics, 'hangar_grpc_server_handled_total', labels('GetUser', 'OK'))).toBe(1);
    expect(await value(serverMetrics, 'hangar_grpc_server_handled_total', labels('GetUser', 'NOT_FOUND'))).toBe(1);
    expect(await value(clientMetrics, 'hangar_grpc_client_handled_total', labels('GetUser', 'OK'))).toBe(1);
    expect(await value(clientMetrics, 'hangar_grpc_client_handled_total', labels('GetUser', 'NOT_FOUND'))).toBe(1);
    expect(await value(clientMetrics, 'hangar_grpc_client_handled_total', labels('GetUser', 'DEADLINE_EXCEEDED'))).toBe(1);
    const text = await serverMetrics.registry.metrics();
    expect(text).toContain('hangar_grpc_server_handling_seconds_count{service="hangar.users.v1.UsersService",method="GetUser",code="OK"} 1');
  });
});
