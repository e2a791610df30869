/**
 * What a scoped personal access token needs for each operation of the HTTP
 * API: the scope sets each operation declares (features/). The gateway enforces them
 * (auth/scope-guard.ts), the OpenAPI document shows them
 * (`x-hangar-scopes`) and docs/auth-matrix.md lists them. A token with any of an
 * operation's scopes may call it — and still needs its user's rights there.
 * Tokens without scopes (all tokens made before scopes existed) have every
 * right of their user. `null`: the route reads no token at all.
 *
 * - `read`: everything that only reads;
 * - `upload`: builds and debug files into a channel (multipart, resumable,
 *   direct, and the finishing calls), and the version checks a CI job makes
 *   before uploading — nothing else, so a leaked CI token cannot delete or read
 *   an app's data;
 * - `manage`: changes to apps, schemes, channels, collaborators, webhooks,
 *   builds and debug files; teardowns;
 * - `admin`: accounts and tokens — a token without it cannot mint a token with
 *   more rights than itself.
 */
export const TOKEN_SCOPES = ['read', 'upload', 'manage', 'admin'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

export const READ: TokenScope[] = ['read'];
export const UPLOAD: TokenScope[] = ['upload'];
export const VERSION_CHECK: TokenScope[] = ['read', 'upload'];
export const MANAGE: TokenScope[] = ['manage'];
export const ADMIN: TokenScope[] = ['admin'];

/** A token that may not manage accounts (an operation's `account` rule): app-limited, or scoped without `admin`. */
export function isLimitedGrant(grant: { scopes: string[]; appIds: number[] } | undefined): boolean {
  return !!grant && (grant.appIds.length > 0 || (grant.scopes.length > 0 && !grant.scopes.includes('admin')));
}
