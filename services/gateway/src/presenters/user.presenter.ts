import type { users } from '@hangar/proto';
import { formatTimestamp } from '../http/timestamps';

/** The seed's User shape; never a password. Timestamps in the viewer's zone. */
export function presentUser(user: users.User, viewerTimeZone?: string) {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    locale: user.locale,
    appearance: user.appearance,
    timezone: user.timezone,
    role: user.role,
    created_at: formatTimestamp(user.createdAtMs, viewerTimeZone),
    updated_at: formatTimestamp(user.updatedAtMs, viewerTimeZone),
  };
}

/**
 * The caller's own account: the seed's User plus what only its owner needs —
 * whether the console should ask for a new password. Kept off every other
 * User answer so the seed's shape stays as clients know it.
 */
export function presentMe(user: users.User) {
  return { ...presentUser(user, user.timezone), must_change_password: user.mustChangePassword };
}

/** A token's listing: never its value, which is shown once at creation. */
export function presentToken(token: users.Token, viewerTimeZone?: string) {
  return {
    id: token.id,
    name: token.name,
    hint: `…${token.hint}`,
    created_at: formatTimestamp(token.createdAtMs, viewerTimeZone),
    last_used_at: token.lastUsedAtMs ? formatTimestamp(token.lastUsedAtMs, viewerTimeZone) : null,
    last_used_address: token.lastUsedAddress || null,
    // Empty: every right of its user, on every app (tokens made before scopes).
    scopes: token.scopes,
    app_ids: token.appIds,
    expires_at: token.expiresAtMs ? formatTimestamp(token.expiresAtMs, viewerTimeZone) : null,
  };
}
