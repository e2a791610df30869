import { Writable } from 'node:stream';
import { AckPolicy, DeliverPolicy } from '@nats-io/jetstream';
import { AlreadyExists, FailedPrecondition, InvalidArgument, NotFound, PermissionDenied, Unauthenticated } from '@hangar/errors';
import { connectEventBus, parseEnvelope, streamNameFor, subjectOf } from '@hangar/events';
import { createServiceClient } from '@hangar/grpc';
import { createLogger } from '@hangar/logger';
import { apps, users } from '@hangar/proto';
import { testInfrastructure, uniqueName } from '@hangar/testing';
import { loadUsersConfig } from '../../users/src/config';
import { bootstrapAdmin } from '../../users/src/domain/bootstrap-admin';
import { RunningUsersService, startUsersService } from '../../users/src/users-service';
import { RunningAppsService, startAppsService } from '../src/apps-service';
import { loadAppsConfig } from '../src/config';

/**
 * Tester groups over the apps service's real gRPC server, on FerretDB and NATS: who may manage
 * them, what an invitation records, join links and their seats, single-use sign-in links,
 * sessions whose reach follows the memberships, and what deletes take with them.
 */
describe('tester groups and tester access (apps service over gRPC)', () => {
  const infra = testInfrastructure();
  const prefix = uniqueName('testers-ct');
  const db = prefix.replace(/-/g, '_');
  const logger = createLogger({ service: 'testers-test', level: 'warn', destination: new Writable({ write: (c, _e, d) => (process.env.DEBUG_LOGS && process.stderr.write(c), d()) }) });
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
  async function newUser(role: 'developer' | 'member' = 'developer') {
    n += 1;
    const user = await usersClient.createUser({ actor: admin, username: `testers-user-${n}`, email: `testers-user-${n}@example.com`, password: 'password-123', role });
    return { userId: user.id, role: user.role };
  }

  /** An app owned by a new developer (its admin), with one scheme and two channels. */
  async function appWithChannels() {
    const owner = await newUser();
    const app = await client.createApp({ actor: owner, name: uniqueName('Tested') });
    const scheme = await client.createScheme({ actor: owner, appId: app.id, name: 'Beta', newBuildCallout: true, retainedBuilds: 0 });
    const channel = (name: string) => client.createChannel({ actor: owner, schemeId: scheme.id, name, deviceType: 'ios', bundleId: '*' });
    const [ios, android] = [await channel('iOS'), await channel('Android')];
    return { owner, app, scheme, ios, android };
  }

  const LINK_BASE = 'https://hangar.example.com';

  /** Signs `email` in as the mailer and the tester would: a sign-in link of theirs in the app, redeemed. */
  async function signIn(appId: number, email: string): Promise<string> {
    const { groups } = await client.listTesterGroups({ actor: admin, appId });
    const tester = groups.flatMap((g) => g.testers).find((t) => t.email === email)!;
    const link = await client.issueTesterSignIn({ testerId: tester.id });
    return (await client.redeemTesterSignIn({ secret: link.secret, userAgent: 'jest' })).secret;
  }

  it('when an app admin makes a group, then it holds the channels; a developer collaborator, a channel of another app and a blank name are refused', async () => {
    const { owner, app, ios } = await appWithChannels();
    const group = await client.createTesterGroup({ actor: owner, appId: app.id, name: 'QA', channelIds: [ios.id] });
    expect(group).toMatchObject({ appId: app.id, name: 'QA', channelIds: [ios.id], testers: [] });

    const developer = await newUser();
    await client.addCollaborator({ actor: owner, appId: app.id, userId: developer.userId, role: 'developer' });
    await expect(client.listTesterGroups({ actor: developer, appId: app.id })).rejects.toBeInstanceOf(PermissionDenied);
    await expect(client.createTesterGroup({ actor: developer, appId: app.id, name: 'Mine', channelIds: [] })).rejects.toBeInstanceOf(PermissionDenied);

    const other = await appWithChannels();
    const foreign = client.createTesterGroup({ actor: owner, appId: app.id, name: 'Foreign', channelIds: [other.ios.id] });
    await expect(foreign).rejects.toBeInstanceOf(InvalidArgument);
    await expect(foreign).rejects.toMatchObject({ entry: { channel_ids: [`${other.ios.id} is not a channel of this app`] } });
    await expect(client.createTesterGroup({ actor: owner, appId: app.id, name: '  ', channelIds: [] })).rejects.toBeInstanceOf(InvalidArgument);
    await expect(client.createTesterGroup({ actor: owner, appId: app.id, name: 'qa', channelIds: [] })).rejects.toBeInstanceOf(AlreadyExists);
    // Another app's group is not found through this app.
    await expect(client.getTesterGroup({ actor: owner, appId: other.app.id, groupId: group.id })).rejects.toBeInstanceOf(PermissionDenied);
    await expect(client.getTesterGroup({ actor: other.owner, appId: other.app.id, groupId: group.id })).rejects.toBeInstanceOf(NotFound);
  });

  it('when testers are added from a pasted CSV, then each new address is a member with its tester.invited, and one already there is named back', async () => {
    const { owner, app, ios } = await appWithChannels();
    const group = await client.createTesterGroup({ actor: owner, appId: app.id, name: 'CSV', channelIds: [ios.id] });
    const bus = await connectEventBus(infra.natsUrl, 'testers-test', logger);
    const durable = uniqueName('invited').replace(/[^a-z0-9-]/g, '');
    await bus.jsm.consumers.add(streamNameFor(prefix), { durable_name: durable, filter_subject: subjectOf('tester.invited', prefix), ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.New });
    try {
      const csv = 'email,name\nAda@Example.com,Ada\n"Grace Hopper <grace@example.com>",Grace\n';
      const first = await client.addTesters({ actor: owner, appId: app.id, groupId: group.id, emails: [csv], linkBase: LINK_BASE });
      expect(first.added.map((t) => [t.email, t.state])).toEqual([
        ['ada@example.com', 'invited'],
        ['grace@example.com', 'invited'],
      ]);
      const again = await client.addTesters({ actor: owner, appId: app.id, groupId: group.id, emails: ['ada@example.com; linus@example.com'], linkBase: LINK_BASE });
      expect(again.added.map((t) => t.email)).toEqual(['linus@example.com']);
      expect(again.alreadyMembers).toEqual(['ada@example.com']);

      const consumer = await bus.js.consumers.get(streamNameFor(prefix), durable);
      const seen: number[] = [];
      while (seen.length < 3) {
        const msg = await consumer.next({ expires: 5_000 });
        if (!msg) break;
        const envelope = parseEnvelope(msg.string());
        seen.push((envelope.data as { tester_id: number }).tester_id);
        msg.ack();
      }
      expect(seen.sort()).toEqual([...first.added, ...again.added].map((t) => t.id).sort());
    } finally {
      await bus.nc.drain();
    }

    const bad = client.addTesters({ actor: owner, appId: app.id, groupId: group.id, emails: ['ok@example.com\nnot-an-address\nx@y'], linkBase: LINK_BASE });
    await expect(bad).rejects.toMatchObject({ entry: { emails: ["'not-an-address' is not an e-mail address", "'x@y' is not an e-mail address"] } });
    // Nothing of a refused list is added.
    expect((await client.getTesterGroup({ actor: owner, appId: app.id, groupId: group.id })).testers.map((t) => t.email)).not.toContain('ok@example.com');
  });

  it('when a sign-in link is used, then it works once, starts a session that opens the group\'s channels, and the tester shows as joined', async () => {
    const { owner, app, ios, android } = await appWithChannels();
    const group = await client.createTesterGroup({ actor: owner, appId: app.id, name: 'Phones', channelIds: [ios.id] });
    const { added } = await client.addTesters({ actor: owner, appId: app.id, groupId: group.id, emails: ['jane@example.com'], linkBase: LINK_BASE });
    const link = await client.issueTesterSignIn({ testerId: added[0]!.id });
    expect(link).toMatchObject({ email: 'jane@example.com', appName: app.name, groupName: 'Phones', linkBase: LINK_BASE });

    const session = await client.redeemTesterSignIn({ secret: link.secret, userAgent: 'jest' });
    await expect(client.redeemTesterSignIn({ secret: link.secret, userAgent: 'jest' })).rejects.toBeInstanceOf(Unauthenticated);
    const identity = await client.authenticateTester({ secret: session.secret, sessionId: 0 });
    expect(identity.channels.map((c) => [c.channelId, c.appName, c.channelName])).toEqual([[ios.id, app.name, 'iOS']]);
    // The install link's form: the session by its id.
    expect((await client.authenticateTester({ secret: '', sessionId: identity.sessionId })).email).toBe('jane@example.com');

    // A channel added to the group is open at once; the state shows joined and the last download.
    await client.updateTesterGroup({ actor: owner, appId: app.id, groupId: group.id, setChannelIds: true, channelIds: [ios.id, android.id] });
    expect((await client.authenticateTester({ secret: session.secret, sessionId: 0 })).channels.map((c) => c.channelId)).toEqual([ios.id, android.id]);
    await client.recordTesterDownload({ email: 'jane@example.com', channelId: android.id, releaseId: 42 });
    const [tester] = (await client.getTesterGroup({ actor: owner, appId: app.id, groupId: group.id })).testers;
    expect(tester).toMatchObject({ state: 'joined', lastDownloadReleaseId: 42 });
    expect(tester!.joinedAtMs).toBeGreaterThan(0);

    // Signing out ends that session only.
    const second = await client.redeemTesterSignIn({ secret: (await client.issueTesterSignIn({ testerId: added[0]!.id })).secret, userAgent: 'jest' });
    await client.endTesterSession({ secret: second.secret, sessionId: 0 });
    await expect(client.authenticateTester({ secret: second.secret, sessionId: 0 })).rejects.toBeInstanceOf(Unauthenticated);

    // A deleted channel leaves the group; the session ends when the tester is removed.
    await client.deleteChannel({ actor: owner, id: android.id });
    expect((await client.getTesterGroup({ actor: owner, appId: app.id, groupId: group.id })).channelIds).toEqual([ios.id]);
    await client.removeTester({ actor: owner, appId: app.id, groupId: group.id, testerId: tester!.id });
    await expect(client.authenticateTester({ secret: session.secret, sessionId: 0 })).rejects.toBeInstanceOf(Unauthenticated);
    await expect(client.authenticateTester({ secret: '', sessionId: identity.sessionId })).rejects.toBeInstanceOf(Unauthenticated);
    await expect(client.issueTesterSignIn({ testerId: tester!.id })).rejects.toBeInstanceOf(NotFound);
  });

  it('when a sign-in link has expired, then it is refused', async () => {
    const expiring = await startAppsService(
      loadAppsConfig({ MONGO_URL: infra.mongoUrl, NATS_URL: infra.natsUrl, NATS_SUBJECT_PREFIX: prefix, GRPC_LISTEN: '127.0.0.1:0', SHUTDOWN_TIMEOUT_MS: '3000', MONGO_DB: `${db}_apps`, USERS_GRPC_TARGET: `127.0.0.1:${usersService.port}`, TESTER_SIGN_IN_TTL_MS: '0' }),
      logger,
    );
    try {
      const shortLived = createServiceClient(apps.AppsServiceDefinition, `127.0.0.1:${expiring.port}`);
      const { owner, app, ios } = await appWithChannels();
      const group = await client.createTesterGroup({ actor: owner, appId: app.id, name: 'Late', channelIds: [ios.id] });
      const { added } = await client.addTesters({ actor: owner, appId: app.id, groupId: group.id, emails: ['late@example.com'], linkBase: LINK_BASE });
      const link = await shortLived.issueTesterSignIn({ testerId: added[0]!.id });
      await expect(client.redeemTesterSignIn({ secret: link.secret, userAgent: 'jest' })).rejects.toThrow('expired');
    } finally {
      await expiring.stop();
    }
  });

  it('when a limited join link is used by more addresses at once than it has seats, then exactly its seats join; a member joining again takes none', async () => {
    const { owner, app, ios } = await appWithChannels();
    const group = await client.createTesterGroup({ actor: owner, appId: app.id, name: 'Open beta', channelIds: [ios.id] });
    const link = await client.createJoinLink({ actor: owner, appId: app.id, groupId: group.id, expiresAtMs: 0, seats: 2, linkBase: LINK_BASE });
    expect(link.secret).toMatch(/^[A-Za-z0-9]{43}$/);
    const results = await Promise.allSettled(['a', 'b', 'c', 'd', 'e'].map((who) => client.joinTesterGroup({ secret: link.secret, email: `${who}@example.com` })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason)).toEqual(Array(3).fill(expect.any(FailedPrecondition)));
    const members = (await client.getTesterGroup({ actor: owner, appId: app.id, groupId: group.id })).testers.map((t) => t.email);
    expect(members).toHaveLength(2);
    await expect(client.joinTesterGroup({ secret: link.secret, email: members[0]! })).resolves.toEqual({});
    // The sign-in link of who joined points where the admin made the join link, never elsewhere.
    const joiner = (await client.getTesterGroup({ actor: owner, appId: app.id, groupId: group.id })).testers[0]!;
    expect((await client.issueTesterSignIn({ testerId: joiner.id })).linkBase).toBe(LINK_BASE);
    const [listed] = (await client.listJoinLinks({ actor: owner, appId: app.id, groupId: group.id })).links;
    expect(listed).toMatchObject({ id: link.id, seats: 2, usedSeats: 2, secret: '' });

    const expired = await client.createJoinLink({ actor: owner, appId: app.id, groupId: group.id, expiresAtMs: Date.now() + 60_000, seats: 0, linkBase: LINK_BASE });
    await client.deleteJoinLink({ actor: owner, appId: app.id, groupId: group.id, linkId: expired.id });
    await expect(client.joinTesterGroup({ secret: expired.secret, email: 'f@example.com' })).rejects.toBeInstanceOf(NotFound);
    await expect(client.joinTesterGroup({ secret: 'no-such-link', email: 'f@example.com' })).rejects.toBeInstanceOf(NotFound);
    await expect(client.createJoinLink({ actor: owner, appId: app.id, groupId: group.id, expiresAtMs: Date.now() - 1, seats: 0, linkBase: LINK_BASE })).rejects.toBeInstanceOf(InvalidArgument);
  });

  it("when a link's stored seat count is behind its taken seats (a slower taker's write landing last), then the list counts the seats taken", async () => {
    const { owner, app, ios } = await appWithChannels();
    const group = await client.createTesterGroup({ actor: owner, appId: app.id, name: 'Counted', channelIds: [ios.id] });
    const link = await client.createJoinLink({ actor: owner, appId: app.id, groupId: group.id, expiresAtMs: 0, seats: 3, linkBase: LINK_BASE });
    for (const who of ['g', 'h']) await client.joinTesterGroup({ secret: link.secret, email: `${who}@example.com` });
    // What the first of two takers at once wrote last, when each wrote its own number on the link.
    await service.connection.collection('tester_join_links').updateOne({ _id: link.id as never }, { $set: { usedSeats: 1 } });
    const [listed] = (await client.listJoinLinks({ actor: owner, appId: app.id, groupId: group.id })).links;
    expect(listed).toMatchObject({ id: link.id, seats: 3, usedSeats: 2 });
  });

  it('when a group or its app is deleted, then its testers in no other group are signed out, and one still in another group keeps that group\'s channels', async () => {
    const { owner, app, ios, android } = await appWithChannels();
    const first = await client.createTesterGroup({ actor: owner, appId: app.id, name: 'First', channelIds: [ios.id] });
    const second = await client.createTesterGroup({ actor: owner, appId: app.id, name: 'Second', channelIds: [android.id] });
    await client.addTesters({ actor: owner, appId: app.id, groupId: first.id, emails: ['both@example.com, only@example.com'], linkBase: LINK_BASE });
    await client.addTesters({ actor: owner, appId: app.id, groupId: second.id, emails: ['both@example.com'], linkBase: LINK_BASE });
    const [both, only] = [await signIn(app.id, 'both@example.com'), await signIn(app.id, 'only@example.com')];

    await client.deleteTesterGroup({ actor: owner, appId: app.id, groupId: first.id });
    await expect(client.authenticateTester({ secret: only, sessionId: 0 })).rejects.toBeInstanceOf(Unauthenticated);
    expect((await client.authenticateTester({ secret: both, sessionId: 0 })).channels.map((c) => c.channelId)).toEqual([android.id]);

    await client.deleteApp({ actor: owner, id: app.id });
    await expect(client.authenticateTester({ secret: both, sessionId: 0 })).rejects.toBeInstanceOf(Unauthenticated);
  });

  it('when an address asks for a sign-in link, then a member is invited again and a stranger gets the same empty answer', async () => {
    const { owner, app, ios } = await appWithChannels();
    const group = await client.createTesterGroup({ actor: owner, appId: app.id, name: 'Again', channelIds: [ios.id] });
    const { added } = await client.addTesters({ actor: owner, appId: app.id, groupId: group.id, emails: ['again@example.com'], linkBase: LINK_BASE });
    const before = added[0]!.invitedAtMs;
    await expect(client.requestTesterSignIn({ email: 'Again@Example.com' })).resolves.toEqual({});
    expect((await client.getTesterGroup({ actor: owner, appId: app.id, groupId: group.id })).testers[0]!.invitedAtMs).toBeGreaterThanOrEqual(before);
    await expect(client.requestTesterSignIn({ email: 'stranger@example.com' })).resolves.toEqual({});
    await expect(client.requestTesterSignIn({ email: 'not an address' })).rejects.toBeInstanceOf(InvalidArgument);
  });

  describe('iOS devices', () => {
    const UDID = '00008030-001A2C3E0E38802E';
    const OLD_UDID = 'a'.repeat(40);

    it('when a live session registers a device, then it is the tester\'s, named by its model until renamed, and registering it again keeps one device and its name', async () => {
      const { owner, app, ios } = await appWithChannels();
      const group = await client.createTesterGroup({ actor: owner, appId: app.id, name: 'Devices', channelIds: [ios.id] });
      await client.addTesters({ actor: owner, appId: app.id, groupId: group.id, emails: ['jane@example.com'], linkBase: LINK_BASE });
      const secret = await signIn(app.id, 'jane@example.com');
      const { sessionId } = await client.authenticateTester({ secret, sessionId: 0 });

      // iOS 16 and later send the family alone as the device's name: the model says more.
      const first = await client.registerTesterDevice({ sessionId, udid: UDID, product: 'iPhone15,2', osVersion: '21A329', name: 'iPhone' });
      expect(first).toMatchObject({ email: 'jane@example.com', udid: UDID, product: 'iPhone15,2', osVersion: '21A329', name: 'iPhone (iPhone15,2)' });
      const renamed = await client.renameTesterDevice({ secret, deviceId: first.id, name: "  Jane's iPhone 15 " });
      expect(renamed.name).toBe("Jane's iPhone 15");
      const again = await client.registerTesterDevice({ sessionId, udid: UDID, product: 'iPhone15,2', osVersion: '22A3354', name: 'iPhone' });
      expect(again).toMatchObject({ id: first.id, name: "Jane's iPhone 15", osVersion: '22A3354' });
      const ipad = await client.registerTesterDevice({ sessionId, udid: OLD_UDID, product: 'iPad8,1', osVersion: '20G75', name: 'Studio iPad' });
      expect(ipad.name).toBe('Studio iPad');
      expect((await client.listTesterDevices({ secret, sessionId: 0 })).devices.map((d) => d.udid)).toEqual([UDID, OLD_UDID]);
      expect((await client.listTesterDevices({ secret: '', sessionId })).devices).toHaveLength(2);
    });

    it('when the UDID, model or name is not one, the session is unknown, or the device is another tester\'s, then nothing changes', async () => {
      const { owner, app, ios } = await appWithChannels();
      const group = await client.createTesterGroup({ actor: owner, appId: app.id, name: 'Bad devices', channelIds: [ios.id] });
      await client.addTesters({ actor: owner, appId: app.id, groupId: group.id, emails: ['a@example.com, b@example.com'], linkBase: LINK_BASE });
      const [a, b] = [await signIn(app.id, 'a@example.com'), await signIn(app.id, 'b@example.com')];
      const { sessionId } = await client.authenticateTester({ secret: a, sessionId: 0 });
      for (const udid of ['', 'not-a-udid', `${UDID}'; drop`, 'g'.repeat(40)]) {
        await expect(client.registerTesterDevice({ sessionId, udid, product: 'iPhone15,2', osVersion: '21A329', name: '' })).rejects.toBeInstanceOf(InvalidArgument);
      }
      await expect(client.registerTesterDevice({ sessionId, udid: UDID, product: '<script>', osVersion: '21A329', name: '' })).rejects.toBeInstanceOf(InvalidArgument);
      await expect(client.registerTesterDevice({ sessionId: 0, udid: UDID, product: 'iPhone15,2', osVersion: '', name: '' })).rejects.toBeInstanceOf(Unauthenticated);
      await expect(client.registerTesterDevice({ sessionId: 999_999_999, udid: UDID, product: 'iPhone15,2', osVersion: '', name: '' })).rejects.toBeInstanceOf(Unauthenticated);

      const device = await client.registerTesterDevice({ sessionId, udid: UDID, product: 'iPhone15,2', osVersion: '21A329', name: '' });
      await expect(client.renameTesterDevice({ secret: a, deviceId: device.id, name: ' ' })).rejects.toBeInstanceOf(InvalidArgument);
      await expect(client.renameTesterDevice({ secret: a, deviceId: device.id, name: 'x'.repeat(61) })).rejects.toBeInstanceOf(InvalidArgument);
      await expect(client.renameTesterDevice({ secret: a, deviceId: device.id, name: 'a\u0000b' })).rejects.toBeInstanceOf(InvalidArgument);
      await expect(client.renameTesterDevice({ secret: b, deviceId: device.id, name: 'Mine now' })).rejects.toBeInstanceOf(NotFound);
      await expect(client.removeTesterDevice({ secret: b, deviceId: device.id })).rejects.toBeInstanceOf(NotFound);
      await expect(client.removeTesterDevice({ secret: 'nobody', deviceId: device.id })).rejects.toBeInstanceOf(Unauthenticated);
      expect((await client.listTesterDevices({ secret: a, sessionId: 0 })).devices).toEqual([expect.objectContaining({ id: device.id, name: 'iPhone (iPhone15,2)' })]);
      expect((await client.listTesterDevices({ secret: b, sessionId: 0 })).devices).toEqual([]);
    });

    it('when a tester has 20 devices, then a 21st is refused but one of the 20 registers again', async () => {
      const { owner, app, ios } = await appWithChannels();
      const group = await client.createTesterGroup({ actor: owner, appId: app.id, name: 'Lab', channelIds: [ios.id] });
      await client.addTesters({ actor: owner, appId: app.id, groupId: group.id, emails: ['lab@example.com'], linkBase: LINK_BASE });
      const { sessionId } = await client.authenticateTester({ secret: await signIn(app.id, 'lab@example.com'), sessionId: 0 });
      const udid = (i: number) => `00008030-${String(i).padStart(16, '0')}`;
      for (let i = 0; i < 20; i++) await client.registerTesterDevice({ sessionId, udid: udid(i), product: 'iPhone15,2', osVersion: '', name: '' });
      await expect(client.registerTesterDevice({ sessionId, udid: udid(20), product: 'iPhone15,2', osVersion: '', name: '' })).rejects.toBeInstanceOf(FailedPrecondition);
      await expect(client.registerTesterDevice({ sessionId, udid: udid(3), product: 'iPhone15,3', osVersion: '', name: '' })).resolves.toMatchObject({ product: 'iPhone15,3' });
    });

    it("when an app's admin lists a channel's testers' devices, then they are those of every group opening it (unsubscribed included), others are refused, and a tester removed from every group loses their devices", async () => {
      const { owner, app, ios, android } = await appWithChannels();
      const opening = await client.createTesterGroup({ actor: owner, appId: app.id, name: 'Opening', channelIds: [ios.id] });
      const elsewhere = await client.createTesterGroup({ actor: owner, appId: app.id, name: 'Elsewhere', channelIds: [android.id] });
      await client.addTesters({ actor: owner, appId: app.id, groupId: opening.id, emails: ['in@example.com, muted@example.com'], linkBase: LINK_BASE });
      await client.addTesters({ actor: owner, appId: app.id, groupId: elsewhere.id, emails: ['out@example.com'], linkBase: LINK_BASE });
      const muted = (await client.getTesterGroup({ actor: owner, appId: app.id, groupId: opening.id })).testers.find((t) => t.email === 'muted@example.com')!;
      const [key] = (await client.listChannelTesters({ channelId: ios.id })).testers.filter((t) => t.testerId === muted.id).map((t) => t.unsubscribeKey);
      await client.unsubscribeTester({ testerId: muted.id, key: key! });
      const register = async (email: string, udid: string) => {
        const { sessionId } = await client.authenticateTester({ secret: await signIn(app.id, email), sessionId: 0 });
        return client.registerTesterDevice({ sessionId, udid, product: 'iPhone15,2', osVersion: '', name: '' });
      };
      await register('in@example.com', '00008030-0000000000000001');
      await register('muted@example.com', '00008030-0000000000000002');
      await register('out@example.com', '00008030-0000000000000003');

      const listed = await client.listChannelTesterDevices({ actor: owner, channelId: ios.id });
      expect(listed.channelSlug).toBe(ios.slug);
      expect(listed.devices.map((d) => [d.email, d.udid]).sort()).toEqual([
        ['in@example.com', '00008030-0000000000000001'],
        ['muted@example.com', '00008030-0000000000000002'],
      ]);
      const developer = await newUser();
      await client.addCollaborator({ actor: owner, appId: app.id, userId: developer.userId, role: 'developer' });
      await expect(client.listChannelTesterDevices({ actor: developer, channelId: ios.id })).rejects.toBeInstanceOf(PermissionDenied);
      await expect(client.listChannelTesterDevices({ actor: await newUser(), channelId: ios.id })).rejects.toBeInstanceOf(PermissionDenied);
      await expect(client.listChannelTesterDevices({ actor: owner, channelId: 999_999_999 })).rejects.toBeInstanceOf(NotFound);

      const tester = (await client.getTesterGroup({ actor: owner, appId: app.id, groupId: opening.id })).testers.find((t) => t.email === 'in@example.com')!;
      await client.removeTester({ actor: owner, appId: app.id, groupId: opening.id, testerId: tester.id });
      expect((await client.listChannelTesterDevices({ actor: owner, channelId: ios.id })).devices.map((d) => d.email)).toEqual(['muted@example.com']);
      // Back in a group, the address starts with no device: the old ones went with the last membership.
      await client.addTesters({ actor: owner, appId: app.id, groupId: opening.id, emails: ['in@example.com'], linkBase: LINK_BASE });
      expect((await client.listTesterDevices({ secret: await signIn(app.id, 'in@example.com'), sessionId: 0 })).devices).toEqual([]);
    });
  });
});
