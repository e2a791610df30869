import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiClient, ApiResponse, RunningHangar, TestUser, apiClient, createUserWithToken, fixturesDir, startHangar, uniqueName } from '@hangar/testing';
import { WebhookReceiver } from './webhook-receiver';

/**
 * Every operation of the OpenAPI document × the callers of PRODUCT §2: no
 * token, a revoked token, another user's token, an app member's token, and
 * the two who may do everything (the app's owner, a global admin). Each cell
 * asserts its status, the error shape of a refusal, and that a refusal
 * changed nothing while an allowed write did change something (so the
 * snapshot can see what the route would touch). Calls are made in turn, on
 * one shared fixture unless they write. The results are rendered into
 * docs/auth-matrix.md; a route added to the document without a row here
 * fails the coverage test.
 */

const DOC = path.resolve(__dirname, '..', '..', 'docs', 'auth-matrix.md');
const UPDATE = process.env.UPDATE_AUTH_DOCS === '1';
const LOCK_PASSWORD = 'visit-code-42';

type Role = 'member' | 'developer' | 'admin';
const RANK: Record<Role, number> = { member: 1, developer: 2, admin: 3 };

type CallerName = 'none' | 'revoked' | 'otherUser' | 'member' | 'owner' | 'admin' | 'ciUpload' | 'otherApp';
interface Caller {
  name: CallerName;
  heading: string;
  description: string;
  /** Global role of a caller with a valid token. */
  global?: Role;
  /** Collaborator role on the fixture app. */
  onApp?: Role;
}

const CALLERS: Caller[] = [
  { name: 'none', heading: 'no token', description: 'no token at all' },
  { name: 'revoked', heading: 'revoked token', description: "a token of the global admin, revoked before use (PRODUCT §2: revocation takes effect at once)" },
  { name: 'otherUser', heading: 'other user', description: 'a valid token of another user: global role `member`, no role on the app', global: 'member' },
  { name: 'member', heading: 'app member', description: 'a collaborator with role `member` on the app (global role `member`)', global: 'member', onApp: 'member' },
  { name: 'owner', heading: 'app owner', description: "the app's creator, hence its `admin` collaborator (global role `developer`)", global: 'developer', onApp: 'admin' },
  { name: 'admin', heading: 'admin', description: 'a global `admin`, not a collaborator of the app', global: 'admin' },
  {
    name: 'ciUpload',
    heading: 'upload token of the app',
    description: "a token of the app owner with the scope `upload` only, limited to the app (a CI job's token): the owner's answer where the route's scopes include `upload`, 403 elsewhere",
    global: 'developer',
    onApp: 'admin',
  },
  {
    name: 'otherApp',
    heading: 'token of another app',
    description: "a token of the app owner with every scope, limited to another app of the owner: 403 on this app's routes, on creating apps and on managing accounts, the owner's answer where no app is concerned",
    global: 'developer',
    onApp: 'admin',
  },
];

/** Who may call an operation, as PRODUCT §1–2 and the seed say. */
type Access =
  /** No token is read at all (system routes, install pages). */
  | { kind: 'open' }
  /** The channel key is the credential; a token, when sent, is still checked (a bad one is 401). */
  | { kind: 'channelKey' }
  | { kind: 'anyUser' }
  /** User management, or another user's account: global admins (the user themselves too, not a column here). */
  | { kind: 'admin'; self?: boolean }
  /** Global admins and developers. */
  | { kind: 'createApp' }
  /** The least collaborator role on the app; global admins pass. */
  | { kind: 'app'; least: Role }
  /** Whoever made it (the app owner in the fixture): a resumable upload, a teardown; anyone else, admins too, is told it does not exist. */
  | { kind: 'uploader' }
  /** Whose session it is: the app owner signed in for the fixture; anyone else, admins too, is told it does not exist. */
  | { kind: 'ownSession' }
  /** The console's own session routes read only the session cookie: every token caller is 401. */
  | { kind: 'sessionCookie' }
  /** The tester view reads only a tester's cookie (`hangar_tester`): every token caller is 401. */
  | { kind: 'testerCookie' };

function whoMay(access: Access): string {
  switch (access.kind) {
    case 'open':
      return 'anyone';
    case 'channelKey':
      return 'anyone with the channel key';
    case 'anyUser':
      return 'any user';
    case 'admin':
      return access.self ? 'admin, or the user themselves' : 'admin';
    case 'createApp':
      return 'admin or developer';
    case 'app':
      return `app ${access.least}+`;
    case 'uploader':
      return 'its creator (anyone else: 404)';
    case 'ownSession':
      return 'the session\'s user (anyone else: 404)';
    case 'sessionCookie':
      return 'the session cookie only (a token: 401)';
    case 'testerCookie':
      return "a tester's cookie only (a token: 401)";
  }
}

/** The parts of a fixture a route addresses; writing routes get fresh ones. */
type Part = 'app' | 'release' | 'debugFile' | 'webhook' | 'user' | 'upload' | 'teardown' | 'session' | 'testerGroup';

interface Fixture {
  appId: number;
  schemeId: number;
  channelId: number;
  channelKey: string;
  lockedKey: string;
  releaseId: number;
  debugFileId: number;
  /** A Linux channel beside the iOS one, holding the ELF debug file. */
  linuxKey: string;
  /** A Windows channel beside it, holding the PDB. */
  windowsKey: string;
  /** An Android channel beside it, holding the ProGuard mapping of 1.0 (1). */
  androidKey: string;
  webhookId: number;
  /** A tester group of the app opening its iOS channel, with one tester and one join link (its token too). */
  testerGroupId: number;
  testerId: number;
  joinLinkId: number;
  joinToken: string;
  /** Resumable uploads of the app owner, one per tus operation (termination would end the others'). */
  uploadIds: Record<'head' | 'patch' | 'delete', string>;
  /** The owner's scoped tokens append to and end uploads of their own: after the owner's token, the first ones are used up. */
  scopedUploadIds: Record<'ciUpload' | 'otherApp', Record<'patch' | 'delete', string>>;
  /** A teardown made by the app owner. */
  teardownId: string;
  /** A console session of the app owner. */
  sessionId: number;
  /** A user other than every caller, the target of the users and tokens routes. */
  user?: TestUser;
  /** The owner's token scoped to `upload`, limited to this fixture's app. */
  ciToken?: string;
}

interface RouteCase {
  access: Access;
  ok: number;
  params?: (f: Fixture, caller?: CallerName) => Record<string, string | number>;
  query?: (f: Fixture) => Record<string, string>;
  form?: (f: Fixture, marker: string) => Record<string, string>;
  urlencoded?: (f: Fixture) => Record<string, string>;
  /** Request headers (the tus protocol's) and a raw body. */
  headers?: (f: Fixture) => Record<string, string>;
  rawBody?: string;
  file?: 'ipa' | 'dsym' | 'dsym-multi';
  /**
   * A write: each caller allowed to make it does so on a fixture of its own
   * with these parts, and must change the snapshot; refused callers use the
   * shared fixture and must not.
   */
  writes?: Part[];
  /** Account management: a limited token (app limit, or scopes without `admin`) is refused, whatever its user may do. */
  account?: true;
  /** A browser's page: a refusal is a page that says why, not the contract's JSON error. */
  page?: true;
}

const app = (least: Role): Access => ({ kind: 'app', least });
const OPEN: Access = { kind: 'open' };
const KEY: Access = { kind: 'channelKey' };
const key = (f: Fixture) => ({ channel_key: f.channelKey });
const TUS = { 'tus-resumable': '1.0.0' };
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** One row per operationId of the OpenAPI document. */
const ROUTES: Record<string, RouteCase> = {
  // System
  getVersion: { access: OPEN, ok: 200 },
  getApiVersion: { access: OPEN, ok: 200 },
  getHealth: { access: OPEN, ok: 200 },
  getOpenApi: { access: OPEN, ok: 200 },

  // Users and tokens: the target is a user who is none of the callers.
  listUsers: { access: { kind: 'admin' }, ok: 200, account: true },
  createUser: { access: { kind: 'admin' }, ok: 201, account: true, writes: [], form: (_f, m) => ({ username: m, email: `${m}@example.com`, password: 'long-enough-pw' }) },
  getMe: { access: { kind: 'anyUser' }, ok: 200 },
  searchUsers: { access: { kind: 'admin' }, ok: 200, account: true, query: (f) => ({ email: f.user!.email }) },
  getUser: { access: { kind: 'admin', self: true }, ok: 200, account: true, params: (f) => ({ id: f.user!.id }) },
  updateUser: {
    access: { kind: 'admin', self: true },
    ok: 200,
    account: true,
    writes: ['user'],
    params: (f) => ({ id: f.user!.id }),
    form: (f) => ({ username: f.user!.username, email: f.user!.email, password: 'another-long-pw', timezone: 'Asia/Tokyo' }),
  },
  patchUser: { access: { kind: 'admin', self: true }, ok: 200, account: true, writes: ['user'], params: (f) => ({ id: f.user!.id }), form: () => ({ timezone: 'Asia/Tokyo' }) },
  deleteUser: { access: { kind: 'admin' }, ok: 200, account: true, writes: ['user'], params: (f) => ({ id: f.user!.id }) },
  listTokens: { access: { kind: 'admin', self: true }, ok: 200, account: true, params: (f) => ({ id: f.user!.id }) },
  createToken: { access: { kind: 'admin', self: true }, ok: 201, account: true, writes: ['user'], params: (f) => ({ id: f.user!.id }), form: (_f, m) => ({ name: m }) },
  revokeToken: { access: { kind: 'admin', self: true }, ok: 200, account: true, writes: ['user'], params: (f) => ({ id: f.user!.id, token_id: f.user!.tokenId }) },
  // A wrong current password: whoever gets past authentication hears 422, and nothing changes.
  // The change itself is in tests/e2e/console-sessions.test.ts.
  changePassword: { access: { kind: 'anyUser' }, ok: 422, account: true, form: () => ({ current_password: 'not-the-password', password: 'another-long-pw' }) },

  // Console sessions: what a session sees is not in the snapshot (it changes no app or user).
  signIn: { access: OPEN, ok: 201, form: (f) => ({ email: f.user!.email, password: 'long-enough-pw' }) },
  getCurrentSession: { access: { kind: 'sessionCookie' }, ok: 200 },
  // Single sign-on: no identity provider is configured here (404); with one, tests/e2e/single-sign-on.test.ts.
  getSignInOptions: { access: OPEN, ok: 200 },
  startSingleSignOn: { access: OPEN, ok: 404 },
  finishSingleSignOn: { access: OPEN, ok: 404, query: () => ({ code: 'a-code', state: 'a-state' }) },
  redeemCliSignIn: { access: OPEN, ok: 404, form: () => ({ code: 'a-code', verifier: 'a-verifier' }) },
  signOut: { access: { kind: 'sessionCookie' }, ok: 200 },
  listSessions: { access: { kind: 'anyUser' }, ok: 200 },
  revokeSession: { access: { kind: 'ownSession' }, ok: 200, account: true, params: (f) => ({ id: f.sessionId }) },
  revokeOtherSessions: { access: { kind: 'sessionCookie' }, ok: 200 },

  // Audit log: global admins, and an app's admins for that app (app_id).
  listAuditEntries: { access: app('admin'), ok: 200, query: (f) => ({ app_id: String(f.appId) }) },

  // Apps
  listApps: { access: { kind: 'anyUser' }, ok: 200 },
  createApp: { access: { kind: 'createApp' }, ok: 201, writes: [], form: (_f, m) => ({ name: m }) },
  getApp: { access: app('member'), ok: 200, params: (f) => ({ id: f.appId }) },
  updateApp: { access: app('admin'), ok: 200, writes: ['app'], params: (f) => ({ id: f.appId }), form: (_f, m) => ({ name: m }) },
  deleteApp: { access: app('admin'), ok: 200, writes: ['app'], params: (f) => ({ id: f.appId }) },

  // Builds
  uploadRelease: { access: app('developer'), ok: 201, writes: ['app'], file: 'ipa', form: key },
  listVersions: { access: KEY, ok: 200, query: key },
  latestReleases: { access: KEY, ok: 200, query: (f) => ({ ...key(f), release_version: '0.1', build_version: '1' }) },
  versionExists: { access: KEY, ok: 200, query: (f) => ({ ...key(f), bundle_id: 'com.icyleaf.AppInfoDemo', release_version: '1.2.3', build_version: '5' }) },
  getRelease: { access: app('member'), ok: 200, params: (f) => ({ id: f.releaseId }) },
  updateRelease: { access: app('developer'), ok: 200, writes: ['release'], params: (f) => ({ id: f.releaseId }), form: (_f, m) => ({ changelog: m }) },
  deleteRelease: { access: app('developer'), ok: 200, writes: ['release'], params: (f) => ({ id: f.releaseId }) },
  getReleaseStats: { access: app('member'), ok: 200, params: (f) => ({ id: f.releaseId }) },
  updateCheck: { access: KEY, ok: 200, query: (f) => ({ ...key(f), bundle_id: 'com.icyleaf.AppInfoDemo', release_version: '0.1', build_version: '1' }) },

  // Schemes
  listSchemes: { access: app('member'), ok: 200, params: (f) => ({ app_id: f.appId }) },
  createScheme: { access: app('developer'), ok: 201, writes: ['app'], params: (f) => ({ app_id: f.appId }), form: (_f, m) => ({ name: m, new_build_callout: 'false' }) },
  getScheme: { access: app('member'), ok: 200, params: (f) => ({ id: f.schemeId }) },
  updateScheme: { access: app('developer'), ok: 200, writes: ['app'], params: (f) => ({ id: f.schemeId }), form: (_f, m) => ({ name: m }) },
  deleteScheme: { access: app('developer'), ok: 200, writes: ['app'], params: (f) => ({ id: f.schemeId }) },

  // Channels
  listChannels: { access: app('member'), ok: 200, params: (f) => ({ scheme_id: f.schemeId }) },
  createChannel: { access: app('developer'), ok: 201, writes: ['app'], params: (f) => ({ scheme_id: f.schemeId }), form: (_f, m) => ({ name: m, device_type: 'android' }) },
  getChannel: { access: app('member'), ok: 200, params: (f) => ({ id: f.channelId }) },
  updateChannel: { access: app('developer'), ok: 200, writes: ['app'], params: (f) => ({ id: f.channelId }), form: (_f, m) => ({ name: m }) },
  deleteChannel: { access: app('developer'), ok: 200, writes: ['app'], params: (f) => ({ id: f.channelId }) },

  // Collaborators: `spare` is a member collaborator, `extra` none (both callers of no column).
  listCollaborators: { access: app('member'), ok: 200, params: (f) => ({ app_id: f.appId }) },
  addCollaboratorFromBody: { access: app('admin'), ok: 201, writes: ['app'], params: (f) => ({ app_id: f.appId }), form: () => ({ user_id: String(people.extra.id), role: 'developer' }) },
  getCollaborator: { access: app('member'), ok: 200, params: (f) => ({ app_id: f.appId, user_id: people.spare.id }) },
  addCollaborator: { access: app('admin'), ok: 201, writes: ['app'], params: (f) => ({ app_id: f.appId, user_id: people.extra.id }), form: () => ({ role: 'member' }) },
  updateCollaborator: { access: app('admin'), ok: 200, writes: ['app'], params: (f) => ({ app_id: f.appId, user_id: people.spare.id }), form: () => ({ role: 'developer' }) },
  removeCollaborator: { access: app('admin'), ok: 200, writes: ['app'], params: (f) => ({ app_id: f.appId, user_id: people.spare.id }) },

  // Webhooks: app admins only (docs/decisions.md).
  listWebhooks: { access: app('admin'), ok: 200, params: (f) => ({ app_id: f.appId }) },
  createWebhook: { access: app('admin'), ok: 201, writes: ['app'], params: (f) => ({ app_id: f.appId }), form: (_f, m) => ({ url: receiver.url(`/${m}`), events: 'release.deleted' }) },
  getWebhook: { access: app('admin'), ok: 200, params: (f) => ({ id: f.webhookId }) },
  updateWebhook: { access: app('admin'), ok: 200, writes: ['webhook'], params: (f) => ({ id: f.webhookId }), form: (_f, m) => ({ url: receiver.url(`/${m}`) }) },
  deleteWebhook: { access: app('admin'), ok: 200, writes: ['webhook'], params: (f) => ({ id: f.webhookId }) },
  listDeliveries: { access: app('admin'), ok: 200, params: (f) => ({ id: f.webhookId }) },
  testWebhook: { access: app('admin'), ok: 200, writes: ['webhook'], params: (f) => ({ id: f.webhookId }) },

  // Tester groups: app admins only (they hold addresses and open channels without their password).
  listTesterGroups: { access: app('admin'), ok: 200, params: (f) => ({ app_id: f.appId }) },
  createTesterGroup: { access: app('admin'), ok: 201, writes: ['app'], params: (f) => ({ app_id: f.appId }), form: (f, m) => ({ name: m, channel_ids: String(f.channelId) }) },
  getTesterGroup: { access: app('admin'), ok: 200, params: (f) => ({ app_id: f.appId, group_id: f.testerGroupId }) },
  updateTesterGroup: { access: app('admin'), ok: 200, writes: ['testerGroup'], params: (f) => ({ app_id: f.appId, group_id: f.testerGroupId }), form: (_f, m) => ({ name: m }) },
  deleteTesterGroup: { access: app('admin'), ok: 200, writes: ['testerGroup'], params: (f) => ({ app_id: f.appId, group_id: f.testerGroupId }) },
  addTesters: { access: app('admin'), ok: 201, writes: ['testerGroup'], params: (f) => ({ app_id: f.appId, group_id: f.testerGroupId }), form: (_f, m) => ({ emails: `${m}@example.com` }) },
  removeTester: { access: app('admin'), ok: 200, writes: ['testerGroup'], params: (f) => ({ app_id: f.appId, group_id: f.testerGroupId, tester_id: f.testerId }) },
  listJoinLinks: { access: app('admin'), ok: 200, params: (f) => ({ app_id: f.appId, group_id: f.testerGroupId }) },
  createJoinLink: { access: app('admin'), ok: 201, writes: ['testerGroup'], params: (f) => ({ app_id: f.appId, group_id: f.testerGroupId }), form: () => ({ seats: '3' }) },
  deleteJoinLink: { access: app('admin'), ok: 200, writes: ['testerGroup'], params: (f) => ({ app_id: f.appId, group_id: f.testerGroupId, link_id: f.joinLinkId }) },
  // The tester's side: a join link's token, an address, or a tester's cookie; no token is read.
  joinTesterGroup: { access: OPEN, ok: 202, writes: ['testerGroup'], form: (f, m) => ({ token: f.joinToken, email: `${m}@example.com` }) },
  requestTesterSignIn: { access: OPEN, ok: 202, form: () => ({ email: 'nobody-at-all@example.com' }) },
  getTesterView: { access: { kind: 'testerCookie' }, ok: 200 },
  endTesterSession: { access: OPEN, ok: 204 },
  openTesterSignInLink: { access: OPEN, ok: 401, page: true, query: () => ({ token: 'not-a-sign-in-link' }) },
  requestTesterSignInPage: { access: OPEN, ok: 202, page: true, urlencoded: () => ({ email: 'nobody-at-all@example.com' }) },
  testerHomePage: { access: OPEN, ok: 200, page: true },
  testerSignOutPage: { access: OPEN, ok: 303, page: true },
  joinTesterGroupPage: { access: OPEN, ok: 200, page: true, query: () => ({ token: 'any' }) },
  unsubscribePage: { access: OPEN, ok: 200, page: true, query: () => ({ tester: '1', key: 'any' }) },
  unsubscribe: { access: OPEN, ok: 404, page: true, urlencoded: () => ({ tester: '999999', key: 'not-its-key' }) },
  joinTesterGroupByPage: { access: OPEN, ok: 202, page: true, writes: ['testerGroup'], urlencoded: (f) => ({ token: f.joinToken, email: 'page-joiner@example.com' }) },
  // iOS devices: a tester's own (their cookie), and an app's admins' list of a channel's; the /udid pages read no token.
  renameTesterDevice: { access: { kind: 'testerCookie' }, ok: 200, params: () => ({ id: 1 }), form: () => ({ name: 'Phone' }) },
  removeTesterDevice: { access: { kind: 'testerCookie' }, ok: 204, params: () => ({ id: 1 }) },
  listChannelTesterDevices: { access: app('admin'), ok: 200, params: (f) => ({ id: f.channelId }) },
  udidPage: { access: OPEN, ok: 200, page: true },
  udidProfile: { access: OPEN, ok: 401, page: true },
  registerDevice: { access: OPEN, ok: 401, page: true, query: () => ({ t: 'not-a-challenge' }) },
  testerDevicesPage: { access: OPEN, ok: 401, page: true },
  renameDeviceByPage: { access: OPEN, ok: 401, page: true, params: () => ({ id: 1 }), urlencoded: () => ({ name: 'Phone' }) },
  removeDeviceByPage: { access: OPEN, ok: 401, page: true, params: () => ({ id: 1 }) },

  // Install pages and files: for testers' browsers and phones, no token read.
  getReleaseIcon: { access: OPEN, ok: 200, params: (f) => ({ id: f.releaseId }) },
  downloadRelease: { access: OPEN, ok: 302, params: (f) => ({ id: f.releaseId }) },
  getReleaseQrCode: { access: OPEN, ok: 200, params: (f) => ({ id: f.releaseId }) },
  getReleaseManifest: { access: OPEN, ok: 200, params: (f) => ({ id: f.releaseId }) },
  releasePage: { access: OPEN, ok: 200, params: (f) => ({ id: f.releaseId }) },
  channelPage: { access: OPEN, ok: 200, params: (f) => ({ slug: f.channelKey }) },
  unlockChannel: { access: OPEN, ok: 303, params: (f) => ({ slug: f.lockedKey }), urlencoded: () => ({ password: LOCK_PASSWORD, next: '/' }) },
  unlockRelease: { access: OPEN, ok: 303, params: (f) => ({ id: f.releaseId }), urlencoded: () => ({ password: LOCK_PASSWORD, next: '/' }) },

  // Resumable uploads (tus 1.0): created into the app's channel; then only their creator sees them.
  createUpload: {
    access: app('developer'),
    ok: 201,
    headers: (f) => ({ 'tus-resumable': '1.0.0', 'upload-length': '10', 'upload-metadata': `filename ${b64('x.ipa')},channel_key ${b64(f.channelKey)}` }),
  },
  createDirectUpload: { access: app('developer'), ok: 201, urlencoded: (f) => ({ filename: 'x.ipa', length: '10', channel_key: f.channelKey }) },
  getUploadOffset: { access: { kind: 'uploader' }, ok: 200, params: (f) => ({ id: f.uploadIds.head }), headers: () => TUS },
  appendUpload: {
    access: { kind: 'uploader' },
    ok: 204,
    params: (f, caller) => ({ id: caller === 'ciUpload' || caller === 'otherApp' ? f.scopedUploadIds[caller].patch : f.uploadIds.patch }),
    headers: () => ({ ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }),
    rawBody: 'x',
  },
  terminateUpload: {
    access: { kind: 'uploader' },
    ok: 204,
    params: (f, caller) => ({ id: caller === 'ciUpload' || caller === 'otherApp' ? f.scopedUploadIds[caller].delete : f.uploadIds.delete }),
    headers: () => TUS,
  },
  // Teardown: a private scratch result, not app data (nothing the snapshot sees changes).
  createTeardown: { access: { kind: 'anyUser' }, ok: 201, file: 'ipa' },
  getTeardown: { access: { kind: 'uploader' }, ok: 200, params: (f) => ({ id: f.teardownId }) },

  // Debug files
  uploadDebugFile: { access: app('developer'), ok: 200, writes: ['app'], file: 'dsym', form: key },
  listDebugFiles: { access: app('member'), ok: 200, query: key },
  downloadDebugFile: { access: KEY, ok: 302, query: (f) => ({ ...key(f), release_version: '1.0', build_version: '1' }) },
  downloadDebugFileById: { access: KEY, ok: 302, params: (f) => ({ id: f.debugFileId }), query: key },
  getDebugFile: { access: app('member'), ok: 200, params: (f) => ({ id: f.debugFileId }), query: key },
  replaceDebugFile: { access: app('developer'), ok: 200, writes: ['debugFile'], file: 'dsym-multi', params: (f) => ({ id: f.debugFileId }), form: key },
  deleteDebugFile: { access: app('developer'), ok: 200, writes: ['debugFile'], params: (f) => ({ id: f.debugFileId }), query: key },
  retraceStackTrace: {
    access: KEY,
    ok: 200,
    form: (f) => ({ channel_key: f.androidKey, release_version: '1.0', build_version: '1', stack_trace: 'java.lang.IllegalStateException: boom\n\tat a.a.k.l.onCreate(SourceFile:1)\n' }),
  },

  // Symbol servers: the fixture's ELF debug file by its build-id.
  debuginfodWithToken: { access: app('member'), ok: 302, params: () => ({ build_id: elf.buildId, kind: 'debuginfo' }) },
  debuginfodWithCredentialInPath: { access: KEY, ok: 302, params: (f) => ({ credential: f.linuxKey, build_id: elf.buildId, kind: 'debuginfo' }) },
  dsymByUuidWithToken: { access: app('member'), ok: 302, params: () => ({ file: 'EA9BBF2DBFDD3CE085B21CBE7152FCA5.zip' }) },
  machoSliceUnifiedWithToken: { access: app('member'), ok: 302, params: () => ({ prefix: 'ea', rest: '9bbf2dbfdd3ce085b21cbe7152fca5', kind: 'debuginfo' }) },
  machoSliceUnifiedWithCredentialInPath: { access: KEY, ok: 302, params: (f) => ({ credential: f.channelKey, prefix: 'EA', rest: '9BBF2DBFDD3CE085B21CBE7152FCA5', kind: 'debuginfo' }) },
  dsymByUuidWithCredentialInPath: { access: KEY, ok: 302, params: (f) => ({ credential: f.channelKey, file: 'ea9bbf2d-bfdd-3ce0-85b2-1cbe7152fca5.zip' }) },
  microsoftSymbolsWithToken: { access: app('member'), ok: 302, params: () => ({ file: 'app.pdb', id: pdb.id, again: 'app.pdb' }) },
  microsoftSymbolsWithCredentialInPath: { access: KEY, ok: 302, params: (f) => ({ credential: f.windowsKey, file: 'app.pdb', id: pdb.id.toLowerCase(), again: 'app.pdb' }) },
  breakpadWithToken: { access: app('member'), ok: 302, params: () => ({ module: 'iOS', module_id: BREAKPAD_ID, sym: 'iOS.sym' }) },
  breakpadWithCredentialInPath: { access: KEY, ok: 302, params: (f) => ({ credential: f.channelKey, module: 'iOS', module_id: BREAKPAD_ID, sym: 'iOS.sym' }) },
};

/** A Breakpad symbol file of the fixture's iOS module (the single dSYM's arm64 UUID, age 0). */
const BREAKPAD_ID = 'EA9BBF2DBFDD3CE085B21CBE7152FCA50';
const BREAKPAD_SYM = `MODULE iOS arm64 ${BREAKPAD_ID} iOS\nINFO CODE_ID EA9BBF2DBFDD3CE085B21CBE7152FCA5\nFILE 0 main.m\nFUNC 1000 10 0 main\n1000 10 7 0\n`;

/** A `.debug` file made with gcc and objcopy in beforeAll. */
const elf = { buildId: '', debug: Buffer.alloc(0) };
/** A PDB linked by lld from a MinGW build in beforeAll, with its symbol-server id (llvm-pdbutil's GUID and age). */
const pdb = { id: '', data: Buffer.alloc(0) };

/** Scoped tokens: the owner's answer, narrowed by the route's scopes or the token's app. */
function expectedStatus(route: RouteCase, caller: Caller, scopes: string[] | undefined): number {
  const access = route.access;
  if (access.kind === 'open') return route.ok;
  if (access.kind === 'sessionCookie' || access.kind === 'testerCookie') return 401;
  const owner = CALLERS.find((c) => c.name === 'owner')!;
  // A limited token manages no account, not even its own.
  if ((caller.name === 'ciUpload' || caller.name === 'otherApp') && route.account) return 403;
  if (caller.name === 'ciUpload') return scopes?.includes('upload') ? expectedStatus(route, owner, scopes) : 403;
  // The owner's session is revoked by the owner's own call, which comes first: for the owner's
  // other token (limited to another app) it is gone by then.
  if (caller.name === 'otherApp' && access.kind === 'ownSession') return 404;
  if (caller.name === 'otherApp') return access.kind === 'app' || access.kind === 'createApp' ? 403 : expectedStatus(route, owner, scopes);
  if (caller.name === 'none') return access.kind === 'channelKey' ? route.ok : 401;
  if (caller.name === 'revoked') return 401;
  const global = caller.global!;
  switch (access.kind) {
    case 'channelKey':
    case 'anyUser':
      return route.ok;
    case 'admin':
      return global === 'admin' ? route.ok : 403;
    case 'createApp':
      return global === 'admin' || global === 'developer' ? route.ok : 403;
    case 'app':
      return global === 'admin' || (caller.onApp !== undefined && RANK[caller.onApp] >= RANK[access.least]) ? route.ok : 403;
    case 'uploader':
    case 'ownSession':
      return caller.name === 'owner' ? route.ok : 404;
  }
}

/** Set in beforeAll; the route table reads them lazily. */
const receiver = new WebhookReceiver();
const people = {} as Record<'otherUser' | 'member' | 'owner' | 'spare' | 'extra', TestUser>;

interface Operation {
  operationId: string;
  method: string;
  template: string;
  /** The scopes of which a scoped token needs one (`x-hangar-scopes`); undefined: no token is read. */
  scopes?: string[];
}

interface Cell {
  caller: CallerName;
  status: number;
  /** Whether the snapshot (read by the admin) differs after the call. */
  changed: boolean;
  /** A refusal answers `{"error": "...", "entry"?: {...}}`. */
  errorBody: 'contract shape' | 'other' | 'n/a';
  echoesToken: boolean;
}

describe('authorization matrix over HTTP', () => {
  let hangar: RunningHangar;
  let api: ApiClient;
  let adminToken: string;
  let revokedToken: string;
  let otherAppToken: string;
  let operations: Operation[];
  let shared: Fixture;
  const files = {
    ipa: fs.readFileSync(path.join(fixturesDir(), 'apps', 'iphone.ipa')),
    dsym: fs.readFileSync(path.join(fixturesDir(), 'dsyms', 'single_ios.dSYM.zip')),
    'dsym-multi': fs.readFileSync(path.join(fixturesDir(), 'dsyms', 'multi_ios.dSYM.zip')),
    mapping: fs.readFileSync(path.join(fixturesDir(), 'proguards', 'single_mapping.zip')),
  };
  /** operationId → what each caller got, for the docs table. */
  const results = new Map<string, Cell[]>();

  const tokenOf = (caller: CallerName, f?: Fixture): string | undefined => {
    if (caller === 'ciUpload') return f?.ciToken;
    if (caller === 'otherApp') return otherAppToken;
    return caller === 'none' ? undefined : caller === 'revoked' ? revokedToken : caller === 'admin' ? adminToken : people[caller].token;
  };

  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-matrix-elf-'));
    fs.writeFileSync(path.join(dir, 'app.c'), 'int main(void) { return 0; }\n');
    execFileSync('gcc', ['-g', '-Wl,--build-id', '-o', path.join(dir, 'app'), path.join(dir, 'app.c')]);
    execFileSync('objcopy', ['--only-keep-debug', path.join(dir, 'app'), path.join(dir, 'app.debug')]);
    elf.buildId = /Build ID: ([0-9a-f]+)/.exec(execFileSync('readelf', ['-n', path.join(dir, 'app')], { encoding: 'utf8' }))![1]!;
    elf.debug = fs.readFileSync(path.join(dir, 'app.debug'));
    execFileSync('x86_64-w64-mingw32-gcc', ['-g', '-fuse-ld=lld', `-Wl,--pdb=${path.join(dir, 'app.pdb')}`, '-o', path.join(dir, 'app.exe'), path.join(dir, 'app.c')]);
    const summary = execFileSync('llvm-pdbutil', ['dump', '--summary', path.join(dir, 'app.pdb')], { encoding: 'utf8' });
    pdb.id = `${/GUID: \{([0-9A-F-]+)\}/.exec(summary)![1]!.replace(/-/g, '')}${Number(/Age: (\d+)/.exec(summary)![1]).toString(16).toUpperCase()}`;
    pdb.data = fs.readFileSync(path.join(dir, 'app.pdb'));
    fs.rmSync(dir, { recursive: true, force: true });
    await receiver.start();
    // S3_PUBLIC_ENDPOINT (the same server here) turns on direct uploads, so their route has a row.
    // GRPC_DEADLINE_MS: this file's subject is who may call what, not deadlines (kill-each-service,
    // server-crashes and build-symbols test those with short ones). Beside the other worker's
    // heaviest file (nats-cluster-failover starting fourteen processes and a NATS cluster), a slow
    // two-core host stalled the apps service past the default 10 s: one fixture's AddCollaborator
    // answered 503 "Deadline exceeded" and its route's row failed (CI, 2026-11-30 22:23).
    hangar = await startHangar({
      HANGAR_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_TIMEOUT_MS: '3000',
      S3_PUBLIC_ENDPOINT: process.env.S3_ENDPOINT!,
      GRPC_DEADLINE_MS: '60000',
    });
    api = apiClient(hangar.baseUrl);
    adminToken = hangar.adminToken;

    const doc = await api('GET', '/api/openapi.json');
    operations = Object.entries<Record<string, { operationId?: string; 'x-hangar-scopes'?: string[] }>>(doc.body.paths).flatMap(([template, item]) =>
      ['get', 'head', 'post', 'put', 'delete', 'patch']
        .filter((m) => item[m])
        .map((m) => ({ operationId: item[m]!.operationId ?? `${m} ${template}`, method: m.toUpperCase(), template, scopes: item[m]!['x-hangar-scopes'] })),
    );

    const [otherUser, member, owner, spare, extra] = await Promise.all(
      (['otherUser', 'member', 'owner', 'spare', 'extra'] as const).map((label) => createUserWithToken(api, adminToken, label, label === 'owner' ? 'developer' : 'member')),
    );
    Object.assign(people, { otherUser, member, owner, spare, extra });

    // The owner's token limited to an app of theirs that no fixture uses.
    const elsewhere = await api('POST', '/api/apps', { token: people.owner.token, form: { name: uniqueName('matrix-elsewhere') } });
    const limited = await api('POST', '/api/users/me/tokens', { token: people.owner.token, form: { name: 'other app', app_ids: String(elsewhere.body.id) } });
    expect(limited.status).toBe(201);
    otherAppToken = limited.body.token;

    const revocable = await api('POST', '/api/users/me/tokens', { token: adminToken, form: { name: 'to be revoked' } });
    expect(revocable.status).toBe(201);
    expect((await api('DELETE', `/api/users/me/tokens/${revocable.body.id}`, { token: adminToken })).status).toBe(200);
    revokedToken = revocable.body.token;

    shared = await fixture(['app', 'release', 'debugFile', 'webhook', 'user', 'upload', 'teardown', 'session', 'testerGroup']);
  });

  afterAll(async () => {
    await hangar?.stop();
    await receiver.stop();
  });

  /** What the parts need: a release and a debug file live in the app's iOS channel. */
  async function fixture(parts: Part[]): Promise<Fixture> {
    const want = new Set<Part>(parts);
    if (want.has('release') || want.has('debugFile') || want.has('webhook') || want.has('upload') || want.has('testerGroup')) want.add('app');
    const f: Fixture = {
      appId: 0, schemeId: 0, channelId: 0, channelKey: '', lockedKey: '', releaseId: 0, debugFileId: 0, linuxKey: '', windowsKey: '', webhookId: 0,
      testerGroupId: 0, testerId: 0, joinLinkId: 0, joinToken: '',
      uploadIds: { head: '', patch: '', delete: '' },
      scopedUploadIds: { ciUpload: { patch: '', delete: '' }, otherApp: { patch: '', delete: '' } },
      teardownId: '',
      sessionId: 0,
      androidKey: '',
    };
    const owner = people.owner.token;
    const made = async (res: Promise<ApiResponse>, what: string): Promise<ApiResponse> => {
      const r = await res;
      if (r.status >= 300) throw new Error(`fixture ${what} answered ${r.status}: ${r.text}`);
      return r;
    };
    await Promise.all([
      want.has('teardown')
        ? made(api('POST', '/api/teardown', { token: owner, files: { file: { data: files.ipa, fileName: 'iphone.ipa' } } }), 'teardown').then((r) => (f.teardownId = r.body.id))
        : undefined,
      want.has('user') ? createUserWithToken(api, adminToken, 'target').then((u) => (f.user = u)) : undefined,
      want.has('session')
        ? made(api('POST', '/api/sessions', { json: { email: people.owner.email, password: 'long-enough-pw' } }), 'session').then((r) => (f.sessionId = r.body.session.id))
        : undefined,
      (async () => {
        if (!want.has('app')) return;
        const created = await made(api('POST', '/api/apps', { token: owner, form: { name: uniqueName('matrix') } }), 'app');
        f.appId = created.body.id;
        f.ciToken = (await made(api('POST', '/api/users/me/tokens', { token: owner, form: { name: 'ci', scopes: 'upload', app_ids: String(f.appId) } }), 'CI token')).body.token;
        const scheme = await made(api('POST', `/api/apps/${f.appId}/schemes`, { token: owner, form: { name: 'Beta', new_build_callout: 'false' } }), 'scheme');
        f.schemeId = scheme.body.id;
        const [channel, locked] = await Promise.all([
          made(api('POST', `/api/schemes/${f.schemeId}/channels`, { token: owner, form: { name: 'iOS', device_type: 'ios' } }), 'channel'),
          made(api('POST', `/api/schemes/${f.schemeId}/channels`, { token: owner, form: { name: 'Locked', device_type: 'ios', password: LOCK_PASSWORD } }), 'locked channel'),
          made(api('POST', `/api/apps/${f.appId}/collaborators/${people.member.id}`, { token: owner, form: { role: 'member' } }), 'member'),
          made(api('POST', `/api/apps/${f.appId}/collaborators/${people.spare.id}`, { token: owner, form: { role: 'member' } }), 'spare'),
        ]);
        f.channelId = channel!.body.id;
        f.channelKey = channel!.body.slug;
        f.lockedKey = locked!.body.slug;
        await Promise.all([
          want.has('release')
            ? made(api('POST', '/api/apps/upload', { token: owner, form: key(f), files: { file: { data: files.ipa, fileName: 'iphone.ipa' } } }), 'release').then((r) => (f.releaseId = r.body.id))
            : undefined,
          want.has('debugFile')
            ? made(api('POST', '/api/debug_files/upload', { token: owner, form: key(f), files: { file: { data: files.dsym, fileName: 'symbols.zip' } } }), 'debug file').then(
                (r) => (f.debugFileId = r.body.id),
              )
            : undefined,
          want.has('debugFile')
            ? made(api('POST', `/api/schemes/${f.schemeId}/channels`, { token: owner, form: { name: 'Windows', device_type: 'windows' } }), 'windows channel').then(async (windows) => {
                f.windowsKey = windows.body.slug;
                await made(api('POST', '/api/debug_files/upload', { token: owner, form: { channel_key: f.windowsKey }, files: { file: { data: pdb.data, fileName: 'app.pdb' } } }), 'PDB');
              })
            : undefined,
          want.has('debugFile')
            ? made(api('POST', '/api/debug_files/upload', { token: owner, form: key(f), files: { file: { data: Buffer.from(BREAKPAD_SYM), fileName: 'iOS.sym' } } }), 'Breakpad file')
            : undefined,
          want.has('debugFile')
            ? made(api('POST', `/api/schemes/${f.schemeId}/channels`, { token: owner, form: { name: 'Linux', device_type: 'linux' } }), 'linux channel').then(async (linux) => {
                f.linuxKey = linux.body.slug;
                await made(api('POST', '/api/debug_files/upload', { token: owner, form: { channel_key: f.linuxKey }, files: { file: { data: elf.debug, fileName: 'app.debug' } } }), 'ELF debug file');
              })
            : undefined,
          want.has('upload')
            ? Promise.all(
                (['head', 'patch', 'delete', 'ciUpload.patch', 'ciUpload.delete', 'otherApp.patch', 'otherApp.delete'] as const).map(async (op) => {
                  const created = await made(api('POST', '/api/uploads', { token: owner, headers: { ...TUS, 'upload-length': '10', 'upload-metadata': `channel_key ${b64(f.channelKey)}` } }), 'upload');
                  const id = created.headers.get('location')!.split('/').pop()!;
                  const [scoped, kind] = op.split('.') as ['ciUpload' | 'otherApp', 'patch' | 'delete'];
                  if (kind) f.scopedUploadIds[scoped][kind] = id;
                  else f.uploadIds[op as 'head' | 'patch' | 'delete'] = id;
                }),
              )
            : undefined,
          want.has('debugFile')
            ? made(api('POST', `/api/schemes/${f.schemeId}/channels`, { token: owner, form: { name: 'Android', device_type: 'android' } }), 'android channel').then(async (android) => {
                f.androidKey = android.body.slug;
                const form = { channel_key: f.androidKey, release_version: '1.0', build_version: '1' };
                await made(api('POST', '/api/debug_files/upload', { token: owner, form, files: { file: { data: files.mapping, fileName: 'mapping.zip' } } }), 'ProGuard mapping');
              })
            : undefined,
          want.has('webhook')
            ? made(api('POST', `/api/apps/${f.appId}/webhooks`, { token: owner, form: { url: receiver.url('/fixture'), events: 'release.deleted' } }), 'webhook').then(
                (r) => (f.webhookId = r.body.id),
              )
            : undefined,
          want.has('testerGroup')
            ? (async () => {
                const group = await made(api('POST', `/api/apps/${f.appId}/tester_groups`, { token: owner, json: { name: 'Matrix testers', channel_ids: [f.channelId] } }), 'tester group');
                f.testerGroupId = group.body.id;
                const path = `/api/apps/${f.appId}/tester_groups/${f.testerGroupId}`;
                const [testers, link] = await Promise.all([
                  made(api('POST', `${path}/testers`, { token: owner, form: { emails: 'matrix-tester@example.com' } }), 'tester'),
                  made(api('POST', `${path}/join_links`, { token: owner, json: {} }), 'join link'),
                ]);
                f.testerId = testers.body.added[0].id;
                f.joinLinkId = link.body.id;
                f.joinToken = new URL(link.body.url).searchParams.get('token')!;
              })()
            : undefined,
        ]);
      })(),
    ]);
    return f;
  }

  /** Everything the routes could change, as the admin reads it. */
  async function snapshot(f: Fixture): Promise<string> {
    const read = async (p: string) => {
      const res = await api('GET', p, { token: adminToken });
      return { status: res.status, total: res.headers.get('x-total-count'), body: res.body };
    };
    const parts: Record<string, Promise<unknown>> = {
      apps: read('/api/apps?per_page=1').then((r) => r.total),
      users: read('/api/users?per_page=1').then((r) => r.total),
      ...(f.user ? { user: read(`/api/users/${f.user.id}`), tokens: read(`/api/users/${f.user.id}/tokens`) } : {}),
      ...(f.appId
        ? {
            app: read(`/api/apps/${f.appId}`),
            releases: read(`/api/apps/versions?channel_key=${f.channelKey}&per_page=100`),
            debugFiles: read(`/api/debug_files?channel_key=${f.channelKey}&per_page=100`),
            webhooks: read(`/api/apps/${f.appId}/webhooks`),
            testerGroups: read(`/api/apps/${f.appId}/tester_groups`),
          }
        : {}),
      ...(f.testerGroupId ? { joinLinks: read(`/api/apps/${f.appId}/tester_groups/${f.testerGroupId}/join_links`) } : {}),
      ...(f.webhookId ? { deliveries: read(`/api/webhooks/${f.webhookId}/deliveries?per_page=100`) } : {}),
    };
    const values = await Promise.all(Object.values(parts));
    // Downloads are counted (and reported to webhooks) a moment after earlier rows made them:
    // by design a read changes `download_count` and makes `release.downloaded` deliveries, so
    // neither is a change made by the route under test.
    const unrelated = (key: string, value: unknown) =>
      key === 'download_count' ? undefined : key === 'body' && Array.isArray(value) ? value.filter((d: { event?: string }) => d?.event !== 'release.downloaded') : value;
    return JSON.stringify(Object.fromEntries(Object.keys(parts).map((k, i) => [k, values[i]])), unrelated);
  }

  function urlOf(op: Operation, route: RouteCase, f: Fixture, caller?: CallerName): string {
    const params = route.params?.(f, caller) ?? {};
    const pathname = op.template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      if (params[name] === undefined || params[name] === 0) throw new Error(`${op.operationId}: no value for {${name}}`);
      return encodeURIComponent(String(params[name]));
    });
    const query = route.query ? `?${new URLSearchParams(route.query(f))}` : '';
    return `${pathname}${query}`;
  }

  let cellSeq = 0;
  async function call(op: Operation, route: RouteCase, caller: CallerName, f: Fixture): Promise<ApiResponse> {
    const marker = `matrix${++cellSeq}${caller.toLowerCase()}${Date.now().toString(36)}`;
    const token = tokenOf(caller, f);
    return api(op.method, urlOf(op, route, f, caller), {
      ...(token ? { token } : {}),
      ...(route.form || route.file ? { form: route.form?.(f, marker) ?? {} } : {}),
      ...(route.file ? { files: { file: { data: files[route.file], fileName: route.file === 'ipa' ? 'iphone.ipa' : 'symbols.zip' } } } : {}),
      ...(route.urlencoded ? { urlencoded: route.urlencoded(f) } : {}),
      ...(route.headers ? { headers: route.headers(f) } : {}),
      ...(route.rawBody !== undefined ? { rawBody: route.rawBody } : {}),
    });
  }

  function cellOf(caller: CallerName, res: ApiResponse, changed: boolean, f?: Fixture): Cell {
    const body = res.body as Record<string, unknown> | undefined;
    const isJson = /^application\/json/.test(res.headers.get('content-type') ?? '');
    const contractShape =
      isJson && typeof body === 'object' && body !== null && typeof body.error === 'string' && body.error.length > 0 && Object.keys(body).every((k) => k === 'error' || k === 'entry');
    const token = tokenOf(caller, f);
    return {
      caller,
      status: res.status,
      changed,
      // A HEAD answer has no body to hold the error (HTTP), so only its status counts.
      errorBody: res.status >= 400 && res.text !== '' ? (contractShape ? 'contract shape' : 'other') : 'n/a',
      echoesToken: token !== undefined && res.text.includes(token),
    };
  }

  it('when the OpenAPI document lists its operations, then each has exactly one row here and each row is an operation', () => {
    const documented = operations.map((o) => o.operationId).sort();
    expect(new Set(documented).size).toBe(documented.length);
    expect(documented).toEqual(Object.keys(ROUTES).sort());
  });

  /** What each caller should get from a route, and which of them write (each on a fixture of its own). */
  function planOf(operationId: string) {
    const op = operations.find((o) => o.operationId === operationId);
    if (!op) return undefined;
    const route = ROUTES[operationId]!;
    const expected: Cell[] = CALLERS.map((c) => {
      const status = expectedStatus(route, c, op.scopes);
      const errorBody = status >= 400 && op.method !== 'HEAD' ? (route.page ? 'other' : 'contract shape') : 'n/a';
      return { caller: c.name, status, changed: route.writes !== undefined && status < 400, errorBody, echoesToken: false };
    });
    const writers = route.writes ? expected.filter((c) => c.changed).map((c) => c.caller) : [];
    const readers = CALLERS.filter((c) => !writers.includes(c.name)).map((c) => c.name);
    return { op, route, expected, writers, readers };
  }

  /**
   * Calls expected to change nothing — every refusal, and every call of a route that does not
   * write — go one after another on the shared fixture, every route's in turn, between two
   * snapshots: should one change something, every such cell shows it, and the test below names
   * the parts of the snapshot that changed. One pair of snapshots for them all, not one per route:
   * the snapshots were half of this file's requests (427 of them, ten reads each). Before any
   * writer's fixture is made, since those change the counts of apps and users the snapshot holds.
   */
  const readerCells = new Map<string, Cell[]>();
  let readersChanged: string[] = [];
  beforeAll(async () => {
    const before = await snapshot(shared);
    for (const operationId of Object.keys(ROUTES)) {
      const plan = planOf(operationId);
      // An operation gone from the document: its test says so.
      if (!plan) continue;
      const cells: Cell[] = [];
      for (const caller of plan.readers) cells.push(cellOf(caller, await call(plan.op, plan.route, caller, shared), false, shared));
      readerCells.set(operationId, cells);
    }
    const after = await snapshot(shared);
    const [was, is] = [JSON.parse(before) as Record<string, unknown>, JSON.parse(after) as Record<string, unknown>];
    readersChanged = Object.keys(is).filter((part) => JSON.stringify(was[part]) !== JSON.stringify(is[part]));
    for (const cells of readerCells.values()) for (const cell of cells) cell.changed = before !== after;
  }, 600_000);

  it('when every caller expected to change nothing has sent every route, then no part of the shared fixture changed', () => {
    expect(readersChanged).toEqual([]);
  });

  it.each(Object.keys(ROUTES))('when every caller sends %s, then each gets the contract answer and only allowed writes change anything', async (operationId) => {
    const plan = planOf(operationId);
    if (!plan) throw new Error(`${operationId} is not an operation of /api/openapi.json: remove its row`);
    const { op, route, expected, writers } = plan;
    // Each call expected to write gets a fixture of its own (deletes cannot run twice) with a
    // snapshot before and after. In turn: the snapshot counts every app and user.
    const own = await Promise.all(writers.map(() => fixture(route.writes!)));
    const cells = [...(readerCells.get(operationId) ?? [])];
    for (const [i, caller] of writers.entries()) {
      const f = own[i]!;
      const start = await snapshot(f);
      const res = await call(op, route, caller, f);
      cells.push(cellOf(caller, res, (await snapshot(f)) !== start, f));
    }
    const byCaller = CALLERS.map((c) => cells.find((cell) => cell.caller === c.name)!);
    results.set(operationId, byCaller);
    expect(byCaller).toEqual(expected);
  });

  it('when a refused caller leaves out required values, then still 403 and nothing changes: the right comes before the values', async () => {
    // PRODUCT §2: 403 for what exists, nothing changed before the check.
    // Streamed uploads are left out: their file is the body, and their
    // refusals before the file are in the matrix.
    const requests: [string, string, string][] = Object.entries(ROUTES)
      // Open writes (joining by a join link's token) refuse no caller.
      .filter(([, route]) => route.writes && route.form && !route.file && route.access.kind !== 'open')
      .map(([operationId, route]) => {
        const op = operations.find((o) => o.operationId === operationId)!;
        return [operationId, op.method, urlOf(op, route, shared)];
      });
    requests.push(['searchUsers', 'GET', '/api/users/search']);
    // Debug-file writes sent without their file but with the channel key the right is checked against.
    const bodies: Record<string, Record<string, string>> = {};
    for (const operationId of ['uploadDebugFile', 'replaceDebugFile']) {
      const op = operations.find((o) => o.operationId === operationId)!;
      requests.push([`${operationId} without its file`, op.method, urlOf(op, ROUTES[operationId]!, shared)]);
      bodies[`${operationId} without its file`] = { channel_key: shared.channelKey };
    }
    const before = await snapshot(shared);
    const answers: Record<string, unknown> = {};
    for (const [operationId, method, url] of requests) {
      for (const caller of ['otherUser', 'member'] as const) {
        const res = await api(method, url, { token: tokenOf(caller), ...(method === 'GET' ? {} : { json: bodies[operationId] ?? {} }) });
        answers[`${operationId} by ${caller}`] = cellOf(caller, res, false).errorBody === 'contract shape' ? res.status : `${res.status} ${res.text}`;
      }
    }
    expect(answers).toEqual(Object.fromEntries(Object.keys(answers).map((k) => [k, 403])));
    expect(await snapshot(shared)).toBe(before);

    // The values are still checked for whoever may make the call.
    const admin = await Promise.all(
      requests.filter(([id]) => ['createUser', 'updateUser', 'searchUsers'].includes(id)).map(async ([id, method, url]) => [id, (await api(method, url, { token: adminToken, ...(method === 'GET' ? {} : { json: {} }) })).body.entry]),
    );
    // Whoever may write to the channel hears what is missing: the file.
    for (const id of ['uploadDebugFile without its file', 'replaceDebugFile without its file']) {
      const [, method, url] = requests.find(([name]) => name === id)!;
      const res = await api(method, url, { token: adminToken, json: bodies[id] });
      expect([id, res.status, res.body.entry]).toEqual([id, 422, { file: [expect.stringContaining("can't be blank")] }]);
    }
    expect(Object.fromEntries(admin)).toEqual({
      createUser: { username: ["can't be blank"], email: ["can't be blank"], password: ["can't be blank"] },
      updateUser: { username: ["can't be blank"], email: ["can't be blank"], password: ["can't be blank"] },
      searchUsers: { email: ["can't be blank"] },
    });
    expect(await snapshot(shared)).toBe(before);
  });

  it(`when the matrix is rendered, then docs/auth-matrix.md is the same (rerun with UPDATE_AUTH_DOCS=1 to rewrite it)`, () => {
    const missing = operations.filter((o) => !results.has(o.operationId)).map((o) => o.operationId);
    if (missing.length > 0) throw new Error(`the table needs every route's results; these did not run: ${missing.join(', ')} (run the whole file)`);
    const failed = operations.filter((o) => !sameAsExpected(o.operationId)).map((o) => o.operationId);
    if (failed.length > 0) throw new Error(`not rendering docs/auth-matrix.md while these routes answer against the contract: ${failed.join(', ')}`);
    const rendered = render(operations, results);
    if (UPDATE) fs.writeFileSync(DOC, rendered);
    const committed = fs.existsSync(DOC) ? fs.readFileSync(DOC, 'utf8') : '';
    if (committed !== rendered) {
      const was = new Set(committed.split('\n'));
      const now = new Set(rendered.split('\n'));
      const diff = [...committed.split('\n').filter((l) => !now.has(l)).map((l) => `- ${l}`), ...rendered.split('\n').filter((l) => !was.has(l)).map((l) => `+ ${l}`)];
      throw new Error(
        `docs/auth-matrix.md is out of date. Rerun with UPDATE_AUTH_DOCS=1 to rewrite it:\n` +
          `  UPDATE_AUTH_DOCS=1 npx jest tests/e2e/auth-matrix --selectProjects e2e\n${diff.slice(0, 40).join('\n')}`,
      );
    }
  });

  function sameAsExpected(operationId: string): boolean {
    const cells = results.get(operationId)!;
    return CALLERS.every((c, i) => {
      const cell = cells[i]!;
      const op = operations.find((o) => o.operationId === operationId)!;
      const route = ROUTES[operationId]!;
      return cell.status === expectedStatus(route, c, op.scopes) && (cell.errorBody !== 'other' || route.page === true) && !cell.echoesToken;
    });
  }
});

function render(operations: Operation[], results: Map<string, Cell[]>): string {
  const head = ['operation', 'route', 'who may', 'token scopes', ...CALLERS.map((c) => c.heading)];
  const rows = operations.map((op) => {
    const route = ROUTES[op.operationId]!;
    const cells = results.get(op.operationId)!;
    return [`\`${op.operationId}\``, `${op.method} \`${op.template}\``, `${whoMay(route.access)}${route.account ? ' — no limited token' : ''}`, op.scopes?.join(' or ') ?? '—', ...cells.map((c) => String(c.status))];
  });
  const line = (cols: string[]) => `| ${cols.join(' | ')} |`;
  return [
    '# Authorization matrix',
    '',
    'What every operation of the HTTP API answers to each kind of caller, as measured on a running',
    'Hangar by `tests/e2e/auth-matrix.test.ts`. Generated: do not edit. The test fails when this',
    'file differs from what it measures; rewrite it with',
    '`UPDATE_AUTH_DOCS=1 npx jest tests/e2e/auth-matrix --selectProjects e2e`.',
    '',
    'The rows are the operations of `GET /api/openapi.json`, in its order; the test fails when an',
    'operation has no row. Every call addresses something that exists: without the right, the',
    'answer is 403 — PRODUCT §2 does not hide existence — and 404 is kept for what does not',
    'exist. Each refusal answers `{"error": "..."}` and changes nothing; each allowed write is',
    'seen to change something. A refusal does not depend on the body: without the right, a write',
    'missing its required values is 403 too (the right comes before the values).',
    '',
    'Callers:',
    '',
    ...CALLERS.map((c) => `- **${c.heading}**: ${c.description}.`),
    '',
    '"Token scopes" are what a scoped personal access token needs for the route, one of them',
    'suffices (declared with the operation, `services/gateway/src/features/`; shown in the OpenAPI document as',
    '`x-hangar-scopes`); a token without scopes has every right of its user. "—": no token is read.',
    '',
    'Accounts: a token never outgrows its limits. A *limited* token — one limited to',
    'apps, or with scopes but not `admin` — manages no account, whatever its user\'s role: it',
    'cannot change a password, email or role (its own included), create, change or delete users,',
    'list, search or read other users, make or revoke tokens, or end sessions (403). It may still',
    'read its own account, its own tokens and its own sessions. Accounts are managed from a console',
    'session or an unlimited token: no app limit, and no scopes or `admin` among them',
    '(the `account` rule declared with the operation; "no limited token" in the "who may" column).',
    '',
    '"Who may" is the rule of PRODUCT §1–2 and `docs/decisions.md`; "app member+" means a',
    'collaborator of at least that role on the app, or a global admin. Routes open to anyone read',
    'no token; routes open with the channel key still check a token that is sent (a bad one is',
    '401). Success statuses: 302 is a redirect to the file in storage, 303 the unlock of a',
    'password-protected channel.',
    '',
    line(head),
    line(head.map(() => '---')),
    ...rows.map(line),
    '',
  ].join('\n');
}
