import http from 'node:http';
import net from 'node:net';
import { Writable } from 'node:stream';
import { FailedPrecondition, Unimplemented } from '@hangar/errors';
import { createGrpcServer } from '@hangar/grpc';
import { createLogger } from '@hangar/logger';
import { releases, users } from '@hangar/proto';
import { ObjectStorage } from '@hangar/storage';
import { closedPort, eventually, testInfrastructure, uniqueName } from '@hangar/testing';
import { createApp } from '../src/app';
import { createServiceClients } from '../src/clients/service-clients';
import { LocalAttempts } from '../src/limits/local-attempts';

const infra = testInfrastructure();
const logger = createLogger({ service: 'gateway-upload-test', level: 'warn', destination: new Writable({ write: (c, _e, d) => (process.env.DEBUG_LOGS && process.stderr.write(c), d()) }) });

function unimplemented(definition: { methods: Record<string, unknown> }) {
  return Object.fromEntries(Object.keys(definition.methods).map((name) => [name, async () => Promise.reject(new Unimplemented(name))]));
}

/**
 * What the gateway does with a stored package when CreateRelease does not succeed, with the
 * real gateway app and S3, and stand-ins for users (any token is the admin) and releases
 * (which answers as each test says). A refusal removes the package; an answer that never
 * came must not, because the release may have been recorded anyway.
 */
describe('gateway: the stored package after a failed CreateRelease', () => {
  const storage = new ObjectStorage({ ...infra.s3, bucket: uniqueName('gw-outcome') });
  const fakeUsers = createGrpcServer({ logger });
  const fakeReleases = createGrpcServer({ logger });
  /** How the stand-in releases service answers CreateRelease; it records the key it was given. */
  let createRelease: (req: releases.CreateReleaseRequest, context: { signal: AbortSignal }) => Promise<releases.Release>;
  const recorded: string[] = [];
  let server: http.Server;
  let baseUrl: string;

  beforeAll(async () => {
    await storage.ensureBucket();
    fakeUsers.add(users.UsersServiceDefinition, {
      ...unimplemented(users.UsersServiceDefinition),
      authenticate: async () => users.User.fromJSON({ id: 1, role: 'admin', username: 'admin', email: 'admin@example.com', timezone: 'UTC' }),
    } as unknown as users.UsersServiceImplementation);
    fakeReleases.add(releases.ReleasesServiceDefinition, {
      ...unimplemented(releases.ReleasesServiceDefinition),
      createRelease: (req: releases.CreateReleaseRequest, context: { signal: AbortSignal }) => createRelease(req, context),
    } as unknown as releases.ReleasesServiceImplementation);
    const [usersPort, releasesPort, nowhere] = [await fakeUsers.listen('127.0.0.1:0'), await fakeReleases.listen('127.0.0.1:0'), await closedPort()];
    const clients = createServiceClients(
      { users: `127.0.0.1:${usersPort}`, apps: `127.0.0.1:${nowhere}`, releases: `127.0.0.1:${releasesPort}`, debugFiles: `127.0.0.1:${nowhere}`, webhooks: `127.0.0.1:${nowhere}` },
      2_000,
    );
    const app = createApp({
      clients,
      logger,
      versionInfo: { version: 'test', vcs_ref: 'test', build_date: new Date(0).toISOString() },
      maxBodyBytes: 1024 * 1024,
      releases: { storage, maxUploadBytes: 16 * 1024 * 1024, uploadDeadlineMs: 500, downloadRedirect: true },
      install: { secret: 'x'.repeat(32), unlockTtlSeconds: 3600, unlockAttempts: { counter: new LocalAttempts(), rule: { name: 'unlock', maxFailures: 5, windowMs: 600_000 } } },
      signInLimiter: {} as never,
    });
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  });

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await fakeUsers.shutdown(1_000);
    await fakeReleases.shutdown(1_000);
  });

  async function upload(): Promise<{ status: number; body: { error?: string } }> {
    const form = new FormData();
    form.append('token', 'any-token');
    form.append('file', new Blob([Buffer.from(`package bytes ${uniqueName('pkg')}`)]), 'app.apk');
    const res = await fetch(`${baseUrl}/api/apps/upload`, { method: 'POST', body: form });
    return { status: res.status, body: (await res.json()) as { error?: string } };
  }

  it('when releases records the upload only after the gateway gave up waiting, then 503 and the recorded package is still in storage', async () => {
    createRelease = async (req, context) => {
      // Still working when the gateway's upload deadline passes (the call is cancelled then);
      // the release is recorded after that.
      await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve()));
      recorded.push(req.objectKey);
      return releases.Release.fromJSON({ id: 1 });
    };

    // The gateway decides what becomes of the package before it answers (a refusal's removal
    // is awaited), so what is in storage after the answer is what it left.
    const res = await upload();
    await eventually(() => recorded.length === 1, { what: 'the late release to be recorded' });

    expect(res.status).toBe(503);
    expect(res.body.error).toEqual(expect.any(String));
    expect(recorded).toHaveLength(1);
    // Before the fix the gateway deleted it: a recorded release without its package.
    expect(await storage.exists(recorded[0]!)).toBe(true);
  });

  it('when releases refuses the upload, then 422 and the package is removed at once', async () => {
    const seen: string[] = [];
    createRelease = async (req) => {
      seen.push(req.objectKey);
      throw new FailedPrecondition('Channel Android takes Android builds, but this package is a iOS build', { file: ['is a iOS package'] });
    };

    const res = await upload();

    expect(res.status).toBe(422);
    expect(seen).toHaveLength(1);
    expect(await storage.exists(seen[0]!)).toBe(false);
  });
});
