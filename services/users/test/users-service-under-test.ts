import { Writable } from 'node:stream';
import { createServiceClient } from '@hangar/grpc';
import { createLogger } from '@hangar/logger';
import { users } from '@hangar/proto';
import { testInfrastructure, uniqueName } from '@hangar/testing';
import { loadUsersConfig } from '../src/config';
import { bootstrapAdmin } from '../src/domain/bootstrap-admin';
import { RunningUsersService, startUsersService } from '../src/users-service';

/**
 * A users service started for one suite (in its beforeAll, dropped in its
 * afterAll) on its own database and subjects, with a bootstrap admin and a
 * real gRPC client. Its queries go to the plan check like every suite's;
 * `keepDatabase` leaves the database for the plan check to explain them on.
 */
export function usersServiceUnderTest(name: string, options: { keepDatabase?: boolean } = {}) {
  const infra = testInfrastructure();
  const prefix = uniqueName(name);
  const config = loadUsersConfig({
    MONGO_URL: infra.mongoUrl,
    // `_users` last: the plan check explains this suite's queries on another users database once this one is dropped.
    MONGO_DB: `${prefix.replace(/-/g, '_')}_users`,
    NATS_URL: infra.natsUrl,
    NATS_SUBJECT_PREFIX: prefix,
    GRPC_LISTEN: '127.0.0.1:0',
    SHUTDOWN_TIMEOUT_MS: '3000',
    AUDIT_SWEEP_INTERVAL_MS: '0',
    HANGAR_QUERY_LOG_DIR: process.env.HANGAR_QUERY_LOG_DIR,
  });
  const logger = createLogger({ service: `${name}-test`, level: 'warn', destination: new Writable({ write: (_c, _e, d) => d() }) });
  const running = {
    /** Its NATS subject prefix (audit entries are published under it). */
    prefix,
    service: undefined as unknown as RunningUsersService,
    client: undefined as unknown as ReturnType<typeof createServiceClient<typeof users.UsersServiceDefinition>>,
    admin: { userId: 0, role: 'admin' },
  };

  beforeAll(async () => {
    running.service = await startUsersService(config, logger);
    running.client = createServiceClient(users.UsersServiceDefinition, `127.0.0.1:${running.service.port}`);
    const boot = await bootstrapAdmin(running.service.deps, { email: 'root@example.com', password: 'bootstrap-pass-1', token: 'bootstrap-token-0123456789' }, logger);
    if (!boot.created) throw new Error('expected a bootstrap admin');
    running.admin.userId = boot.userId;
  });
  afterAll(async () => {
    if (!options.keepDatabase) await running.service.connection.dropDatabase().catch(() => undefined);
    await running.service.stop();
  });
  return running;
}
