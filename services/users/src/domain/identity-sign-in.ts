import { AlreadyExists } from '@hangar/errors';
import type { SessionDocument } from '../data/session.model';
import type { UserDocument } from '../data/user.model';
import type { UsersDeps } from './manage-users';
import { hashPassword, randomBase62 } from './secrets';
import { startSession } from './sessions';
import { DEFAULTS, validateUserFields } from './user-fields';

export interface VerifiedIdentity {
  /** Verified by the identity provider (the gateway refuses unverified ones). */
  email: string;
  preferredUsername: string;
  defaultRole: string;
  userAgent: string;
  /** Resolve the user only (the CLI gets a token from the gateway, not a console session). */
  withoutSession?: boolean;
}

/** Usernames tried for a new user before a random suffix is added. */
const NAME_TRIES = 3;

/**
 * Single sign-on (issue 16): the gateway has verified the ID token, the email
 * and its domain. The live user with that email signs in as they are (their
 * role is not touched); a first-time user is created with the configured
 * default role and a random password nobody knows, so only the identity
 * provider (or an admin's password reset) lets them in.
 */
export async function signInWithIdentity(deps: UsersDeps, identity: VerifiedIdentity): Promise<{ user: UserDocument; session?: SessionDocument; secret?: string; created: boolean }> {
  const { email, role } = validateUserFields({ email: identity.email, role: identity.defaultRole || DEFAULTS.role }, ['email']);
  const existing = await deps.users.findByEmail(email!);
  const user = existing ?? (await createFirstTime(deps, email!, role!, identity.preferredUsername));
  const created = !existing;
  if (identity.withoutSession) return { user, created };
  return { ...(await startSession(deps, user, identity.userAgent)), created };
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
