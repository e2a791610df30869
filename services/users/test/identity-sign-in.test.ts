import { Writable } from 'node:stream';
import { createServiceClient } from '@hangar/grpc';
import { createLogger } from '@hangar/logger';
import { users } from '@hangar/proto';
import { testInfrastructure, uniqueName } from '@hangar/testing';
import { loadUsersConfig } from '../src/config';
import { bootstrapAdmin } from '../src/domain/bootstrap-admin';
import { RunningUsersService, startUsersService } from '../src/users-service';

/**
 * Single sign-on's side in the users service (issue 16), through the real gRPC
 * client: a verified identity signs in the live user with that email or
 * creates one with the default role; with SSO only, a password signs in
 * global admins alone. Its queries go to the plan check like every suite's.
 */
describe('users service: sign-in by a verified identity', () => {
  const infra = testInfrastructure();
  const prefix = uniqueName('users-identity');
  const config = loadUsersConfig({
    MONGO_URL: infra.mongoUrl,
    // `_users` last: the plan check explains this test's queries on another users database once this one is dropped.
    MONGO_DB: `${prefix.replace(/-/g, '_')}_users`,
    NATS_URL: infra.natsUrl,
    NATS_SUBJECT_PREFIX: prefix,
    GRPC_LISTEN: '127.0.0.1:0',
    SHUTDOWN_TIMEOUT_MS: '3000',
    AUDIT_SWEEP_INTERVAL_MS: '0',
    HANGAR_QUERY_LOG_DIR: process.env.HANGAR_QUERY_LOG_DIR,
  });
  const logger = createLogger({ service: 'users-identity-test', level: 'warn', destination: new Writable({ write: (_c, _e, d) => d() }) });
  let service: RunningUsersService;
  let client: ReturnType<typeof createServiceClient<typeof users.UsersServiceDefinition>>;
  const admin = { userId: 0, role: 'admin' };

  beforeAll(async () => {
    service = await startUsersService(config, logger);
    client = createServiceClient(users.UsersServiceDefinition, `127.0.0.1:${service.port}`);
    const boot = await bootstrapAdmin(service.deps, { email: 'root@example.com', password: 'bootstrap-pass-1', token: 'bootstrap-token-0123456789' }, logger);
    if (!boot.created) throw new Error('expected a bootstrap admin');
    admin.userId = boot.userId;
  });
  afterAll(async () => {
    await service.connection.dropDatabase().catch(() => undefined);
    await service.stop();
  });

  it('when an unknown email signs in, then a user is created with the default role and a session that authenticates; the next sign-in is the same user', async () => {
    const first = await client.signInWithIdentity({ email: 'New.Person@Corp.test', preferredUsername: 'new.person', defaultRole: 'developer', userAgent: 'jest' });
    expect(first.created).toBe(true);
    expect(first.signedIn!.user).toMatchObject({ email: 'new.person@corp.test', username: 'new.person', role: 'developer' });
    const session = await client.authenticateSession({ secret: first.signedIn!.secret });
    expect(session.user!.id).toBe(first.signedIn!.user!.id);

    const again = await client.signInWithIdentity({ email: 'new.person@corp.test', preferredUsername: 'new.person', defaultRole: 'admin', userAgent: 'jest' });
    expect({ created: again.created, id: again.signedIn!.user!.id, role: again.signedIn!.user!.role }).toEqual({ created: false, id: first.signedIn!.user!.id, role: 'developer' });
  });

  it('when the provider\'s username is taken by someone else, then the new user gets a numbered one', async () => {
    await client.createUser({ actor: admin, username: 'sam', email: 'sam@other.test', password: 'password-1234', role: 'member' });
    const signed = await client.signInWithIdentity({ email: 'sam@corp.test', preferredUsername: 'sam', defaultRole: 'member', userAgent: 'jest' });
    expect(signed.signedIn!.user).toMatchObject({ username: 'sam-2', email: 'sam@corp.test', role: 'member' });
  });

  it('when passwords are for admins only, then a member\'s right password is refused and an admin\'s works', async () => {
    await client.createUser({ actor: admin, username: 'pat', email: 'pat@example.com', password: 'password-1234', role: 'member' });
    await expect(client.signIn({ email: 'pat@example.com', password: 'password-1234', userAgent: 'jest', adminsOnly: true })).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(client.signIn({ email: 'pat@example.com', password: 'wrong-password', userAgent: 'jest', adminsOnly: true })).rejects.toMatchObject({ code: 'unauthenticated' });
    expect((await client.signIn({ email: 'pat@example.com', password: 'password-1234', userAgent: 'jest' })).user!.email).toBe('pat@example.com');
    expect((await client.signIn({ email: 'root@example.com', password: 'bootstrap-pass-1', userAgent: 'jest', adminsOnly: true })).user!.role).toBe('admin');
  });
});
