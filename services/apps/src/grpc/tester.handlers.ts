import type { apps } from '@hangar/proto';
import type { CountedJoinLink } from '../data/tester-access.model';
import type { TesterDeviceDocument } from '../data/tester-device.model';
import type { TesterDocument } from '../data/tester.model';
import { requireActor } from '../domain/actor';
import type { AppsDeps } from '../domain/deps';
import {
  TesterGroupView,
  addTesters,
  createJoinLink,
  createTesterGroup,
  deleteJoinLink,
  deleteTesterGroup,
  getTesterGroup,
  listJoinLinks,
  listTesterGroups,
  removeTester,
  updateTesterGroup,
} from '../domain/manage-tester-groups';
import {
  authenticateTester,
  endTesterSession,
  issueTesterSignIn,
  joinTesterGroup,
  listChannelTesters,
  recordTesterDownload,
  redeemTesterSignIn,
  requestTesterSignIn,
  unsubscribeTester,
} from '../domain/tester-access';
import { listChannelTesterDevices, listTesterDevices, registerTesterDevice, removeTesterDevice, renameTesterDevice } from '../domain/tester-devices';

/** The tester RPCs: no cache holds what they write (apps-service.ts leaves them unbumped). */
export const TESTER_RPCS = [
  'createTesterGroup',
  'listTesterGroups',
  'getTesterGroup',
  'updateTesterGroup',
  'deleteTesterGroup',
  'addTesters',
  'removeTester',
  'createJoinLink',
  'listJoinLinks',
  'deleteJoinLink',
  'joinTesterGroup',
  'requestTesterSignIn',
  'issueTesterSignIn',
  'redeemTesterSignIn',
  'authenticateTester',
  'endTesterSession',
  'recordTesterDownload',
  'listChannelTesters',
  'unsubscribeTester',
  'registerTesterDevice',
  'listTesterDevices',
  'renameTesterDevice',
  'removeTesterDevice',
  'listChannelTesterDevices',
] as const satisfies readonly (keyof apps.AppsServiceImplementation)[];

type TesterRpcs = Pick<apps.AppsServiceImplementation, (typeof TESTER_RPCS)[number]>;

/** Thin edge of the tester groups and the testers' own sign-in: proto in, use case, proto out. */
export function testerHandlers(deps: AppsDeps): TesterRpcs {
  return {
    async createTesterGroup(req) {
      return toGroup(await createTesterGroup(deps, requireActor(req.actor), req.appId, req.name, req.channelIds));
    },
    async listTesterGroups(req) {
      return { groups: (await listTesterGroups(deps, requireActor(req.actor), req.appId)).map(toGroup) };
    },
    async getTesterGroup(req) {
      return toGroup(await getTesterGroup(deps, requireActor(req.actor), req.appId, req.groupId));
    },
    async updateTesterGroup(req) {
      const input = { ...(req.name !== undefined ? { name: req.name } : {}), ...(req.setChannelIds ? { channelIds: req.channelIds } : {}) };
      return toGroup(await updateTesterGroup(deps, requireActor(req.actor), req.appId, req.groupId, input));
    },
    async deleteTesterGroup(req) {
      await deleteTesterGroup(deps, requireActor(req.actor), req.appId, req.groupId);
      return {};
    },
    async addTesters(req) {
      const result = await addTesters(deps, requireActor(req.actor), req.appId, req.groupId, req.emails, req.linkBase);
      return { added: result.added.map(toTester), alreadyMembers: result.alreadyMembers };
    },
    async removeTester(req) {
      await removeTester(deps, requireActor(req.actor), req.appId, req.groupId, req.testerId);
      return {};
    },
    async createJoinLink(req) {
      const { link, secret } = await createJoinLink(deps, requireActor(req.actor), req.appId, req.groupId, req.expiresAtMs, req.seats, req.linkBase);
      return { ...toJoinLink({ ...link, usedSeats: 0 }), secret };
    },
    async listJoinLinks(req) {
      return { links: (await listJoinLinks(deps, requireActor(req.actor), req.appId, req.groupId)).map(toJoinLink) };
    },
    async deleteJoinLink(req) {
      await deleteJoinLink(deps, requireActor(req.actor), req.appId, req.groupId, req.linkId);
      return {};
    },

    async joinTesterGroup(req) {
      await joinTesterGroup(deps, req.secret, req.email);
      return {};
    },
    async requestTesterSignIn(req) {
      await requestTesterSignIn(deps, req.email);
      return {};
    },
    async issueTesterSignIn(req) {
      const issued = await issueTesterSignIn(deps, req.testerId);
      return { secret: issued.secret, email: issued.tester.email, appName: issued.appName, groupName: issued.groupName, linkBase: issued.tester.linkBase, expiresAtMs: issued.expiresAt.getTime() };
    },
    async redeemTesterSignIn(req) {
      const session = await redeemTesterSignIn(deps, req.secret, req.userAgent);
      return { secret: session.secret, email: session.email, expiresAtMs: session.expiresAt.getTime() };
    },
    async authenticateTester(req) {
      return authenticateTester(deps, req.secret, req.sessionId);
    },
    async endTesterSession(req) {
      await endTesterSession(deps, req.secret);
      return {};
    },
    async recordTesterDownload(req) {
      await recordTesterDownload(deps, req.email, req.channelId, req.releaseId);
      return {};
    },
    async listChannelTesters(req) {
      const testers = await listChannelTesters(deps, req.channelId);
      return { testers: testers.map((t) => ({ testerId: t._id, email: t.email, linkBase: t.linkBase, unsubscribeKey: t.unsubscribeKey ?? '' })) };
    },
    async unsubscribeTester(req) {
      await unsubscribeTester(deps, req.testerId, req.key);
      return {};
    },

    async registerTesterDevice(req) {
      return toDevice(await registerTesterDevice(deps, req.sessionId, { udid: req.udid, product: req.product, osVersion: req.osVersion }, req.name));
    },
    async listTesterDevices(req) {
      return { devices: (await listTesterDevices(deps, req.secret, req.sessionId)).map(toDevice) };
    },
    async renameTesterDevice(req) {
      return toDevice(await renameTesterDevice(deps, req.secret, req.deviceId, req.name));
    },
    async removeTesterDevice(req) {
      await removeTesterDevice(deps, req.secret, req.deviceId);
      return {};
    },
    async listChannelTesterDevices(req) {
      const { slug, devices } = await listChannelTesterDevices(deps, requireActor(req.actor), req.channelId);
      return { channelSlug: slug, devices: devices.map(toDevice) };
    },
  };
}

function toGroup(view: TesterGroupView): apps.TesterGroup {
  return {
    id: view.group._id,
    appId: view.group.appId,
    name: view.group.name,
    channelIds: view.group.channelIds,
    testers: view.testers.map(toTester),
    createdAtMs: view.group.createdAt.getTime(),
  };
}

function toTester(tester: TesterDocument): apps.Tester {
  return {
    id: tester._id,
    groupId: tester.groupId,
    email: tester.email,
    state: tester.state,
    invitedAtMs: tester.invitedAt.getTime(),
    joinedAtMs: tester.joinedAt?.getTime() ?? 0,
    lastDownloadReleaseId: tester.lastDownloadReleaseId ?? 0,
    lastDownloadAtMs: tester.lastDownloadAt?.getTime() ?? 0,
  };
}

function toDevice(device: TesterDeviceDocument): apps.TesterDevice {
  return {
    id: device._id,
    email: device.email,
    udid: device.udid,
    product: device.product,
    osVersion: device.osVersion,
    name: device.name,
    createdAtMs: device.createdAt.getTime(),
    updatedAtMs: device.updatedAt.getTime(),
  };
}

function toJoinLink(link: CountedJoinLink): apps.JoinLink {
  return { id: link._id, groupId: link.groupId, secret: '', expiresAtMs: link.expiresAt?.getTime() ?? 0, seats: link.seats, usedSeats: link.usedSeats, createdAtMs: link.createdAt.getTime() };
}
