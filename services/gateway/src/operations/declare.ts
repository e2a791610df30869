import type { Request, RequestHandler, Response } from 'express';
import type { Static, TObject, TProperties, TSchema } from '@sinclair/typebox';
import type { CachedAppPages } from '../clients/cached-app-pages';
import type { DeviceEnrolment } from '../features/devices/device-enrolment';
import type { SystemFacts } from '../features/system/system.operations';
import type { StoredFiles } from '../features/releases/stored-files';
import type { InstallAccess } from '../features/install/install-access';
import type { SingleSignOn } from '../oidc/single-sign-on';
import type { SignInLimiter } from '../http/sign-in-limiter';
import type { ServiceClients } from '../clients/service-clients';
import type { TokenScope } from '../auth/token-scopes';
import type { JsonSchema, Operation } from '../openapi/schema-types';

export type HttpMethod = 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete';

/**
 * A path parameter: a record's id, a positive integer (`id`); a user's id or `me` (`user`, the
 * caller) — the handler gets the number either way; or a name the service judges (`text`).
 */
export interface IdParam<Kind extends 'id' | 'user' | 'text' = 'id' | 'user' | 'text'> {
  kind: Kind;
  description: string;
  /**
   * Names that take this parameter's place in other operations' paths (`/api/apps/upload` beside
   * `/api/apps/{id}`): a request naming one is not this operation's, whatever the routers' order.
   */
  besides?: ReadonlySet<string>;
  /** How the document describes a `text` parameter (default: any string). */
  schema?: JsonSchema;
}

/** What a handler is given, checked against its declaration. */
export interface OperationCall<Params extends Record<string, IdParam>, Body extends TProperties> {
  params: { [name in keyof Params]: Params[name] extends IdParam<'text'> ? string : number };
  /** The body's declared fields, of the declared types; any field may be absent (the services say which are required). */
  body: Partial<Static<TObject<Body>>>;
  clients: ServiceClients;
  /** The running build, the services' health and the OpenAPI document. */
  system: SystemFacts;
  /** Storage and the settings of what moves files: uploads, teardowns, downloads, update checks. */
  files: StoredFiles;
  /** Who may open a channel's builds (passwords, download tokens, testers), and the install pages' image caches. */
  install: InstallAccess;
  /** `PUBLIC_BASE_URL`, for absolute URLs (Link headers); else they are taken from the request. */
  publicBaseUrl?: string;
  /** Pages of the apps list kept rendered (absent: each is asked of the apps service). */
  appPages?: CachedAppPages;
  /** Counts console sign-in attempts across replicas. */
  signInLimiter?: SignInLimiter;
  /** `OIDC_SSO_ONLY`: passwords sign in global admins only (the break-glass path). */
  ssoOnly?: boolean;
  /** OpenID Connect sign-in, when an identity provider is configured. */
  singleSignOn?: SingleSignOn;
  /** Signs the `/udid` profile's challenge (and the profile itself, when a certificate is configured). */
  devices?: DeviceEnrolment;
  req: Request;
  res: Response;
}

/** What every handler has, whatever its operation's input: for helpers that several operations share. */
export type CallContext = Pick<OperationCall<Record<string, IdParam>, TProperties>, 'clients' | 'system' | 'files' | 'install' | 'publicBaseUrl' | 'appPages' | 'signInLimiter' | 'ssoOnly' | 'singleSignOn' | 'devices' | 'req' | 'res'>;

/**
 * One HTTP operation, declared once: the express route, the check of its input, its token scopes,
 * its entry in the OpenAPI document and in docs/auth-matrix.md all come from this
 * (operations/mount.ts, operations/openapi-paths.ts, auth/scope-guard.ts, tests/e2e/auth-matrix.test.ts).
 */
export interface DeclaredOperation<Params extends Record<string, IdParam> = Record<string, IdParam>, Body extends TProperties = TProperties> {
  method: HttpMethod;
  /** The OpenAPI path template, `/api/schemes/{id}`: its `{name}`s are the keys of `params`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  /** What a scoped token needs (auth/token-scopes.ts); `null`: the operation reads no token. */
  scopes: TokenScope[] | null;
  /**
   * Who calls, when not settled by the token check every operation with scopes gets before its
   * handler: `optional` — a token, when sent, is checked and names the caller (channel_key routes);
   * `handler` — the handler reads it (a streamed upload's `token` field comes before the file).
   */
  caller?: 'optional' | 'handler';
  /** A multipart body is the handler's to stream (an upload): the body parsers leave it unread. */
  streams?: true;
  /** Checks of the request before its token's (a protocol's own refusals, as tus's 412). */
  before?: RequestHandler[];
  /**
   * Account management, which a limited token (app-limited, or scoped without `admin`) may not do
   * whatever its user's role, so it cannot outgrow its limits by changing the account's password,
   * email or role, by making users or tokens, or by reading who else there is: `never`, refused;
   * `own`, allowed on the token's own account only (the path's `id` is `me` or its user's id).
   * Only a console session or an unlimited token manages accounts (docs/auth-matrix.md).
   */
  account?: 'own' | 'never';
  params: Params;
  /**
   * The body's fields (multipart form, urlencoded or JSON, the same names). Their types are
   * checked before the handler runs, every problem at once (a 422 naming each field); `required`
   * is documented but left to the service, which checks it after its permission check, so a
   * caller without rights learns nothing from a 422.
   */
  body?: { fields: Body; required?: (keyof Body & string)[] };
  /**
   * A browser form's page outside `/api` (whose body parsers cover only `/api`): its urlencoded body
   * is parsed here (16 KiB at most). Its handler answers refusals as pages, not JSON.
   */
  page?: true;
  responses: Operation['responses'];
  /** The rest of the OpenAPI operation object (a description, security, parameters). */
  openApi?: Partial<Operation>;
  handle(call: OperationCall<Params, Body>): Promise<void>;
}

/** Declares an operation (an identity that keeps its types: the handler's `params` and `body` follow the declaration). */
export function operation<Params extends Record<string, IdParam>, Body extends TProperties = Record<never, TSchema>>(
  declared: DeclaredOperation<Params, Body>,
): DeclaredOperation<Params, Body> {
  return declared;
}

export function idParam(description: string, besides?: ReadonlySet<string>): IdParam<'id'> {
  return { kind: 'id', description, ...(besides ? { besides } : {}) };
}

/** A user's id, or `me`: the caller's. */
export function userParam(description: string): IdParam<'user'> {
  return { kind: 'user', description };
}

/** A name that is not a number (a teardown's id): passed on as sent, for the service to judge. */
export function textParam(description: string, schema?: JsonSchema): IdParam<'text'> {
  return { kind: 'text', description, ...(schema ? { schema } : {}) };
}

/** Any declared operation, whatever its parameters and body. */
export type AnyOperation = DeclaredOperation<any, any>;
