import { AlreadyExists, PermissionDenied } from '@hangar/errors';
import type { SessionDocument } from '../data/session.model';
import { identityKeyOf, isOfIssuer, type UserDocument } from '../data/user.model';
import type { UsersDeps } from './deps';
import { hashPassword, randomBase62 } from './secrets';
import { startSession } from './sessions';
import { DEFAULTS, validateUserFields } from './user-fields';

export interface VerifiedIdentity {
  /** Verified by the identity provider (the gateway refuses unverified ones). */
  email: string;
  preferredUsername: string;
  defaultRole: string;
  userAgent: string;
  /** The client address signing in, kept on the session. */
  address?: string;
  /** Resolve the user only (the CLI gets a token from the gateway, not a console session). */
  withoutSession?: boolean;
  /** The ID token's `iss` and `sub`; empty from a gateway that does not send them (matched by email only). */
  issuer?: string;
  subject?: string;
}

/** Usernames tried for a new user before a random suffix is added. */
const NAME_TRIES = 3;

/**
 * Single sign-on: the gateway has verified the ID token, the email
 * and its domain. The person is found by the provider's issuer and subject
 * first — the one name of theirs that never changes hands (OIDC Core 5.7) —
 * so a new email at the provider keeps their account. A person the provider
 * names for the first time is matched by verified email: the live user with
 * that email signs in as they are (their role is not touched) and is bound to
 * the subject from then on; an unknown email creates a user with the
 * configured default role and a random password nobody knows, so only the
 * identity provider (or an admin's password reset) lets them in.
 *
 * An email already bound to another subject of the same provider is refused:
 * that address now belongs to someone else at the provider (a reused mailbox,
 * an account made again), and handing them the old account would be a
 * takeover. A binding from another issuer is replaced: the operator moved
 * Hangar to a new provider, whose subjects are all new.
 */
export async function signInWithIdentity(deps: UsersDeps, identity: VerifiedIdentity): Promise<{ user: UserDocument; session?: SessionDocument; secret?: string; created: boolean }> {
  const { email, role } = validateUserFields({ email: identity.email, role: identity.defaultRole || DEFAULTS.role }, ['email']);
  const identityKey = identity.issuer && identity.subject ? identityKeyOf(identity.issuer, identity.subject) : undefined;
  const bound = identityKey ? await deps.users.findByIdentity(identityKey) : null;
  const { user, created } = bound ? { user: bound, created: false } : await matchByEmail(deps, email!, role!, identity, identityKey);
  if (identity.withoutSession) return { user, created };
  return { ...(await startSession(deps, user, identity.userAgent, identity.address ?? '')), created };
}

/** A person the provider names for the first time: the live user with their email (bound to them now), else a new one. */
async function matchByEmail(deps: UsersDeps, email: string, role: string, identity: VerifiedIdentity, identityKey: string | undefined): Promise<{ user: UserDocument; created: boolean }> {
  const existing = await deps.users.findByEmail(email);
  if (existing?.identityKey && identityKey && isOfIssuer(existing.identityKey, identity.issuer!)) {
    throw new PermissionDenied(`The Hangar account of ${email} belongs to another person at the identity provider: ask your admin to change that account's email or remove it`);
  }
  const user = existing ?? (await createFirstTime(deps, email, role, identity.preferredUsername));
  const bound = identityKey ? await deps.users.bindIdentity(user._id, identityKey) : null;
  return { user: bound ?? user, created: !existing };
}

async function createFirstTime(deps: UsersDeps, email: string, role: string, preferred: string): Promise<UserDocument> {
  const base = usernameFrom(preferred, email);
  for (let attempt = 0; ; attempt += 1) {
    const username = attempt < NAME_TRIES ? (attempt === 0 ? base : `${base}-${attempt + 1}`) : `${base}-${randomBase62(6)}`;
    try {
      return await deps.users.create({
        username,
        email,
        passwordHash: await hashPassword(randomBase62(40)),
        locale: DEFAULTS.locale,
        appearance: DEFAULTS.appearance,
        timezone: DEFAULTS.timezone,
        role,
      });
    } catch (err) {
      if (!(err instanceof AlreadyExists)) throw err;
      // The same person signing in twice at once: the other sign-in created them.
      const raced = await deps.users.findByEmail(email);
      if (raced) return raced;
      if (attempt >= NAME_TRIES + 2) throw err;
    }
  }
}

/** A username the user fields accept: the provider's preferred one, else the email's local part. */
function usernameFrom(preferred: string, email: string): string {
  const cleaned = (text: string) => text.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 50);
  const candidate = cleaned(preferred) || cleaned(email.split('@')[0] ?? '');
  return candidate.length >= 2 ? candidate : `user-${candidate}`;
}
