import { InvalidArgument, NotFound, PermissionDenied, Unauthenticated } from '@hangar/errors';
import type { SessionDocument } from '../data/session.model';
import type { UserDocument } from '../data/user.model';
import type { Actor } from './actor';
import type { UsersDeps } from './deps';
import { hashPassword, hashToken, randomBase62, verifyPassword } from './secrets';
import { validateUserFields } from './user-fields';

const USER_AGENT_MAX = 300;
const ADDRESS_MAX = 64;
/** Compared against when the email is unknown, so an unknown email takes as long as a wrong password. */
let decoyHash: Promise<string> | undefined;

/** 48 base62 characters ≈ 285 bits: the cookie value, shown to the browser once. */
export const generateSessionSecret = (): string => randomBase62(48);

/**
 * Email and password → a new session. The same refusal for an unknown email and a wrong password.
 * `adminsOnly` (single sign-on only): a right password of anyone but a global admin is refused.
 */
export async function signIn(deps: UsersDeps, email: string, password: string, userAgent: string, adminsOnly = false, address = ''): Promise<{ user: UserDocument; session: SessionDocument; secret: string }> {
  if (!email.trim() || !password) throw new InvalidArgument('Email and password are required', { ...(email.trim() ? {} : { email: ["can't be blank"] }), ...(password ? {} : { password: ["can't be blank"] }) });
  const user = await deps.users.findByEmail(email.trim().toLowerCase());
  decoyHash ??= hashPassword(randomBase62(24));
  const matches = await verifyPassword(password, user?.passwordHash ?? (await decoyHash));
  if (!user || !matches) throw new Unauthenticated('Email or password is incorrect');
  // Checked after the password, so the refusal tells a guesser nothing about who is an admin.
  if (adminsOnly && user.role !== 'admin') throw new PermissionDenied('Password sign-in is turned off: sign in with your organisation\'s identity provider');
  return startSession(deps, user, userAgent, address);
}

/** A new session of this user: its secret is answered once and stored as a digest. */
export async function startSession(deps: UsersDeps, user: UserDocument, userAgent: string, address = ''): Promise<{ user: UserDocument; session: SessionDocument; secret: string }> {
  const secret = generateSessionSecret();
  const session = await deps.sessions.create(user._id, hashToken(secret), userAgent.slice(0, USER_AGENT_MAX), new Date(Date.now() + deps.sessionTtlMs), new Date(), address.slice(0, ADDRESS_MAX));
  return { user, session, secret };
}

/** Resolves a session secret to its live user. Revocation is a delete, so it holds at once. */
export async function authenticateSession(deps: UsersDeps, secret: string, now = new Date()): Promise<{ user: UserDocument; session: SessionDocument }> {
  if (!secret) throw new Unauthenticated();
  const session = await deps.sessions.findByHash(hashToken(secret));
  if (session && session.expiresAt.getTime() <= now.getTime()) {
    await deps.sessions.deleteById(session._id);
    throw new Unauthenticated('Your session has expired: sign in again');
  }
  const user = session ? await deps.users.findById(session.userId) : null;
  if (!session || !user) throw new Unauthenticated('The session is invalid or has been signed out');
  void deps.sessions.touch(session, now).catch(() => undefined);
  return { user, session };
}

/** The actor's own live sessions (each user sees only theirs). */
export async function listSessions(deps: UsersDeps, actor: Actor, now = new Date()): Promise<SessionDocument[]> {
  const sessions = await deps.sessions.listForUser(actor.userId);
  return sessions.filter((s) => s.expiresAt.getTime() > now.getTime());
}

export async function revokeSession(deps: UsersDeps, actor: Actor, sessionId: number): Promise<void> {
  if (!(await deps.sessions.delete(actor.userId, sessionId))) throw new NotFound(`Session ${sessionId} not found`);
}

/**
 * The actor's own password, proven by the current one. Every other session of
 * theirs ends: whoever knew the old password is signed out.
 */
export async function changePassword(deps: UsersDeps, actor: Actor, currentPassword: string, newPassword: string, keepSessionId: number): Promise<void> {
  if (!newPassword) throw InvalidArgument.field('password', "can't be blank");
  const fields = validateUserFields({ password: newPassword });
  const user = await deps.users.findById(actor.userId);
  if (!user) throw new NotFound(`User ${actor.userId} not found`);
  if (!(await verifyPassword(currentPassword, user.passwordHash))) {
    throw InvalidArgument.field('current_password', 'is incorrect');
  }
  // A changed password also answers the bootstrap admin's "change the generated password" flag.
  await deps.users.update(user._id, { passwordHash: await hashPassword(fields.password!), mustChangePassword: false });
  await endSessionsOf(deps, user._id, keepSessionId);
}

/** Ends every session of a user but `keepSessionId` (0: every one) — whoever knew the old password is signed out. */
export async function endSessionsOf(deps: UsersDeps, userId: number, keepSessionId: number): Promise<void> {
  for (const session of await deps.sessions.listForUser(userId)) {
    if (session._id !== keepSessionId) await deps.sessions.deleteById(session._id);
  }
}
