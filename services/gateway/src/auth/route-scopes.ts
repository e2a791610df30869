import { DECLARED_OPERATIONS } from '../operations/catalogue';
import { ADMIN, MANAGE, READ, TokenScope, UPLOAD, VERSION_CHECK } from './token-scopes';

export { TOKEN_SCOPES, type TokenScope } from './token-scopes';

/**
 * The scopes of the operations not yet declared in operations/ (auth/token-scopes.ts says what
 * each scope allows), by OpenAPI operationId; a declared operation carries its own, joined here.
 */
const UNDECLARED_SCOPES: Record<string, TokenScope[] | null> = {
  getVersion: null,
  getApiVersion: null,
  getHealth: null,
  getOpenApi: null,

  // Console sessions: the cookie is the credential; a token reaches only the listing and revoking.
  // Single sign-on (OpenID Connect): the browser's way in, before any token exists.
  getSignInOptions: null,
  startSingleSignOn: null,
  finishSingleSignOn: null,
  redeemCliSignIn: null,

  uploadRelease: UPLOAD,
  createTeardown: MANAGE,
  getTeardown: MANAGE,
  listVersions: VERSION_CHECK,
  latestReleases: VERSION_CHECK,
  versionExists: VERSION_CHECK,
  updateCheck: READ,


  getReleaseIcon: null,
  downloadRelease: null,
  getReleaseQrCode: null,
  getReleaseManifest: null,
  releasePage: null,
  channelPage: null,
  unlockChannel: null,
  unlockRelease: null,

  createDirectUpload: UPLOAD,
  createUpload: UPLOAD,
  getUploadOffset: UPLOAD,
  appendUpload: UPLOAD,
  terminateUpload: UPLOAD,

  uploadDebugFile: UPLOAD,
  retraceStackTrace: READ,
  downloadDebugFile: READ,
  downloadDebugFileById: READ,
  replaceDebugFile: MANAGE,
  // Symbol servers: the path's credential may be a token too.
  debuginfodWithToken: READ,
  debuginfodWithCredentialInPath: READ,
  breakpadWithToken: READ,
  breakpadWithCredentialInPath: READ,
  dsymByUuidWithToken: READ,
  dsymByUuidWithCredentialInPath: READ,
  machoSliceUnifiedWithToken: READ,
  machoSliceUnifiedWithCredentialInPath: READ,
  microsoftSymbolsWithToken: READ,
  microsoftSymbolsWithCredentialInPath: READ,
};

/** Every operation's scopes: the table above and the declared operations'. */
export const ROUTE_SCOPES: Record<string, TokenScope[] | null> = {
  ...UNDECLARED_SCOPES,
  ...Object.fromEntries(DECLARED_OPERATIONS.map((operation) => [operation.operationId, operation.scopes])),
};

/**
 * Account management: the operations a limited token — one with
 * an app limit, or with scopes but not `admin` — may not call, whatever its
 * user's role, so it cannot outgrow its limits by changing the account's
 * password, email or role, by making users or tokens, or by reading who else
 * there is. `own`: allowed on the token's own account only (the path's `id`
 * is `me` or its user's id); `never`: refused. Only a console session or an
 * unlimited token (no app limit; no scopes, or `admin` among them) manages
 * accounts. docs/auth-matrix.md states the rule.
 */
export const ACCOUNT_OPERATIONS: Record<string, 'own' | 'never'> = {
  listUsers: 'never',
  searchUsers: 'never',
  createUser: 'never',
  getUser: 'own',
  updateUser: 'never',
  patchUser: 'never',
  deleteUser: 'never',
  changePassword: 'never',
  listTokens: 'own',
  createToken: 'never',
  revokeToken: 'never',
  revokeSession: 'never',
};

/** A token that may not manage accounts: app-limited, or scoped without `admin`. */
export function isLimitedGrant(grant: { scopes: string[]; appIds: number[] } | undefined): boolean {
  return !!grant && (grant.appIds.length > 0 || (grant.scopes.length > 0 && !grant.scopes.includes('admin')));
}
