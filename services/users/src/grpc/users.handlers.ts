import { users } from '@hangar/proto';
import type { AuditEntryDocument } from '../data/audit-entry.model';
import type { SessionDocument } from '../data/session.model';
import type { TokenDocument } from '../data/token.model';
import { listAuditEntries } from '../domain/audit-log';
import type { UserDocument } from '../data/user.model';
import { authenticate, createToken, listTokens, revokeToken } from '../domain/access-tokens';
import { requireActor } from '../domain/actor';
import { signInWithIdentity } from '../domain/identity-sign-in';
import { authenticateSession, changePassword, listSessions, revokeSession, signIn } from '../domain/sessions';
import type { UsersDeps } from '../domain/deps';
import { createUser, deleteUser, getUser, listUsers, searchUsersByEmail, updateUser } from '../domain/manage-users';

/** Thin edge: proto in, use case, proto out. Errors map in the gRPC middleware. */
export function usersHandlers(deps: UsersDeps): users.UsersServiceImplementation {
  return {
    async createUser(req) {
      return toUser(await createUser(deps, requireActor(req.actor), req));
    },
    async getUser(req) {
      return toUser(await getUser(deps, requireActor(req.actor), req.id));
    },
    async updateUser(req) {
      const { actor, id, keepSessionId, ...fields } = req;
      const { user, passwordChanged } = await updateUser(deps, requireActor(actor), id, fields, keepSessionId ?? 0);
      return { ...toUser(user), passwordChanged };
    },
    async deleteUser(req) {
      await deleteUser(deps, requireActor(req.actor), req.id);
      return {};
    },
    async listUsers(req) {
      const page = Math.max(1, req.page?.page ?? 1);
      const perPage = Math.min(100, Math.max(1, req.page?.perPage ?? 25));
      const result = await listUsers(deps, requireActor(req.actor), page, perPage);
      return { users: result.users.map(toUser), total: result.total };
    },
    async searchUsers(req) {
      const found = await searchUsersByEmail(deps, requireActor(req.actor), req.email);
      return { users: found.map(toUser), total: found.length };
    },
    async getUsersByIds(req) {
      const found = await deps.users.findByIds(req.ids);
      return { users: found.map(toUser), total: found.length };
    },
    async authenticate(req) {
      const { user, token } = await authenticate(deps, req.token, req.address ?? '');
      return { ...toUser(user), grant: { tokenId: token._id, scopes: token.scopes ?? [], appIds: token.appIds ?? [], expiresAtMs: token.expiresAt?.getTime() ?? 0 } };
    },
    async createToken(req) {
      const { token, secret } = await createToken(deps, requireActor(req.actor), req.userId, req.name, req.limits ?? { scopes: [], appIds: [], expiresAtMs: 0 });
      return { token: toToken(token), secret };
    },
    async listTokens(req) {
      return { tokens: (await listTokens(deps, requireActor(req.actor), req.userId)).map(toToken) };
    },
    async listAuditEntries(req) {
      const perPage = Math.min(Math.max(req.page?.perPage || 25, 1), 100);
      const page = Math.max(req.page?.page || 1, 1);
      const query = {
        days: req.days,
        ...(req.userId !== undefined ? { userId: req.userId } : {}),
        ...(req.appId !== undefined ? { appId: req.appId } : {}),
        ...(req.operation !== undefined ? { operation: req.operation } : {}),
      };
      const result = await listAuditEntries(deps, requireActor(req.actor), query, page, perPage);
      return { entries: result.entries.map(toAuditEntry), total: result.total };
    },
    async revokeToken(req) {
      await revokeToken(deps, requireActor(req.actor), req.userId, req.tokenId);
      return {};
    },
    async signIn(req) {
      const { user, session, secret } = await signIn(deps, req.email, req.password, req.userAgent, req.adminsOnly === true, req.address ?? '');
      return { user: toUser(user), session: toSession(session), secret };
    },
    async signInWithIdentity(req) {
      const { user, session, secret, created } = await signInWithIdentity(deps, {
        email: req.email,
        preferredUsername: req.preferredUsername,
        defaultRole: req.defaultRole,
        userAgent: req.userAgent,
        address: req.address ?? '',
        withoutSession: req.withoutSession === true,
        issuer: req.issuer,
        subject: req.subject,
      });
      return { signedIn: { user: toUser(user), ...(session ? { session: toSession(session) } : {}), secret: secret ?? '' }, created };
    },
    async authenticateSession(req) {
      const { user, session } = await authenticateSession(deps, req.secret);
      return { user: toUser(user), session: toSession(session) };
    },
    async listSessions(req) {
      return { sessions: (await listSessions(deps, requireActor(req.actor))).map(toSession) };
    },
    async revokeSession(req) {
      await revokeSession(deps, requireActor(req.actor), req.sessionId);
      return {};
    },
    async changePassword(req) {
      await changePassword(deps, requireActor(req.actor), req.currentPassword, req.newPassword, req.keepSessionId);
      return {};
    },
  };
}

function toUser(user: UserDocument): users.User {
  return {
    id: user._id,
    username: user.username,
    email: user.email,
    locale: user.locale,
    appearance: user.appearance,
    timezone: user.timezone,
    role: user.role,
    mustChangePassword: user.mustChangePassword === true,
    passwordChanged: false,
    createdAtMs: user.createdAt.getTime(),
    updatedAtMs: user.updatedAt.getTime(),
  };
}

function toToken(token: TokenDocument): users.Token {
  return {
    id: token._id,
    userId: token.userId,
    name: token.name,
    hint: token.hint,
    createdAtMs: token.createdAt.getTime(),
    lastUsedAtMs: token.lastUsedAt?.getTime() ?? 0,
    scopes: token.scopes ?? [],
    appIds: token.appIds ?? [],
    expiresAtMs: token.expiresAt?.getTime() ?? 0,
    lastUsedAddress: token.lastUsedAddress ?? '',
  };
}

function toAuditEntry(entry: AuditEntryDocument): users.AuditEntry {
  return {
    id: entry._id,
    atMs: entry.at.getTime(),
    userId: entry.userId ?? 0,
    tokenId: entry.tokenId ?? 0,
    operation: entry.operation,
    method: entry.method,
    path: entry.path,
    resourceIds: entry.resourceIds.map(({ name, value }) => ({ name, value })),
    appId: entry.appId ?? 0,
    fields: entry.fields.map(({ name, value }) => ({ name, value })),
    address: entry.address,
    requestId: entry.requestId,
    status: entry.status,
  };
}

function toSession(session: SessionDocument): users.Session {
  return {
    id: session._id,
    userId: session.userId,
    userAgent: session.userAgent,
    address: session.address ?? '',
    createdAtMs: session.createdAt.getTime(),
    lastUsedAtMs: session.lastUsedAt.getTime(),
    expiresAtMs: session.expiresAt.getTime(),
  };
}
