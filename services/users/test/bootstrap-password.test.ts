import { Writable } from 'node:stream';
import { InvalidArgument } from '@hangar/errors';
import { createServiceClient } from '@hangar/grpc';
import { createLogger } from '@hangar/logger';
import { users } from '@hangar/proto';
import { testInfrastructure, uniqueName } from '@hangar/testing';
import { loadUsersConfig } from '../src/config';
import { bootstrapAdmin } from '../src/domain/bootstrap-admin';
import { RunningUsersService, startUsersService } from '../src/users-service';

/**
 * On a database of its own: the bootstrap admin only
 * exists on an empty one.
 */
describe('bootstrap admin with a generated password', () => {
  const infra = testInfrastructure();
  const prefix = uniqueName('users-pw');
  const config = loadUsersConfig({
    MONGO_URL: infra.mongoUrl,
    MONGO_DB: prefix.replace(/-/g, '_'),
    NATS_URL: infra.natsUrl,
    NATS_SUBJECT_PREFIX: prefix,
    GRPC_LISTEN: '127.0.0.1:0',
    SHUTDOWN_TIMEOUT_MS: '3000',
  });
  const logger = createLogger({ service: 'users-test', level: 'warn', destination: new Writable({ write: (_c, _e, d) => d() }) });
  let service: RunningUsersService;
  let client: ReturnType<typeof createServiceClient<typeof users.UsersServiceDefinition>>;
  let boot: { userId: number; generatedPassword: string };

  beforeAll(async () => {
    service = await startUsersService(config, logger);
    client = createServiceClient(users.UsersServiceDefinition, `127.0.0.1:${service.port}`);
    const made = await bootstrapAdmin(service.deps, { email: 'first@example.com', token: 'bootstrap-token-pw-0123456789' }, logger);
    if (!made.created || !made.generatedPassword) throw new Error('expected a bootstrap admin with a generated password');
    boot = { userId: made.userId, generatedPassword: made.generatedPassword };
  });

  afterAll(async () => {
    await service.connection.dropDatabase().catch(() => undefined);
    await service.stop();
  });

  it('when the password was generated, then the admin must change it, and only a different password clears that', async () => {
    const actor = { userId: boot.userId, role: 'admin' };
    expect(await client.authenticate({ token: 'bootstrap-token-pw-0123456789' })).toMatchObject({ id: boot.userId, mustChangePassword: true });

    // The seed sends the password with every update: the same one is no change.
    const same = await client.updateUser({ actor, id: boot.userId, password: boot.generatedPassword, timezone: 'Asia/Tokyo' });
    expect(same).toMatchObject({ timezone: 'Asia/Tokyo', mustChangePassword: true });

    await expect(client.updateUser({ actor, id: boot.userId, password: 'short-one' })).rejects.toBeInstanceOf(InvalidArgument);
    expect((await client.getUser({ actor, id: boot.userId })).mustChangePassword).toBe(true);

    const changed = await client.updateUser({ actor, id: boot.userId, password: 'a-chosen-passphrase' });
    expect(changed.mustChangePassword).toBe(false);
    expect((await client.authenticate({ token: 'bootstrap-token-pw-0123456789' })).mustChangePassword).toBe(false);
  });

  it('when a user is created with a password, then nothing asks them to change it', async () => {
    const user = await client.createUser({ actor: { userId: boot.userId, role: 'admin' }, username: 'chosen', email: 'chosen@example.com', password: 'chosen-password' });
    expect(user.mustChangePassword).toBe(false);
  });
});
