import { Writable } from 'node:stream';
import { createServiceClient } from '@hangar/grpc';
import { createLogger } from '@hangar/logger';
import { users } from '@hangar/proto';
import { testInfrastructure, uniqueName } from '@hangar/testing';
import { loadUsersConfig } from '../src/config';
import { bootstrapAdmin } from '../src/domain/bootstrap-admin';
import { RunningUsersService, startUsersService } from '../src/users-service';

/**
 * A console session's last-used time (shown in the session list) moves at most once a minute:
 * the write is skipped while the recorded time is recent, so this is the one place it runs.
 * Its queries go to the plan check like every suite's.
 */
describe('users service: a session used again', () => {
  const infra = testInfrastructure();
  const prefix = uniqueName('users-touch');
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
  const logger = createLogger({ service: 'users-touch-test', level: 'warn', destination: new Writable({ write: (_c, _e, d) => d() }) });
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

  it('when a session last used over a minute ago authenticates, then its last-used time moves to now', async () => {
    const user = await client.createUser({ actor: admin, username: 'touched', email: 'touched@example.com', password: 'password-1234', role: 'member' });
    const signed = await client.signIn({ email: user.email, password: 'password-1234', userAgent: 'jest' });
    const actor = { userId: user.id, role: user.role };
    const longAgo = new Date(Date.now() - 10 * 60_000);
    await service.connection.collection('sessions').updateOne({ _id: signed.session!.id as never }, { $set: { lastUsedAt: longAgo } });
    await client.authenticateSession({ secret: signed.secret });
    // The touch is written after the answer: wait for it.
    let lastUsed = 0;
    for (let i = 0; i < 50 && lastUsed <= longAgo.getTime(); i++) {
      await new Promise((r) => setTimeout(r, 50));
      lastUsed = (await client.listSessions({ actor })).sessions[0]!.lastUsedAtMs;
    }
    expect(lastUsed).toBeGreaterThan(Date.now() - 60_000);
  });
});
