import { Request, Response, Router } from 'express';
import { ResourceExhausted, Unauthenticated } from '@hangar/errors';
import type { users } from '@hangar/proto';
import type { ServiceClients } from '../clients/service-clients';
import { actorOf, authenticate, currentUser, sessionFromCookie } from '../http/authenticate.middleware';
import { parseId, readTextFields } from '../http/input';
import { clearSessionCookie, csrfTokenFor, setSessionCookie } from '../http/session-cookie';
import { sendError } from '../http/error-handler';
import { formatTimestamp } from '../http/timestamps';
import type { SignInLimiter } from '../http/sign-in-limiter';
import { presentUser } from '../presenters/user.presenter';
import { noteForAudit } from '../audit/audit-note';
import { sessionsEnded } from '../features/users/users.operations';
import { requireSameOrigin } from '../http/same-origin';

/** A session as its owner sees it: never its secret. */
function presentSession(session: users.Session, current: boolean, zone?: string) {
  return {
    id: session.id,
    user_agent: session.userAgent,
    address: session.address || null,
    created_at: formatTimestamp(session.createdAtMs, zone),
    last_used_at: formatTimestamp(session.lastUsedAtMs, zone),
    expires_at: formatTimestamp(session.expiresAtMs, zone),
    current,
  };
}

/** The session the request came with (its cookie), or a 401 that says so. */
async function requireSession(clients: ServiceClients, req: Request): Promise<{ record: users.Session; secret: string }> {
  if (!req.session && !(await sessionFromCookie(clients, req))) throw new Unauthenticated('Not signed in: no session cookie');
  return req.session!;
}

/** Sign-in, the caller's sessions and sign-out for the console; a password change for anyone signed in. */
export function sessionsRoutes(clients: ServiceClients, limiter: SignInLimiter, options: { ssoOnly?: boolean; publicBaseUrl?: string } = {}): Router {
  const router = Router();
  const answerSignedIn = (req: Request, res: Response, status: number, user: users.User, session: users.Session, secret: string) =>
    res.status(status).json({ user: presentUser(user, user.timezone), csrf_token: csrfTokenFor(secret), session: presentSession(session, true, user.timezone) });

  router.post('/api/sessions', async (req, res) => {
    // Before the attempt is counted: another site's form is no sign-in attempt at all.
    requireSameOrigin(req, options.publicBaseUrl);
    const { email, password } = readTextFields(req.body, ['email', 'password'] as const);
    const verdict = await limiter.attempt(email ?? '', req.ip ?? '');
    if (!verdict.allowed) {
      res.setHeader('Retry-After', String(verdict.retryAfterSeconds));
      return sendError(res, new ResourceExhausted(`Too many sign-in attempts: try again in ${verdict.retryAfterSeconds} seconds`));
    }
    const signed = await clients.users.signIn({ email: email ?? '', password: password ?? '', userAgent: req.get('user-agent') ?? '', address: req.ip ?? '', adminsOnly: options.ssoOnly === true });
    await limiter.succeeded(email ?? '');
    // Single sign-on only, yet an admin's password: the break-glass path, marked in the audit log.
    noteForAudit(res, { userId: signed.user!.id, ...(options.ssoOnly ? { fields: { break_glass: 'true' } } : {}) });
    setSessionCookie(req, res, signed.secret, signed.session!.expiresAtMs);
    answerSignedIn(req, res, 201, signed.user!, signed.session!, signed.secret);
  });

  // A reloaded page asks who it is and gets its CSRF token back (script cannot read the cookie).
  router.get('/api/sessions/current', async (req, res) => {
    const session = await requireSession(clients, req);
    answerSignedIn(req, res, 200, currentUser(req), session.record, session.secret);
  });

  router.delete('/api/sessions/current', async (req, res) => {
    const session = await requireSession(clients, req);
    await clients.users.revokeSession({ actor: actorOf(req), sessionId: session.record.id });
    clearSessionCookie(req, res);
    res.json({ mesage: 'OK' });
  });

  // "Sign out everywhere else": every session of the caller but the one the request came with.
  // The cookie's own route (a token has no "here" to keep), before /api/sessions/:id.
  router.delete('/api/sessions/others', async (req, res) => {
    const session = await requireSession(clients, req);
    const { sessions } = await clients.users.listSessions({ actor: actorOf(req) });
    const others = sessions.filter((s) => s.id !== session.record.id);
    for (const other of others) await clients.users.revokeSession({ actor: actorOf(req), sessionId: other.id });
    res.json({ mesage: 'OK', ended: others.length });
  });

  router.get('/api/sessions', authenticate(clients), async (req, res) => {
    const { sessions } = await clients.users.listSessions({ actor: actorOf(req) });
    res.json(sessions.map((s) => presentSession(s, s.id === req.session?.record.id, currentUser(req).timezone)));
  });

  router.delete('/api/sessions/:id', authenticate(clients), async (req, res) => {
    const id = parseId(req.params.id, 'id');
    await clients.users.revokeSession({ actor: actorOf(req), sessionId: id });
    if (id === req.session?.record.id) clearSessionCookie(req, res);
    res.json({ mesage: 'OK' });
  });

  // Under /api/users, which authenticates every request (app.ts).
  router.put('/api/users/me/password', async (req, res) => {
    const { current_password, password } = readTextFields(req.body, ['current_password', 'password'] as const);
    await clients.users.changePassword({ actor: actorOf(req), currentPassword: current_password ?? '', newPassword: password ?? '', keepSessionId: req.session?.record.id ?? 0 });
    res.json({ mesage: 'OK', sessions_ended: sessionsEnded(req, currentUser(req).id) });
  });

  return router;
}

