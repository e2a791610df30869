import { Writable } from 'node:stream';
import { DeadlineExceeded, InvalidArgument, NotFound, Unavailable, Unimplemented } from '@hangar/errors';
import { createLogger, currentRequestId, runWithContext } from '@hangar/logger';
import { users } from '@hangar/proto';
import { checkHealth, createGrpcServer, createServiceClient } from './index';

/**
 * A real gRPC server and client in one process: the error table and the
 * request id must survive the wire exactly.
 */
describe('gRPC server and client helpers', () => {
  const logged: string[] = [];
  const logger = createLogger({
    service: 'test',
    level: 'debug',
    destination: new Writable({ write: (c, _e, done) => (logged.push(c.toString()), done()) }),
  });
  const server = createGrpcServer({ logger });
  let seenRequestId: string | undefined;
  const impl: Partial<users.UsersServiceImplementation> = {
    async getUser(req, context) {
      seenRequestId = currentRequestId();
      if (req.id === 1) throw new InvalidArgument('Invalid user', { email: ['is invalid'] });
      if (req.id === 2) throw new NotFound('User 2 not found');
      if (req.id === 3) throw new Error('secret internals: connection string mongodb://user:pw@db');
      // A caller's value echoed in an error (a version, a debug id, a branch): 1 MB of it.
      if (req.id === 5) throw new InvalidArgument(`No release ${'v'.repeat(1024 * 1024)}`, { ['f'.repeat(1024 * 1024)]: [`is not ${'é'.repeat(512 * 1024)}`] });
      // An answer past the client's 4 MiB receive limit: grpc-js's own RESOURCE_EXHAUSTED.
      if (req.id === 6) return { ...answer(req.id), username: 'u'.repeat(5 * 1024 * 1024) };
      // Answers only once the caller has given up: the call ends by its deadline, never before.
      if (req.id === 4) await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve()));
      return answer(req.id);
    },
  };
  const answer = (id: number): users.User => ({
    id, username: 'u', email: 'e', locale: 'en', appearance: 'auto', timezone: 'Etc/UTC', role: 'member', mustChangePassword: false, createdAtMs: 0, updatedAtMs: 0,
  } as users.User);
  let target = '';
  let client: ReturnType<typeof createServiceClient<typeof users.UsersServiceDefinition>>;

  beforeAll(async () => {
    const unimplemented = async () => {
      throw new Unimplemented();
    };
    const full = Object.fromEntries(
      Object.keys(users.UsersServiceDefinition.methods).map((name) => [name, impl[name as keyof typeof impl] ?? unimplemented]),
    );
    server.add(users.UsersServiceDefinition, full as unknown as users.UsersServiceImplementation);
    target = `127.0.0.1:${await server.listen('127.0.0.1:0')}`;
    // Patient: on a loaded machine a plain call has outlived 500 ms (CI 2026-11-30: the request-id
    // test's call answered DeadlineExceeded). Only the deadline test uses a short one.
    client = createServiceClient(users.UsersServiceDefinition, target, { defaultDeadlineMs: 30_000 });
  });

  afterAll(() => server.shutdown(1_000));

  it('when the service raises InvalidArgument with fields, then the client gets the same error and entry', async () => {
    await expect(client.getUser({ id: 1 })).rejects.toMatchObject({ code: 'invalid_argument', entry: { email: ['is invalid'] } });
    await expect(client.getUser({ id: 1 })).rejects.toBeInstanceOf(InvalidArgument);
  });

  it('when the service raises NotFound, then the client gets NotFound with its message', async () => {
    await expect(client.getUser({ id: 2 })).rejects.toMatchObject({ code: 'not_found', message: 'User 2 not found' });
  });

  it('when the service fails unexpectedly, then the client sees a generic internal error and the stack is logged', async () => {
    const error = await client.getUser({ id: 3 }).catch((e: unknown) => e as Error);
    expect(error).toMatchObject({ code: 'internal', message: 'Internal error' });
    expect(JSON.stringify(error)).not.toContain('mongodb://');
    expect(logged.join('')).toContain('secret internals');
  });

  it('when a call outlives its deadline, then the client gets DeadlineExceeded, with the method that timed out as its cause', async () => {
    const hasty = createServiceClient(users.UsersServiceDefinition, target, { defaultDeadlineMs: 500 });
    const error = (await hasty.getUser({ id: 4 }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(DeadlineExceeded);
    // For the caller's log (what answered 503, and why); not in the error's own fields.
    expect(String((error.cause as Error)?.message)).toMatch(/GetUser.*DEADLINE_EXCEEDED/);
    expect(Object.keys(error)).not.toContain('cause');
  });

  // The message and entry travel in grpc-message / trailers; past the client's metadata
  // limit the call never ended for it, and the gateway answered 503 after its whole deadline.
  it('when an error carries a caller\'s oversized value, then the client gets the same error at once, its text bounded', async () => {
    const error = (await client.getUser({ id: 5 }).catch((e: unknown) => e)) as InvalidArgument;
    expect(error).toBeInstanceOf(InvalidArgument);
    expect(error.message).toMatch(/^No release v+…$/);
    expect(error.message.length).toBeLessThanOrEqual(500);
    expect(JSON.stringify(error.entry).length).toBeLessThanOrEqual(2_048);
    // Non-ASCII problems cross too (a text trailer holds ASCII only: they are escaped).
    expect(Object.values(error.entry!)[0]![0]).toMatch(/^is not é+…$/);
  });

  it('when an answer is past the message size limit, then the client gets a plain internal error, not a 429 with grpc-js\'s text', async () => {
    const error = (await client.getUser({ id: 6 }).catch((e: unknown) => e)) as Error;
    expect(error).toMatchObject({ code: 'internal', message: 'Internal error' });
    expect(String((error.cause as Error)?.message)).toMatch(/larger than max/);
  });

  it('when the caller has a request id, then the service handles the call inside it', async () => {
    await runWithContext({ requestId: 'rid-42' }, () => client.getUser({ id: 9 }));
    expect(seenRequestId).toBe('rid-42');
  });

  it('when the server is up, then health is SERVING; when nothing listens, then calls are Unavailable', async () => {
    expect(await checkHealth(target)).toBe(true);
    const nowhere = createServiceClient(users.UsersServiceDefinition, '127.0.0.1:1', { defaultDeadlineMs: 2_000 });
    await expect(nowhere.getUser({ id: 9 })).rejects.toBeInstanceOf(Unavailable);
    expect(await checkHealth('127.0.0.1:1', 300)).toBe(false);
  });
});
