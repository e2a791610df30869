import { Writable } from 'node:stream';
import { AckPolicy, DeliverPolicy } from '@nats-io/jetstream';
import { AlreadyExists, FailedPrecondition, InvalidArgument, NotFound, PermissionDenied, Unauthenticated } from '@hangar/errors';
import { connectEventBus, parseEnvelope, streamNameFor, subjectOf } from '@hangar/events';
import { createServiceClient } from '@hangar/grpc';
import { createLogger } from '@hangar/logger';
import { apps, users } from '@hangar/proto';
import { testInfrastructure, uniqueName } from '@hangar/testing';
// The real users service, in-process: collaborators need real users and user.deleted.
import { loadUsersConfig } from '../../users/src/config';
import { bootstrapAdmin } from '../../users/src/domain/bootstrap-admin';
import { RunningUsersService, startUsersService } from '../../users/src/users-service';
import { RunningAppsService, startAppsService } from '../src/apps-service';
import { loadAppsConfig } from '../src/config';

/**
 * The apps service as deployed — its real gRPC server and client, FerretDB,
 * NATS and a real users service — without the gateway.
 */
describe('apps service over gRPC', () => {
  const infra = testInfrastructure();
  const prefix = uniqueName('apps-ct');
  const db = prefix.replace(/-/g, '_');
  const logger = createLogger({ service: 'apps-test', level: 'warn', destination: new Writable({ write: (c, _e, d) => (process.env.DEBUG_LOGS && process.stderr.write(c), d()) }) });
  let usersService: RunningUsersService;
  let service: RunningAppsService;
  let usersClient: ReturnType<typeof createServiceClient<typeof users.UsersServiceDefinition>>;
  let client: ReturnType<typeof createServiceClient<typeof apps.AppsServiceDefinition>>;
  const admin = { userId: 0, role: 'admin' };

  beforeAll(async () => {
    const common = { MONGO_URL: infra.mongoUrl, NATS_URL: infra.natsUrl, NATS_SUBJECT_PREFIX: prefix, GRPC_LISTEN: '127.0.0.1:0', SHUTDOWN_TIMEOUT_MS: '3000' };
    usersService = await startUsersService(loadUsersConfig({ ...common, MONGO_DB: `${db}_users` }), logger);
    usersClient = createServiceClient(users.UsersServiceDefinition, `127.0.0.1:${usersService.port}`);
    const boot = await bootstrapAdmin(usersService.deps, { email: 'root@example.com', password: 'bootstrap-pass', token: 'bootstrap-token-0123456789' }, logger);
    if (!boot.created) throw new Error('expected a bootstrap admin');
    admin.userId = boot.userId;
    service = await startAppsService(loadAppsConfig({ ...common, MONGO_DB: `${db}_apps`, USERS_GRPC_TARGET: `127.0.0.1:${usersService.port}` }), logger);
    client = createServiceClient(apps.AppsServiceDefinition, `127.0.0.1:${service.port}`);
  });

  afterAll(async () => {
    await service?.connection.dropDatabase().catch(() => undefined);
    await usersService?.connection.dropDatabase().catch(() => undefined);
    await service?.stop();
    await usersService?.stop();
  });

  let n = 0;
  async function newUser(role: 'admin' | 'developer' | 'member' = 'developer') {
    n += 1;
    const user = await usersClient.createUser({ actor: admin, username: `apps-user-${n}`, email: `apps-user-${n}@example.com`, password: 'password-123', role });
    return { userId: user.id, role: user.role, username: user.username, email: user.email };
  }

  /** A consumer on the stream that collects every apps event published from now on. */
  async function eventProbe() {
    const bus = await connectEventBus(infra.natsUrl, 'apps-test', logger);
    const stream = streamNameFor(prefix);
    const durable = uniqueName('probe').replace(/[^a-z0-9-]/g, '');
    // One wildcard filter: app.deleted, scheme.deleted and channel.deleted share the apps domain.
    const filter = subjectOf('app.deleted', prefix).replace(/\.app\.deleted\.v1$/, '.>');
    await bus.jsm.consumers.add(stream, { durable_name: durable, filter_subject: filter, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.New });
    const consumer = await bus.js.consumers.get(stream, durable);
    const seen: { type: string; data: Record<string, number> }[] = [];
    return {
      seen,
      async waitFor(done: () => boolean) {
        const deadline = Date.now() + 10_000;
        while (!done() && Date.now() < deadline) {
          const msg = await consumer.next({ expires: 1_000 });
          if (msg) {
            const envelope = parseEnvelope(msg.string());
            seen.push({ type: envelope.type, data: envelope.data as Record<string, number> });
            msg.ack();
          }
        }
      },
      close: () => bus.nc.drain(),
    };
  }

  async function appWithTree(owner: { userId: number; role: string }) {
    const app = await client.createApp({ actor: owner, name: uniqueName('app') });
    const scheme = await client.createScheme({ actor: owner, appId: app.id, name: 'Beta' });
    const channel = await client.createChannel({ actor: owner, schemeId: scheme.id, name: 'Android', deviceType: 'Android' });
    return { app, scheme, channel };
  }

  describe('apps', () => {
    it('when a developer creates an app, then they are its admin collaborator with their name and email', async () => {
      const dev = await newUser('developer');
      const app = await client.createApp({ actor: dev, name: '  My App ' });
      expect(app).toMatchObject({ name: 'My App', schemes: [], collaborators: [{ userId: dev.userId, username: dev.username, email: dev.email, role: 'admin' }] });
      expect(Number.isInteger(app.id) && app.id > 0).toBe(true);
    });

    it('when a member creates an app or the name is blank, then it is refused and nothing is stored', async () => {
      const member = await newUser('member');
      const before = (await client.listApps({ actor: admin, page: { page: 1, perPage: 1 } })).total;
      await expect(client.createApp({ actor: member, name: 'Nope' })).rejects.toBeInstanceOf(PermissionDenied);
      const blank = await client.createApp({ actor: admin, name: ' ' }).catch((e: unknown) => e);
      expect(blank).toBeInstanceOf(InvalidArgument);
      expect((blank as InvalidArgument).entry).toEqual({ name: ["can't be blank"] });
      expect((await client.listApps({ actor: admin, page: { page: 1, perPage: 1 } })).total).toBe(before);
    });

    it('when apps are listed, then admins see all, others only theirs, newest first', async () => {
      const a = await newUser('developer');
      const b = await newUser('developer');
      const first = await client.createApp({ actor: a, name: 'first' });
      const second = await client.createApp({ actor: a, name: 'second' });
      const other = await client.createApp({ actor: b, name: 'other' });
      const mine = await client.listApps({ actor: a, page: { page: 1, perPage: 10 } });
      expect(mine.apps.map((x) => x.id)).toEqual([second.id, first.id]);
      expect(mine.total).toBe(2);
      const all = await client.listApps({ actor: admin, page: { page: 1, perPage: 100 } });
      expect(all.apps.map((x) => x.id)).toEqual(expect.arrayContaining([first.id, second.id, other.id]));
      expect(all.apps[0]!.id).toBe(other.id);
      const paged = await client.listApps({ actor: a, page: { page: 2, perPage: 1 } });
      expect(paged.apps.map((x) => x.id)).toEqual([first.id]);
    });

    it('when an app with schemes and channels is read, then the tree is nested', async () => {
      const dev = await newUser();
      const { app, scheme, channel } = await appWithTree(dev);
      const got = await client.getApp({ actor: dev, id: app.id });
      expect(got.schemes).toEqual([{ ...scheme, channels: [channel] }]);
      expect(scheme).toMatchObject({ name: 'Beta', newBuildCallout: true, retainedBuilds: 0 });
      expect(channel).toMatchObject({ deviceType: 'android', bundleId: '*', hasPassword: false });
      expect(channel.gitUrl).toBeUndefined();
    });

    it('when an app is renamed, then the new name is stored', async () => {
      const dev = await newUser();
      const app = await client.createApp({ actor: dev, name: 'old' });
      expect((await client.updateApp({ actor: dev, id: app.id, name: 'new' })).name).toBe('new');
      expect((await client.getApp({ actor: dev, id: app.id })).name).toBe('new');
    });

    it('when an unknown app is addressed, then NotFound; without an actor, Unauthenticated', async () => {
      await expect(client.getApp({ actor: admin, id: 987654 })).rejects.toBeInstanceOf(NotFound);
      await expect(client.getApp({ id: 1 })).rejects.toBeInstanceOf(Unauthenticated);
    });
  });

  describe('permissions', () => {
    it('when collaborators of each role act, then each gets what its role allows and denied calls change nothing', async () => {
      const owner = await newUser('developer');
      const { app, scheme, channel } = await appWithTree(owner);
      const [dev, mem, outsider] = [await newUser('developer'), await newUser('developer'), await newUser('developer')];
      await client.addCollaborator({ actor: owner, appId: app.id, userId: dev.userId, role: 'developer' });
      await client.addCollaborator({ actor: owner, appId: app.id, userId: mem.userId, role: 'member' });

      // Member: reads only.
      expect((await client.getApp({ actor: mem, id: app.id })).id).toBe(app.id);
      await expect(client.createScheme({ actor: mem, appId: app.id, name: 'X' })).rejects.toBeInstanceOf(PermissionDenied);
      await expect(client.updateChannel({ actor: mem, id: channel.id, name: 'X' })).rejects.toBeInstanceOf(PermissionDenied);
      // Developer: schemes and channels, not the app itself nor its collaborators.
      expect((await client.updateScheme({ actor: dev, id: scheme.id, retainedBuildsText: '3' })).retainedBuilds).toBe(3);
      await expect(client.updateApp({ actor: dev, id: app.id, name: 'taken over' })).rejects.toBeInstanceOf(PermissionDenied);
      await expect(client.deleteApp({ actor: dev, id: app.id })).rejects.toBeInstanceOf(PermissionDenied);
      await expect(client.addCollaborator({ actor: dev, appId: app.id, userId: outsider.userId, role: 'admin' })).rejects.toBeInstanceOf(PermissionDenied);
      // Not a collaborator: nothing, even with a developer's global role.
      await expect(client.getApp({ actor: outsider, id: app.id })).rejects.toBeInstanceOf(PermissionDenied);
      await expect(client.deleteChannel({ actor: outsider, id: channel.id })).rejects.toBeInstanceOf(PermissionDenied);
      // Permission is checked before validation: a denied bad request is a 403, not a 422.
      await expect(client.updateApp({ actor: mem, id: app.id, name: '' })).rejects.toBeInstanceOf(PermissionDenied);

      const after = await client.getApp({ actor: owner, id: app.id });
      expect(after.name).toBe(app.name);
      expect(after.schemes.map((s) => s.name)).toEqual(['Beta']);
      expect(after.schemes[0]!.channels).toEqual([channel]);
      expect(after.collaborators.map((c) => [c.userId, c.role])).toEqual([
        [owner.userId, 'admin'],
        [dev.userId, 'developer'],
        [mem.userId, 'member'],
      ]);
    });

    it('when CheckPermission is asked for an action, then the role that action needs decides, and an unknown action is InvalidArgument', async () => {
      const owner = await newUser();
      const mem = await newUser();
      const app = await client.createApp({ actor: owner, name: 'perm' });
      await client.addCollaborator({ actor: owner, appId: app.id, userId: mem.userId, role: 'member' });
      await expect(client.checkPermission({ actor: mem, appId: app.id, action: 'releases.read' })).resolves.toEqual({});
      await expect(client.checkPermission({ actor: mem, appId: app.id, action: 'debug_files.read' })).resolves.toEqual({});
      await expect(client.checkPermission({ actor: mem, appId: app.id, action: 'releases.upload' })).rejects.toBeInstanceOf(PermissionDenied);
      await expect(client.checkPermission({ actor: mem, appId: app.id, action: 'audit.read' })).rejects.toBeInstanceOf(PermissionDenied);
      await expect(client.checkPermission({ actor: owner, appId: app.id, action: 'audit.read' })).resolves.toEqual({});
      await expect(client.checkPermission({ actor: admin, appId: app.id, action: 'webhooks.manage' })).resolves.toEqual({});
      await expect(client.checkPermission({ actor: owner, appId: 999_999, action: 'app.read' })).rejects.toBeInstanceOf(NotFound);
      await expect(client.checkPermission({ actor: owner, appId: app.id, action: 'app.own' })).rejects.toBeInstanceOf(InvalidArgument);
      // An action wins over a role sent beside it: a caller cannot ask for less than its action needs.
      await expect(client.checkPermission({ actor: mem, appId: app.id, action: 'releases.edit', role: 'member' })).rejects.toBeInstanceOf(PermissionDenied);
      await expect(client.checkPermission({ actor: owner, appId: app.id, action: '' })).rejects.toBeInstanceOf(InvalidArgument);
    });

    it('when a caller of the release before asks by role (a rolling upgrade), then it still passes at or below the held role', async () => {
      const owner = await newUser();
      const mem = await newUser();
      const app = await client.createApp({ actor: owner, name: 'perm-by-role' });
      await client.addCollaborator({ actor: owner, appId: app.id, userId: mem.userId, role: 'member' });
      await expect(client.checkPermission({ actor: mem, appId: app.id, action: '', role: 'member' })).resolves.toEqual({});
      await expect(client.checkPermission({ actor: mem, appId: app.id, action: '', role: 'developer' })).rejects.toBeInstanceOf(PermissionDenied);
      await expect(client.checkPermission({ actor: owner, appId: app.id, action: '', role: 'owner' })).rejects.toBeInstanceOf(InvalidArgument);
    });
  });

  describe('schemes and channels', () => {
    it('when scheme flags are bad, then InvalidArgument names them and nothing is created', async () => {
      const dev = await newUser();
      const app = await client.createApp({ actor: dev, name: 'flags' });
      const err = await client.createScheme({ actor: dev, appId: app.id, name: 'S', newBuildCalloutText: 'maybe', retainedBuildsText: '1.5' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InvalidArgument);
      expect(Object.keys((err as InvalidArgument).entry!).sort()).toEqual(['new_build_callout', 'retained_builds']);
      expect((await client.listSchemes({ actor: dev, appId: app.id })).schemes).toEqual([]);
      const ok = await client.createScheme({ actor: dev, appId: app.id, name: 'S', newBuildCalloutText: '0', retainedBuildsText: '5' });
      expect(ok).toMatchObject({ newBuildCallout: false, retainedBuilds: 5, channels: [] });
    });

    it('when a custom slug is taken, then AlreadyExists names slug; generated slugs are long and random', async () => {
      const dev = await newUser();
      const { scheme, channel } = await appWithTree(dev);
      expect(channel.slug).toMatch(/^[0-9A-Za-z]{20,}$/);
      const slug = uniqueName('key').replace(/[^a-z0-9-]/g, '');
      const custom = await client.createChannel({ actor: dev, schemeId: scheme.id, name: 'iOS', deviceType: 'IOS', slug, bundleId: 'com.example.*', gitUrl: 'https://git.example/app.git' });
      expect(custom).toMatchObject({ slug, deviceType: 'ios', bundleId: 'com.example.*', gitUrl: 'https://git.example/app.git' });
      const err = await client.createChannel({ actor: dev, schemeId: scheme.id, name: 'dup', deviceType: 'ios', slug }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AlreadyExists);
      expect((err as AlreadyExists).entry).toEqual({ slug: ['has already been taken'] });
      await expect(client.updateChannel({ actor: dev, id: channel.id, slug })).rejects.toBeInstanceOf(AlreadyExists);
      expect((await client.listChannels({ actor: dev, schemeId: scheme.id })).channels.map((c) => c.slug)).toEqual([channel.slug, slug]);
    });

    it('when a channel password is set, then only its scrypt hash is stored, it verifies, and clearing it opens the channel', async () => {
      const dev = await newUser();
      const { scheme } = await appWithTree(dev);
      const channel = await client.createChannel({ actor: dev, schemeId: scheme.id, name: 'Locked', deviceType: 'linux', password: 'let-me-in' });
      expect(channel.hasPassword).toBe(true);
      const stored = await service.connection.collection('channels').findOne({ _id: channel.id as never });
      expect(stored?.passwordHash).toMatch(/^scrypt\$/);
      expect(JSON.stringify(stored)).not.toContain('let-me-in');
      expect((await client.verifyChannelPassword({ channelKey: channel.slug, password: 'let-me-in' })).ok).toBe(true);
      expect((await client.verifyChannelPassword({ channelKey: channel.slug, password: 'wrong' })).ok).toBe(false);
      await client.setChannelPassword({ actor: dev, channelId: channel.id, password: '' });
      expect((await client.getChannel({ actor: dev, id: channel.id })).hasPassword).toBe(false);
      expect((await client.verifyChannelPassword({ channelKey: channel.slug, password: '' })).ok).toBe(true);
    });

    it('when a channel is password-protected, then its key must be strong: a weak custom slug with a password, a weak slug on a protected channel, or a password on a weak-slug channel is 422', async () => {
      const dev = await newUser();
      const { scheme } = await appWithTree(dev);
      const weak = uniqueName('k').replace(/[^a-z0-9-]/g, '').slice(0, 12);
      const strong = `${weak}-AbCdEfGhIjKlMnOp`;
      const refusedCreate = await client.createChannel({ actor: dev, schemeId: scheme.id, name: 'Locked', deviceType: 'linux', slug: weak, password: 'let-me-in' }).catch((e: unknown) => e);
      expect(refusedCreate).toBeInstanceOf(InvalidArgument);
      expect(Object.keys((refusedCreate as InvalidArgument).entry!)).toEqual(['slug']);
      expect((await client.listChannels({ actor: dev, schemeId: scheme.id })).channels.map((c) => c.slug)).not.toContain(weak);

      const open = await client.createChannel({ actor: dev, schemeId: scheme.id, name: 'Open', deviceType: 'linux', slug: weak });
      const refusedPassword = await client.setChannelPassword({ actor: dev, channelId: open.id, password: 'let-me-in' }).catch((e: unknown) => e);
      expect(refusedPassword).toBeInstanceOf(InvalidArgument);
      expect(Object.keys((refusedPassword as InvalidArgument).entry!)).toEqual(['password']);
      await expect(client.updateChannel({ actor: dev, id: open.id, password: 'let-me-in' })).rejects.toBeInstanceOf(InvalidArgument);
      expect((await client.getChannel({ actor: dev, id: open.id })).hasPassword).toBe(false);

      const locked = await client.createChannel({ actor: dev, schemeId: scheme.id, name: 'Locked', deviceType: 'linux', slug: strong, password: 'let-me-in' });
      expect(locked).toMatchObject({ slug: strong, hasPassword: true });
      const refusedSlug = await client.updateChannel({ actor: dev, id: locked.id, slug: `${weak}x` }).catch((e: unknown) => e);
      expect(refusedSlug).toBeInstanceOf(InvalidArgument);
      expect(Object.keys((refusedSlug as InvalidArgument).entry!)).toEqual(['slug']);
      // 20 characters but one repeated: no stronger than a few.
      await expect(client.updateChannel({ actor: dev, id: locked.id, slug: 'a'.repeat(24) })).rejects.toBeInstanceOf(InvalidArgument);
      expect((await client.getChannel({ actor: dev, id: locked.id })).slug).toBe(strong);
      // A generated key is always strong enough.
      const generated = await client.createChannel({ actor: dev, schemeId: scheme.id, name: 'Gen', deviceType: 'linux', password: 'let-me-in' });
      expect(generated.hasPassword).toBe(true);
    });

    it('when a channel key is resolved, then its channel, scheme and app come back; unknown keys are NotFound', async () => {
      const dev = await newUser();
      const { app, scheme, channel } = await appWithTree(dev);
      const ctx = await client.resolveChannel({ channelKey: channel.slug, channelId: 0 });
      expect(ctx.app).toMatchObject({ id: app.id, name: app.name });
      expect(ctx.scheme).toMatchObject({ id: scheme.id, name: 'Beta' });
      expect(ctx.channel).toEqual(channel);
      await expect(client.resolveChannel({ channelKey: 'no-such-key', channelId: 0 })).rejects.toBeInstanceOf(NotFound);
      await expect(client.resolveChannel({ channelKey: '', channelId: 0 })).rejects.toBeInstanceOf(NotFound);
      expect((await client.resolveChannel({ channelKey: '', channelId: channel.id })).channel).toEqual(channel);
    });
  });

  describe('collaborators', () => {
    it('when a collaborator is added twice, with an unknown user or an unknown role, then each is refused with its field', async () => {
      const owner = await newUser();
      const other = await newUser('member');
      const app = await client.createApp({ actor: owner, name: 'collabs' });
      const added = await client.addCollaborator({ actor: owner, appId: app.id, userId: other.userId, role: 'developer' });
      expect(added).toEqual({ userId: other.userId, username: other.username, email: other.email, role: 'developer' });
      const twice = await client.addCollaborator({ actor: owner, appId: app.id, userId: other.userId, role: 'member' }).catch((e: unknown) => e);
      expect(twice).toBeInstanceOf(AlreadyExists);
      const unknown = await client.addCollaborator({ actor: owner, appId: app.id, userId: 999_999, role: 'member' }).catch((e: unknown) => e);
      expect((unknown as InvalidArgument).entry).toEqual({ user_id: ['does not exist'] });
      const role = await client.addCollaborator({ actor: owner, appId: app.id, userId: admin.userId, role: 'owner' }).catch((e: unknown) => e);
      expect((role as InvalidArgument).entry).toEqual({ role: ['must be one of member, developer, admin'] });
      expect((await client.listCollaborators({ actor: owner, appId: app.id })).collaborators).toHaveLength(2);
    });

    it('when the last admin would be demoted or removed, then FailedPrecondition; with a second admin it works', async () => {
      const owner = await newUser();
      const other = await newUser();
      const app = await client.createApp({ actor: owner, name: 'admins' });
      await expect(client.updateCollaborator({ actor: owner, appId: app.id, userId: owner.userId, role: 'member' })).rejects.toBeInstanceOf(FailedPrecondition);
      await expect(client.removeCollaborator({ actor: admin, appId: app.id, userId: owner.userId })).rejects.toBeInstanceOf(FailedPrecondition);
      await client.addCollaborator({ actor: owner, appId: app.id, userId: other.userId, role: 'admin' });
      expect((await client.updateCollaborator({ actor: owner, appId: app.id, userId: owner.userId, role: 'member' })).role).toBe('member');
      await client.removeCollaborator({ actor: other, appId: app.id, userId: owner.userId });
      await expect(client.getCollaborator({ actor: other, appId: app.id, userId: owner.userId })).rejects.toBeInstanceOf(NotFound);
    });

    it('when a user is deleted, then their collaborations go with them', async () => {
      const owner = await newUser();
      const leaving = await newUser();
      const app = await client.createApp({ actor: owner, name: 'leaving' });
      await client.addCollaborator({ actor: owner, appId: app.id, userId: leaving.userId, role: 'developer' });
      await usersClient.deleteUser({ actor: admin, id: leaving.userId });
      const deadline = Date.now() + 10_000;
      while ((await service.deps.collaborators.find(app.id, leaving.userId)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await service.deps.collaborators.find(app.id, leaving.userId)).toBeNull();
      expect((await client.getApp({ actor: owner, id: app.id })).collaborators.map((c) => c.userId)).toEqual([owner.userId]);
    });
  });

  describe('uploads without a channel key', () => {
    it('when EnsureUploadChannel runs twice and concurrently, then one app, one Adhoc scheme and one channel per platform exist', async () => {
      const dev = await newUser('developer');
      const name = uniqueName('Uploaded');
      const contexts = await Promise.all(Array.from({ length: 5 }, () => client.ensureUploadChannel({ actor: dev, appName: name, deviceType: 'ios', bundleId: 'com.example.app' })));
      const first = contexts[0]!;
      for (const ctx of contexts) expect([ctx.app!.id, ctx.scheme!.id, ctx.channel!.id]).toEqual([first.app!.id, first.scheme!.id, first.channel!.id]);
      expect(first.scheme!.name).toBe('Adhoc');
      expect(first.channel).toMatchObject({ name: 'iOS', deviceType: 'ios', bundleId: '*' });
      const android = await client.ensureUploadChannel({ actor: dev, appName: name, deviceType: 'android', bundleId: 'com.example.app' });
      expect(android.app!.id).toBe(first.app!.id);
      expect(android.channel).toMatchObject({ name: 'Android', deviceType: 'android' });
      const app = await client.getApp({ actor: dev, id: first.app!.id });
      expect(app.schemes.map((s) => [s.name, s.channels.map((c) => c.name)])).toEqual([['Adhoc', ['iOS', 'Android']]]);
      expect(app.collaborators.map((c) => [c.userId, c.role])).toEqual([[dev.userId, 'admin']]);
    });

    it('when another user uploads an app of the same name, then they get their own; a member may not create one', async () => {
      const a = await newUser('developer');
      const b = await newUser('developer');
      const m = await newUser('member');
      const name = uniqueName('Shared');
      const mine = await client.ensureUploadChannel({ actor: a, appName: name, deviceType: 'macos', bundleId: 'x' });
      const theirs = await client.ensureUploadChannel({ actor: b, appName: name, deviceType: 'macos', bundleId: 'x' });
      expect(theirs.app!.id).not.toBe(mine.app!.id);
      await expect(client.ensureUploadChannel({ actor: m, appName: name, deviceType: 'macos', bundleId: 'x' })).rejects.toBeInstanceOf(PermissionDenied);
      await expect(client.ensureUploadChannel({ actor: a, appName: name, deviceType: 'tv', bundleId: 'x' })).rejects.toBeInstanceOf(InvalidArgument);
    });
  });

  describe('deletes', () => {
    it('when a channel, a scheme and an app are deleted, then their events are published, children are gone and tombstones removed', async () => {
      const probe = await eventProbe();
      try {
        const dev = await newUser();
        const { app, scheme, channel } = await appWithTree(dev);
        const second = await client.createChannel({ actor: dev, schemeId: scheme.id, name: 'Two', deviceType: 'ios' });
        const other = await client.createScheme({ actor: dev, appId: app.id, name: 'Other' });
        const otherChannel = await client.createChannel({ actor: dev, schemeId: other.id, name: 'Three', deviceType: 'windows' });

        await client.deleteChannel({ actor: dev, id: channel.id });
        await expect(client.getChannel({ actor: dev, id: channel.id })).rejects.toBeInstanceOf(NotFound);
        await expect(client.resolveChannel({ channelKey: channel.slug, channelId: 0 })).rejects.toBeInstanceOf(NotFound);
        await client.deleteScheme({ actor: dev, id: scheme.id });
        await expect(client.getChannel({ actor: dev, id: second.id })).rejects.toBeInstanceOf(NotFound);
        await client.deleteApp({ actor: dev, id: app.id });
        await expect(client.getApp({ actor: admin, id: app.id })).rejects.toBeInstanceOf(NotFound);
        await expect(client.getScheme({ actor: admin, id: other.id })).rejects.toBeInstanceOf(NotFound);
        await expect(client.resolveChannel({ channelKey: otherChannel.slug, channelId: 0 })).rejects.toBeInstanceOf(NotFound);
        await expect(client.deleteApp({ actor: dev, id: app.id })).rejects.toBeInstanceOf(NotFound);

        await probe.waitFor(() => probe.seen.length >= 3);
        expect(probe.seen).toEqual(
          expect.arrayContaining([
            { type: 'channel.deleted', data: { app_id: app.id, scheme_id: scheme.id, channel_id: channel.id } },
            { type: 'scheme.deleted', data: { app_id: app.id, scheme_id: scheme.id } },
            { type: 'app.deleted', data: { app_id: app.id } },
          ]),
        );
        await service.relay.flush();
        const left = await Promise.all(
          [
            ['apps', app.id],
            ['schemes', scheme.id],
            ['schemes', other.id],
            ['channels', channel.id],
            ['channels', second.id],
            ['channels', otherChannel.id],
          ].map(([collection, id]) => service.connection.collection(collection as string).findOne({ _id: id as never })),
        );
        expect(left).toEqual([null, null, null, null, null, null]);
        expect(await service.deps.collaborators.listByApp(app.id)).toEqual([]);
      } finally {
        await probe.close();
      }
    });
  });

  it('when another service asks to describe an app, then it gets the id and name alone; an unknown app is NotFound (webhooks: services/webhooks)', async () => {
    const app = await client.createApp({ actor: admin, name: uniqueName('described') });
    await client.createScheme({ actor: admin, appId: app.id, name: 'Beta' });
    expect(await client.describeApp({ id: app.id })).toEqual({ id: app.id, name: app.name, schemes: [], collaborators: [], createdAtMs: app.createdAtMs });
    await expect(client.describeApp({ id: 987654 })).rejects.toBeInstanceOf(NotFound);
  });
});
