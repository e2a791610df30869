import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { checkHealth, createServiceClient } from '@hangar/grpc';
import { freePort } from '@hangar/infra';
import { users } from '@hangar/proto';
import { dropTestDatabases, testInfrastructure, uniqueName } from '@hangar/testing';

/**
 * The users service as `npm run up` starts it (its built main.js): by the time its health says
 * SERVING, the bootstrap admin exists, so the launcher — or a Kubernetes readiness probe — never
 * sends a request with the admin's token that is refused. The bootstrap once came after
 * listening, and a CI run saw a 401 on the first upload right after Hangar's start.
 */
describe('users service start', () => {
  const infra = testInfrastructure();
  const prefix = uniqueName('users-ready');
  const database = `${prefix.replace(/-/g, '_')}_users`;
  const token = `hgr_${prefix.replace(/-/g, '')}`;
  let child: ChildProcess | undefined;

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await dropTestDatabases([database]);
  });

  it('when its health first says SERVING, then the bootstrap admin token already authenticates', async () => {
    const address = `127.0.0.1:${await freePort()}`;
    child = spawn(process.execPath, [path.resolve(__dirname, '..', 'dist', 'main.js')], {
      env: {
        ...process.env,
        MONGO_URL: infra.mongoUrl,
        MONGO_DB: database,
        NATS_URL: infra.natsUrl,
        NATS_SUBJECT_PREFIX: prefix,
        GRPC_LISTEN: address,
        METRICS_PORT: '0',
        LOG_LEVEL: 'warn',
        HANGAR_ADMIN_EMAIL: 'ready@example.com',
        HANGAR_ADMIN_PASSWORD: 'ready-pass-0123',
        HANGAR_ADMIN_TOKEN: token,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));

    // As the launcher polls, only closer together: the first SERVING answer is the moment that matters.
    const deadline = Date.now() + 60_000;
    while (!(await checkHealth(address, 200))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the users service did not start: ${stderr}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    const client = createServiceClient(users.UsersServiceDefinition, address);
    await expect(client.authenticate({ token })).resolves.toMatchObject({ email: 'ready@example.com', role: 'admin' });
  });
});
