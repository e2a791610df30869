import type { Request, Response } from 'express';
import { Unauthenticated } from '@hangar/errors';
import type { apps } from '@hangar/proto';
import type { ServiceClients } from '../../clients/service-clients';
import { readSecretCookie } from '../../http/session-cookie';

/** The tester's session cookie: a secret of the apps service's tester sessions, apart from the console's `hangar_session`. */
export const TESTER_COOKIE = 'hangar_tester';

export function readTesterCookie(req: Pick<Request, 'headers'>): string | undefined {
  return readSecretCookie(req, TESTER_COOKIE);
}

/** HttpOnly, SameSite=Lax (another site's form cannot act as the tester), Secure over HTTPS. */
export function setTesterCookie(req: Request, res: Response, secret: string, expiresAtMs: number): void {
  res.cookie(TESTER_COOKIE, secret, { httpOnly: true, sameSite: 'lax', path: '/', secure: req.secure, expires: new Date(expiresAtMs) });
}

export function clearTesterCookie(req: Request, res: Response): void {
  res.clearCookie(TESTER_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure: req.secure });
}

/**
 * The signed-in tester and the channels their groups open now, or undefined (no cookie, or a
 * session that ended: removed from every group, signed out, expired). Asked of the apps service
 * on every use, never cached: a removal holds at once on every replica.
 */
export async function testerOf(clients: ServiceClients, req: Request): Promise<apps.TesterIdentity | undefined> {
  const secret = readTesterCookie(req);
  return secret ? liveTester(clients, { secret, sessionId: 0 }) : undefined;
}

/** The same for the session id an install link was signed with. */
export function testerBySessionId(clients: ServiceClients, sessionId: number): Promise<apps.TesterIdentity | undefined> {
  return liveTester(clients, { secret: '', sessionId });
}

/** The tester of a session, or undefined when it has ended (a refusal, not an error). */
async function liveTester(clients: ServiceClients, session: apps.TesterSecret): Promise<apps.TesterIdentity | undefined> {
  try {
    return await clients.apps.authenticateTester(session);
  } catch (err) {
    if (err instanceof Unauthenticated) return undefined;
    throw err;
  }
}
