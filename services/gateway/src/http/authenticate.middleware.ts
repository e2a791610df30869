import type { NextFunction, Request, Response } from 'express';
import { PermissionDenied, Unauthenticated, isDomainError } from '@hangar/errors';
import type { users } from '@hangar/proto';
import type { ServiceClients } from '../clients/service-clients';
import { asCallerOf } from './caller-context';
import { csrfTokenMatches, needsCsrfToken, readSessionCookie } from './session-cookie';

declare module 'express-serve-static-core' {
  interface Request {
    /** The authenticated user, set by `authenticate`. */
    user?: users.User;
    /** The console session the request came with, set by `sessionFromCookie`. */
    session?: { record: users.Session; secret: string };
  }
}

/** Token from, in order: `Authorization: Bearer`, the `token` query parameter, the `token` form field. */
export function readToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (match) return match[1];
  }
  const query = req.query.token;
  if (typeof query === 'string' && query) return query;
  const form = (req.body as Record<string, unknown> | undefined)?.token;
  if (typeof form === 'string' && form) return form;
  return undefined;
}

/**
 * Resolves the token through the users client, which main.ts wraps in the token
 * cache (clients/cached-authentication.ts, on unless AUTH_CACHE_SIZE=0). A cached
 * digest is used only while the users generation in NATS KV is unchanged, and the
 * users service bumps it after every user or token write, before it answers: a
 * revoked token is refused on the next request on every gateway replica.
 */
export function authenticate(clients: ServiceClients) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const token = readToken(req);
    if (!token && (await sessionFromCookie(clients, req))) return next();
    if (!token) throw new Unauthenticated('Missing access token: send Authorization: Bearer <token> or ?token=');
    req.user = await resolveToken(clients, req, token);
    next();
  };
}

/** The authenticated user, for handlers behind `authenticate`. */
export function currentUser(req: Request): users.User {
  if (!req.user) throw new Unauthenticated();
  return req.user;
}

export function actorOf(req: Request): { userId: number; role: string; appLimit?: { appIds: number[] } } {
  return actorOfUser(currentUser(req));
}

/** The gRPC actor of a user, with their token's app limit. */
export function actorOfUser(user: users.User): { userId: number; role: string; appLimit?: { appIds: number[] } } {
  // A token limited to some apps carries them to every service.
  const appIds = user.grant?.appIds ?? [];
  return { userId: user.id, role: user.role, ...(appIds.length ? { appLimit: { appIds } } : {}) };
}

/**
 * For routes open without a token (channel_key routes): a token, when sent,
 * still identifies the caller, so answers come in their time zone. A wrong
 * token is still a 401: the client should know.
 */
export function identifyIfToken(clients: ServiceClients) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const token = readToken(req);
    if (token) req.user = await resolveToken(clients, req, token);
    // A stale session, or a write without its CSRF token, is simply no caller
    // here: these routes answer anyone, and the browser cannot fix a cookie.
    else await sessionFromCookie(clients, req).catch((err: unknown) => {
      if (!isDomainError(err) || !['unauthenticated', 'permission_denied'].includes(err.code)) throw err;
    });
    next();
  };
}

/**
 * The token's user, judged as part of `req` wherever it is called from (the
 * failed-token limit and the scope guard read the caller's address and
 * route; busboy callbacks lose them otherwise).
 */
export function resolveToken(clients: ServiceClients, req: Request, token: string): Promise<users.User> {
  return asCallerOf(req, () => clients.users.authenticate({ token }));
}

/**
 * The console's session cookie, tried only when no token is sent (a token
 * always wins). A session is the same user as their token: same permissions,
 * same answers. A write (any method but GET/HEAD/OPTIONS) must also carry the
 * session's CSRF token in X-CSRF-Token, which another site cannot read.
 * True when the request is now authenticated; false when there is no cookie.
 */
export async function sessionFromCookie(clients: ServiceClients, req: Request): Promise<boolean> {
  const secret = readSessionCookie(req);
  if (!secret) return false;
  const { user, session } = await clients.users.authenticateSession({ secret });
  if (needsCsrfToken(req) && !csrfTokenMatches(req, secret)) {
    throw new PermissionDenied('Missing or wrong X-CSRF-Token header: send the csrf_token of your session with every change');
  }
  req.user = user;
  req.session = { record: session!, secret };
  return true;
}

/** For routes that read the token themselves (form fields before a file): that token, else the session cookie. */
export async function authenticateTokenOrSession(clients: ServiceClients, req: Request, token: string | undefined, missing: string): Promise<void> {
  if (token) req.user = await resolveToken(clients, req, token);
  else if (!(await sessionFromCookie(clients, req))) throw new Unauthenticated(missing);
}
