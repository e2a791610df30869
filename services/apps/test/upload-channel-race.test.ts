import { Writable } from 'node:stream';
import { createLogger } from '@hangar/logger';
import { testInfrastructure, uniqueName } from '@hangar/testing';
import { loadUsersConfig } from '../../users/src/config';
import { RunningUsersService, startUsersService } from '../../users/src/users-service';
import { RunningAppsService, startAppsService } from '../src/apps-service';
import { loadAppsConfig } from '../src/config';
import { ensureUploadChannel, UPLOAD_SCHEME_NAME } from '../src/domain/upload-channel';

/**
 * Uploads without a channel key that race: another upload creates the app,
 * scheme or channel between this one's look-up and its insert. Each case sets
 * up exactly that interleaving (the other upload's record, and a look-up that
 * ran before it landed), so the recovery path runs every time rather than when
 * the scheduler happens to interleave two real uploads.
 */
describe('auto-created upload channels under a race', () => {
  const infra = testInfrastructure();
  const prefix = uniqueName('upload-race');
  const db = prefix.replace(/-/g, '_');
  const logger = createLogger({ service: 'upload-race-test', level: 'warn', destination: new Writable({ write: (_c, _e, d) => d() }) });
  let usersService: RunningUsersService;
  let service: RunningAppsService;
  const developer = { userId: 0, role: 'developer', appIds: [] as number[] };

  beforeAll(async () => {
    // HANGAR_QUERY_LOG_DIR: these recovery paths are query sites the plan check (tests/plans) must see.
    const common = { MONGO_URL: infra.mongoUrl, NATS_URL: infra.natsUrl, NATS_SUBJECT_PREFIX: prefix, GRPC_LISTEN: '127.0.0.1:0', SHUTDOWN_TIMEOUT_MS: '3000', HANGAR_QUERY_LOG_DIR: process.env.HANGAR_QUERY_LOG_DIR };
    usersService = await startUsersService(loadUsersConfig({ ...common, MONGO_DB: `${db}_users` }), logger);
    service = await startAppsService(loadAppsConfig({ ...common, MONGO_DB: `${db}_apps`, USERS_GRPC_TARGET: `127.0.0.1:${usersService.port}` }), logger);
    // The apps service never asks the users service about an uploader: any id will do.
    developer.userId = 4242;
  });

  afterAll(async () => {
    await service?.connection.dropDatabase().catch(() => undefined);
    await usersService?.connection.dropDatabase().catch(() => undefined);
    await service?.stop();
    await usersService?.stop();
  });

  it('when another upload of the same user created the app first, then this upload uses that app', async () => {
    const deps = service.deps;
    const theirs = await deps.apps.create('Raced App', `upload:${developer.userId}:Raced App`);
    const made = await ensureUploadChannel(deps, developer, 'Raced App', 'Android', 'com.example.raced');
    expect(made.app._id).toBe(theirs._id);
    expect((await deps.collaborators.listByApp(theirs._id)).map((c) => [c.userId, c.role])).toEqual([[developer.userId, 'admin']]);
  });

  it('when another upload created the scheme between the look-up and the insert, then this upload uses that scheme', async () => {
    const deps = service.deps;
    const first = await ensureUploadChannel(deps, developer, 'Scheme Race', 'Android', 'com.example.scheme');
    const app = first.app;
    // Their scheme exists under the upload key; this upload's look-up ran before it was there.
    const lookedUpEarly = { ...deps, schemes: Object.assign(Object.create(Object.getPrototypeOf(deps.schemes)), deps.schemes, { findNamed: async () => null }) };
    const made = await ensureUploadChannel(lookedUpEarly, developer, 'Scheme Race', 'Android', 'com.example.scheme');
    expect(made.app._id).toBe(app._id);
    expect(made.scheme._id).toBe(first.scheme._id);
    expect(made.scheme.name).toBe(UPLOAD_SCHEME_NAME);
  });

  it('when another upload created the channel between the look-up and the insert, then this upload uses that channel', async () => {
    const deps = service.deps;
    const first = await ensureUploadChannel(deps, developer, 'Channel Race', 'iOS', 'com.example.channel');
    const lookedUpEarly = { ...deps, channels: Object.assign(Object.create(Object.getPrototypeOf(deps.channels)), deps.channels, { findForDevice: async () => null }) };
    const made = await ensureUploadChannel(lookedUpEarly, developer, 'Channel Race', 'iOS', 'com.example.channel');
    expect(made.channel._id).toBe(first.channel._id);
    expect(made.channel.slug).toBe(first.channel.slug);
  });
});
