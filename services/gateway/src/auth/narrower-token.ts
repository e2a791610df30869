import { PermissionDenied } from '@hangar/errors';
import type { users } from '@hangar/proto';

/**
 * A limited token may make tokens only as limited as itself: never more
 * scopes, never another app, never an app-wide one — else an app-limited
 * `admin` token could mint an unlimited token.
 */
export function requireNoBroaderThan(grant: users.TokenGrant | undefined, limits: users.TokenLimits | undefined): void {
  if (!grant) return;
  const scopes = limits?.scopes ?? [];
  const appIds = limits?.appIds ?? [];
  if (grant.scopes.length > 0 && (scopes.length === 0 || scopes.some((s) => !grant.scopes.includes(s)))) {
    throw new PermissionDenied(`This access token is limited to the scopes ${grant.scopes.join(', ')}: a token it makes must be too`);
  }
  if (grant.appIds.length > 0 && (appIds.length === 0 || appIds.some((id) => !grant.appIds.includes(id)))) {
    throw new PermissionDenied(`This access token is limited to the apps ${grant.appIds.join(', ')}: a token it makes must be too`);
  }
}
