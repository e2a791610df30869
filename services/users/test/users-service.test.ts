import { Writable } from 'node:stream';
import { AckPolicy, DeliverPolicy } from '@nats-io/jetstream';
import { AlreadyExists, FailedPrecondition, InvalidArgument, NotFound, PermissionDenied, Unauthenticated } from '@hangar/errors';
import { connectEventBus, parseEnvelope, streamNameFor, subjectOf } from '@hangar/events';
import { createServiceClient } from '@hangar/grpc';
import { createLogger } from '@hangar/logger';
import { users } from '@hangar/proto';
import { testInfrastructure, uniqueName } from '@hangar/testing';
import { loadUsersConfig } from '../src/config';
import { bootstrapAdmin } from '../src/domain/bootstrap-admin';
import { RunningUsersService, startUsersService } from '../src/users-service';

/**
 * The users service as deployed — its real gRPC server and client, FerretDB
 * and NATS — without the gateway.
 */
describe('users service over gRPC', () => {
  const infra = testInfrastructure();
  const prefix = uniqueName('users-ct');
  const config = loadUsersConfig({
    MONGO_URL: infra.mongoUrl,
    MONGO_DB: prefix.replace(/-/g, '_'),
    NATS_URL: infra.natsUrl,
    NATS_SUBJECT_PREFIX: prefix,
    GRPC_LISTEN: '127.0.0.1:0',
    SHUTDOWN_TIMEOUT_MS: '3000',
  });
  const logger = createLogger({ service: 'users-test', level: 'warn', destination: new Writable({ write: (c, _e, d) => (process.env.DEBUG_LOGS && process.stderr.write(c), d()) }) });
  let service: RunningUsersService;
  let client: ReturnType<typeof createServiceClient<typeof users.UsersServiceDefinition>>;
  const admin = { userId: 0, role: 'admin' };

  beforeAll(async () => {
    service = await startUsersService(config, logger);
    client = createServiceClient(users.UsersServiceDefinition, `127.0.0.1:${service.port}`);
    const boot = await bootstrapAdmin(service.deps, { email: 'root@example.com', password: 'bootstrap-pass', token: 'bootstrap-token-0123456789' }, logger);
    if (!boot.created) throw new Error('expected a bootstrap admin');
    admin.userId = boot.userId;
  });

  afterAll(async () => {
    await service.connection.dropDatabase().catch(() => undefined);
    await service.stop();
  });

  let n = 0;
  const newUser = (extra: Partial<users.CreateUserRequest> = {}) => {
    n += 1;
    return client.createUser({ actor: admin, username: `user-${n}`, email: `user-${n}@example.com`, password: 'password-123', ...extra });
  };

  it('when the admin is bootstrapped twice, then only one admin exists and its token authenticates', async () => {
    const again = await bootstrapAdmin(service.deps, { email: 'other@example.com' }, logger);
    expect(again.created).toBe(false);
    const me = await client.authenticate({ token: 'bootstrap-token-0123456789' });
    expect(me).toMatchObject({ id: admin.userId, role: 'admin', email: 'root@example.com' });
  });

  it('when users are created concurrently, then each gets its own integer id', async () => {
    const created = await Promise.all(Array.from({ length: 10 }, () => newUser()));
    const ids = created.map((u) => u.id);
    expect(new Set(ids).size).toBe(10);
    for (const id of ids) expect(Number.isInteger(id) && id > 0).toBe(true);
  });

  it('when a user is read, updated and deleted, then each step is stored', async () => {
    const user = await newUser({ timezone: 'Asia/Tokyo', role: 'developer' });
    expect(await client.getUser({ actor: admin, id: user.id })).toMatchObject({ timezone: 'Asia/Tokyo', role: 'developer' });
    const updated = await client.updateUser({ actor: admin, id: user.id, locale: 'zh-CN' });
    expect(updated).toMatchObject({ locale: 'zh-CN', timezone: 'Asia/Tokyo' });
    await client.deleteUser({ actor: admin, id: user.id });
    await expect(client.getUser({ actor: admin, id: user.id })).rejects.toBeInstanceOf(NotFound);
  });

  it('when the email is taken in another case, then AlreadyExists names the field', async () => {
    const user = await newUser();
    const error = await newUser({ email: user.email.toUpperCase() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AlreadyExists);
    expect((error as AlreadyExists).entry).toEqual({ email: ['has already been taken'] });
  });

  it('when fields are invalid, then InvalidArgument lists them and nothing is stored', async () => {
    const before = (await client.listUsers({ actor: admin, page: { page: 1, perPage: 100 } })).total;
    await expect(newUser({ email: 'bad', role: 'owner' })).rejects.toBeInstanceOf(InvalidArgument);
    expect((await client.listUsers({ actor: admin, page: { page: 1, perPage: 100 } })).total).toBe(before);
  });

  it('when a member acts on others or raises their role, then PermissionDenied and nothing changes', async () => {
    const member = await newUser();
    const actor = { userId: member.id, role: member.role };
    await expect(client.listUsers({ actor, page: { page: 1, perPage: 10 } })).rejects.toBeInstanceOf(PermissionDenied);
    await expect(client.getUser({ actor, id: admin.userId })).rejects.toBeInstanceOf(PermissionDenied);
    await expect(client.updateUser({ actor, id: member.id, role: 'admin' })).rejects.toBeInstanceOf(PermissionDenied);
    expect((await client.getUser({ actor, id: member.id })).role).toBe('member');
  });

  it('when the only admin would be demoted, then FailedPrecondition', async () => {
    await expect(client.updateUser({ actor: admin, id: admin.userId, role: 'member' })).rejects.toBeInstanceOf(FailedPrecondition);
  });

  it('when a call has no actor, then Unauthenticated', async () => {
    await expect(client.listUsers({ page: { page: 1, perPage: 10 } })).rejects.toBeInstanceOf(Unauthenticated);
  });

  it('when a token is created, then only its hash is stored, it authenticates, and revoking it ends that', async () => {
    const user = await newUser();
    const actor = { userId: user.id, role: user.role };
    const created = await client.createToken({ actor, userId: user.id, name: 'ci' });
    const stored = await service.connection.collection('tokens').findOne({ _id: created.token!.id as never });
    expect(JSON.stringify(stored)).not.toContain(created.secret);
    expect((await client.authenticate({ token: created.secret })).id).toBe(user.id);
    await client.revokeToken({ actor, userId: user.id, tokenId: created.token!.id });
    await expect(client.authenticate({ token: created.secret })).rejects.toBeInstanceOf(Unauthenticated);
  });

  it('when a user is stored, then the password is kept only as an scrypt hash', async () => {
    const user = await newUser({ password: 'plain-text-password' });
    const doc = await service.connection.collection('users').findOne({ _id: user.id as never });
    expect(doc?.passwordHash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(doc)).not.toContain('plain-text-password');
  });

  it('when a user is deleted, then user.deleted is published with their id and the tombstone is removed', async () => {
    const bus = await connectEventBus(infra.natsUrl, 'users-test', logger);
    try {
      const stream = streamNameFor(prefix);
      const durable = uniqueName('probe').replace(/[^a-z0-9-]/g, '');
      await bus.jsm.consumers.add(stream, {
        durable_name: durable,
        filter_subject: subjectOf('user.deleted', prefix),
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
      });
      const user = await newUser();
      await client.deleteUser({ actor: admin, id: user.id });
      const consumer = await bus.js.consumers.get(stream, durable);
      const ids: number[] = [];
      const deadline = Date.now() + 10_000;
      while (!ids.includes(user.id) && Date.now() < deadline) {
        const msg = await consumer.next({ expires: 1_000 });
        if (msg) {
          ids.push((parseEnvelope(msg.string()).data as { user_id: number }).user_id);
          msg.ack();
        }
      }
      expect(ids).toContain(user.id);
      await service.relay.flush();
      expect(await service.connection.collection('users').findOne({ _id: user.id as never })).toBeNull();
    } finally {
      await bus.nc.drain();
    }
  });

  describe('console sessions', () => {
    const signedInUser = async () => {
      const user = await newUser();
      const signed = await client.signIn({ email: user.email.toUpperCase(), password: 'password-123', userAgent: 'jest' });
      return { user, signed, actor: { userId: user.id, role: user.role } };
    };

    it('when a user signs in with the right password, then the secret authenticates and only its digest is stored', async () => {
      const { user, signed } = await signedInUser();
      expect(signed.user).toMatchObject({ id: user.id });
      expect(signed.secret.length).toBeGreaterThanOrEqual(40);
      expect(await client.authenticateSession({ secret: signed.secret })).toMatchObject({ user: { id: user.id }, session: { id: signed.session!.id, userAgent: 'jest' } });
      const stored = await service.connection.collection('sessions').findOne({ _id: signed.session!.id as never });
      expect(JSON.stringify(stored)).not.toContain(signed.secret);
      expect(stored!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 24 * 3600 * 1000);
    });

    it('when the password is wrong or the email unknown, then both are refused with the same message', async () => {
      const user = await newUser();
      const wrong = await client.signIn({ email: user.email, password: 'not-the-password', userAgent: '' }).catch((e: unknown) => e);
      const unknown = await client.signIn({ email: 'nobody@example.com', password: 'password-123', userAgent: '' }).catch((e: unknown) => e);
      expect(wrong).toBeInstanceOf(Unauthenticated);
      expect(unknown).toBeInstanceOf(Unauthenticated);
      expect((wrong as Error).message).toBe((unknown as Error).message);
      await expect(client.signIn({ email: '', password: '', userAgent: '' })).rejects.toBeInstanceOf(InvalidArgument);
    });

    it('when a session is revoked, then its secret stops authenticating at once and others cannot revoke it', async () => {
      const { signed, actor } = await signedInUser();
      const other = await signedInUser();
      await expect(client.revokeSession({ actor: other.actor, sessionId: signed.session!.id })).rejects.toBeInstanceOf(NotFound);
      expect((await client.listSessions({ actor })).sessions.map((s) => s.id)).toEqual([signed.session!.id]);
      await client.revokeSession({ actor, sessionId: signed.session!.id });
      await expect(client.authenticateSession({ secret: signed.secret })).rejects.toBeInstanceOf(Unauthenticated);
      expect((await client.listSessions({ actor })).sessions).toEqual([]);
    });

    it('when a session has expired, then it no longer authenticates', async () => {
      const { signed } = await signedInUser();
      await service.connection.collection('sessions').updateOne({ _id: signed.session!.id as never }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
      await expect(client.authenticateSession({ secret: signed.secret })).rejects.toThrow(/expired/);
    });

    it('when the password is changed, then the old one is refused, the new one signs in, and only the kept session survives', async () => {
      const { user, signed, actor } = await signedInUser();
      const second = await client.signIn({ email: user.email, password: 'password-123', userAgent: 'other' });
      await expect(client.changePassword({ actor, currentPassword: 'wrong-password', newPassword: 'new-password-1', keepSessionId: signed.session!.id })).rejects.toBeInstanceOf(InvalidArgument);
      await expect(client.changePassword({ actor, currentPassword: 'password-123', newPassword: 'short', keepSessionId: signed.session!.id })).rejects.toBeInstanceOf(InvalidArgument);
      await client.changePassword({ actor, currentPassword: 'password-123', newPassword: 'new-password-1', keepSessionId: signed.session!.id });
      await expect(client.signIn({ email: user.email, password: 'password-123', userAgent: '' })).rejects.toBeInstanceOf(Unauthenticated);
      await client.signIn({ email: user.email, password: 'new-password-1', userAgent: '' });
      await expect(client.authenticateSession({ secret: second.secret })).rejects.toBeInstanceOf(Unauthenticated);
      expect(await client.authenticateSession({ secret: signed.secret })).toMatchObject({ user: { id: user.id } });
    });

    it('when a user is deleted, then their sessions stop authenticating', async () => {
      const { user, signed } = await signedInUser();
      await client.deleteUser({ actor: admin, id: user.id });
      await expect(client.authenticateSession({ secret: signed.secret })).rejects.toBeInstanceOf(Unauthenticated);
    });
  });
});
