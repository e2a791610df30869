import { Writable } from 'node:stream';
import { createServiceClient } from '@hangar/grpc';
import { createLogger, currentRequestId, runWithContext } from '@hangar/logger';
import { apps, users } from '@hangar/proto';
import { dropTestDatabases, testInfrastructure, uniqueName } from '@hangar/testing';
import { loadUsersConfig } from '../../users/src/config';
import { bootstrapAdmin } from '../../users/src/domain/bootstrap-admin';
import { RunningUsersService, startUsersService } from '../../users/src/users-service';
import { RunningAppsService, startAppsService } from '../src/apps-service';
import { loadAppsConfig } from '../src/config';
import { repairAppTrees } from '../src/domain/app-trees';
import { listApps } from '../src/domain/manage-apps';

/**
 * The apps list (the console's first page) read from each app's tree: the same queries for a
 * page of 100 apps as for a page of 10, and the same answer the apps' own schemes and channels
 * give, after every kind of write. The apps service as deployed (its gRPC server, FerretDB,
 * NATS and a real users service); queries counted by mongoose's debug hook on the service's
 * connection, for the request being measured only (its request id), so the outbox relay's
 * polling in the background is not counted.
 */
describe('apps list from the apps trees', () => {
  const infra = testInfrastructure();
  const prefix = uniqueName('apps-list');
  const db = prefix.replace(/-/g, '_');
  const logger = createLogger({ service: 'apps-list-test', level: 'warn', destination: new Writable({ write: (c, _e, d) => (process.env.DEBUG_LOGS && process.stderr.write(c), d()) }) });
  let usersService: RunningUsersService;
  let service: RunningAppsService;
  let client: ReturnType<typeof createServiceClient<typeof apps.AppsServiceDefinition>>;
  const admin = { userId: 0, role: 'admin' };

  beforeAll(async () => {
    const common = { MONGO_URL: infra.mongoUrl, NATS_URL: infra.natsUrl, NATS_SUBJECT_PREFIX: prefix, GRPC_LISTEN: '127.0.0.1:0', SHUTDOWN_TIMEOUT_MS: '3000' };
    usersService = await startUsersService(loadUsersConfig({ ...common, MONGO_DB: `${db}_users` }), logger);
    const boot = await bootstrapAdmin(usersService.deps, { email: 'root@example.com', password: 'bootstrap-pass', token: 'bootstrap-token-0123456789' }, logger);
    if (!boot.created) throw new Error('expected a bootstrap admin');
    admin.userId = boot.userId;
    service = await startAppsService(loadAppsConfig({ ...common, MONGO_DB: `${db}_apps`, USERS_GRPC_TARGET: `127.0.0.1:${usersService.port}` }), logger);
    // The setup makes 330 records, ten at a time: on a loaded CI machine one call can outlast the
    // default 10 s deadline, and this file measures query counts, not latency.
    client = createServiceClient(apps.AppsServiceDefinition, `127.0.0.1:${service.port}`, { defaultDeadlineMs: 60_000 });
  });

  afterAll(async () => {
    await service?.stop();
    await usersService?.stop();
    await dropTestDatabases([`${db}_apps`, `${db}_users`]);
  });

  /** The database commands `fn` makes in the apps service, by collection and method. */
  async function queriesOf<T>(fn: () => Promise<T>): Promise<{ result: T; queries: string[] }> {
    const requestId = `counted-${uniqueName('q')}`;
    const queries: string[] = [];
    service.connection.set('debug', (collection: string, method: string) => {
      if (currentRequestId() === requestId) queries.push(`${collection}.${method}`);
    });
    try {
      const result = await runWithContext({ requestId }, fn);
      return { result, queries };
    } finally {
      service.connection.set('debug', undefined);
    }
  }

  /** What the list must show for an app: its own answer (read from the schemes and channels collections), without collaborators. */
  async function expectedEntry(id: number): Promise<apps.App> {
    const app = await client.getApp({ actor: admin, id });
    return { ...app, collaborators: [] };
  }

  /** The whole list, as bytes on the wire, against each app's own answer. */
  async function expectListMatchesApps(): Promise<apps.App[]> {
    const listed = (await client.listApps({ actor: admin, page: { page: 1, perPage: 100 } })).apps;
    const expected = await Promise.all(listed.map((a) => expectedEntry(a.id)));
    expect(Buffer.from(apps.AppList.encode({ apps: listed, total: listed.length }).finish())).toEqual(
      Buffer.from(apps.AppList.encode({ apps: expected, total: expected.length }).finish()),
    );
    return listed;
  }

  async function appWithTree(name: string) {
    const app = await client.createApp({ actor: admin, name });
    const scheme = await client.createScheme({ actor: admin, appId: app.id, name: 'Beta' });
    const channel = await client.createChannel({ actor: admin, schemeId: scheme.id, name: 'Android', deviceType: 'Android' });
    return { app, scheme, channel };
  }

  it('when an admin lists a page of 100 apps and a page of 10, then both cost the same queries, and each app comes with its scheme and channel', async () => {
    for (let i = 0; i < 110; i += 10) await Promise.all(Array.from({ length: 10 }, (_, j) => appWithTree(`app ${i + j}`)));

    const ten = await queriesOf(() => listApps(service.deps, { ...admin, appIds: [] }, 1, 10));
    const hundred = await queriesOf(() => listApps(service.deps, { ...admin, appIds: [] }, 1, 100));

    expect(ten.result.apps).toHaveLength(10);
    expect(hundred.result.apps).toHaveLength(100);
    expect(hundred.result.apps.every((a) => a.schemes.length === 1 && a.schemes[0]!.channels.length === 1)).toBe(true);
    // Before the trees: 2 + one per app + one per scheme, 202 at 100 apps and 22 at 10.
    expect(hundred.queries.length).toBeGreaterThan(0); // the hook saw the request
    expect(hundred.queries.sort()).toEqual(ten.queries.sort());
    expect(hundred.queries.length).toBeLessThanOrEqual(2);
    await expectListMatchesApps();
  });

  it('when apps, schemes and channels are renamed, changed, protected and deleted, then the list answers what the apps themselves answer', async () => {
    const a = await appWithTree('edited app');
    const b = await appWithTree('deleted app');
    const second = await client.createScheme({ actor: admin, appId: a.app.id, name: 'Release' });
    const extra = await client.createChannel({ actor: admin, schemeId: second.id, name: 'iOS', deviceType: 'iOS', gitUrl: 'https://example.com/repo.git' });

    await client.updateApp({ actor: admin, id: a.app.id, name: 'renamed app' });
    await client.updateScheme({ actor: admin, id: a.scheme.id, name: 'Beta 2', retainedBuilds: 5 });
    await client.updateChannel({ actor: admin, id: a.channel.id, name: 'Android 2', bundleId: 'com.example.app' });
    await client.setChannelPassword({ actor: admin, channelId: extra.id, password: 'visit-secret' });
    let listed = await expectListMatchesApps();
    const entry = listed.find((x) => x.id === a.app.id)!;
    expect(entry.name).toBe('renamed app');
    expect(entry.schemes.map((s) => [s.name, s.retainedBuilds, s.channels.map((c) => [c.name, c.hasPassword, c.gitUrl ?? null])])).toEqual([
      ['Beta 2', 5, [['Android 2', false, null]]],
      ['Release', 0, [['iOS', true, 'https://example.com/repo.git']]],
    ]);

    await client.deleteChannel({ actor: admin, id: a.channel.id });
    await client.deleteScheme({ actor: admin, id: second.id });
    await client.deleteApp({ actor: admin, id: b.app.id });
    listed = await expectListMatchesApps();
    expect(listed.find((x) => x.id === a.app.id)!.schemes).toEqual([expect.objectContaining({ id: a.scheme.id, channels: [] })]);
    expect(listed.some((x) => x.id === b.app.id)).toBe(false);

    // An upload without a channel key makes an app, its scheme and its channel in one call.
    const upload = await client.ensureUploadChannel({ actor: admin, appName: 'uploaded app', deviceType: 'android', bundleId: 'com.example.up' });
    listed = await expectListMatchesApps();
    expect(listed.find((x) => x.id === upload.app!.id)!.schemes[0]!.channels.map((c) => c.id)).toEqual([upload.channel!.id]);
  });

  it('when channels are added to one app at once, then the list holds every one of them', async () => {
    const { app, scheme } = await appWithTree('busy app');
    const made = await Promise.all(Array.from({ length: 12 }, (_, i) => client.createChannel({ actor: admin, schemeId: scheme.id, name: `Channel ${i}`, deviceType: 'Android' })));
    const listed = await expectListMatchesApps();
    expect(listed.find((x) => x.id === app.id)!.schemes[0]!.channels).toHaveLength(13);
    expect(made).toHaveLength(12);
  });

  it('when a tree is missing or stale (written by an older version, or a process stopped before its refresh), then the repair at start mends it', async () => {
    const a = await appWithTree('repaired app');
    const b = await appWithTree('stale app');
    const trees = service.connection.collection('app_trees');
    await trees.deleteOne({ _id: a.app.id } as never);
    await trees.updateOne({ _id: b.app.id } as never, { $set: { name: 'old name', schemes: [] } });
    await trees.insertOne({ _id: 999_999, name: 'gone app', createdAt: new Date(), schemes: [], revision: 1 } as never);

    expect(await repairAppTrees(service.deps)).toBe(3);
    const listed = await expectListMatchesApps();
    expect(listed.map((x) => x.id)).toEqual(expect.arrayContaining([a.app.id, b.app.id]));
    expect(listed.find((x) => x.id === b.app.id)!.name).toBe('stale app');
    expect(listed.some((x) => x.id === 999_999)).toBe(false);
    expect(await repairAppTrees(service.deps)).toBe(0);
  });
});
