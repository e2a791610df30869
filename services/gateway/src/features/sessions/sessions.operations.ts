import type { Request, Response } from 'express';
import { Type } from '@sinclair/typebox';
import { ResourceExhausted, Unauthenticated } from '@hangar/errors';
import type { users } from '@hangar/proto';
import { ADMIN, READ } from '../../auth/token-scopes';
import { noteForAudit } from '../../audit/audit-note';
import type { ServiceClients } from '../../clients/service-clients';
import { actorOf, currentUser, sessionFromCookie } from '../../http/authenticate.middleware';
import { sendError } from '../../http/error-handler';
import { requireSameOrigin } from '../../http/same-origin';
import { clearSessionCookie, csrfTokenFor, setSessionCookie } from '../../http/session-cookie';
import { formatTimestamp } from '../../http/timestamps';
import { DELETED as DELETED_RESPONSE, NO_TOKEN, READ_WITH_TOKEN, SESSION_ONLY, WRITE_WITH_TOKEN, arrayOf, errors, ok, ref } from '../../openapi/openapi-parts';
import { DELETED_ANSWER } from '../../operations/answers';
import { idParam, operation } from '../../operations/declare';
import { presentUser } from '../../presenters/user.presenter';
import { sessionsEnded } from '../users/users.operations';

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

function answerSignedIn(res: Response, status: number, user: users.User, session: users.Session, secret: string): void {
  res.status(status).json({ user: presentUser(user, user.timezone), csrf_token: csrfTokenFor(secret), session: presentSession(session, true, user.timezone) });
}

const SIGN_IN_COOKIE = { 'Set-Cookie': { required: true, description: '`hangar_session=…; Path=/; HttpOnly; SameSite=Lax`', schema: { type: 'string' as const } } };

/** Sign-in, the caller's sessions and sign-out for the console; a password change for anyone signed in. */
export const sessionOperations = [
  operation({
    method: 'get',
    path: '/api/sessions',
    operationId: 'listSessions',
    tag: 'Sessions',
    summary: "The caller's console sessions",
    scopes: READ,
    params: {},
    responses: { '200': ok('Sessions, without their secrets', arrayOf(ref('Session'))), ...errors(401, 403, 503) },
    async handle({ clients, req, res }) {
      const { sessions } = await clients.users.listSessions({ actor: actorOf(req) });
      res.json(sessions.map((s) => presentSession(s, s.id === req.session?.record.id, currentUser(req).timezone)));
    },
  }),
  operation({
    method: 'post',
    path: '/api/sessions',
    operationId: 'signIn',
    tag: 'Sessions',
    summary: 'Sign in with email and password: sets the HttpOnly `hangar_session` cookie (SameSite=Lax; Secure over HTTPS)',
    scopes: null,
    params: {},
    body: { fields: { email: Type.String(), password: Type.String() }, required: ['email', 'password'] },
    responses: { '201': ok('Signed in', ref('SignedIn'), SIGN_IN_COOKIE), ...errors(400, 401, 403, 422, 429, 503) },
    openApi: {
      security: NO_TOKEN,
      description:
        "With single sign-on only (`OIDC_SSO_ONLY`), a right password of anyone but a global admin is 403; an admin's sign-in is recorded in the audit log with the field `break_glass`. " +
        "A request from another site is 403 (login CSRF): an `Origin` whose host is not the public base URL's, or `Sec-Fetch-Site: cross-site` / `same-site`; without `Origin` (CLI, curl) the sign-in is judged as usual.",
    },
    async handle({ body, clients, signInLimiter, ssoOnly, publicBaseUrl, req, res }) {
      // Before the attempt is counted: another site's form is no sign-in attempt at all.
      requireSameOrigin(req, publicBaseUrl);
      const email = body.email ?? '';
      const verdict = await signInLimiter!.attempt(email, req.ip ?? '');
      if (!verdict.allowed) {
        res.setHeader('Retry-After', String(verdict.retryAfterSeconds));
        return sendError(res, new ResourceExhausted(`Too many sign-in attempts: try again in ${verdict.retryAfterSeconds} seconds`));
      }
      const signed = await clients.users.signIn({ email, password: body.password ?? '', userAgent: req.get('user-agent') ?? '', address: req.ip ?? '', adminsOnly: ssoOnly === true });
      await signInLimiter!.succeeded(email);
      // Single sign-on only, yet an admin's password: the break-glass path, marked in the audit log.
      noteForAudit(res, { userId: signed.user!.id, ...(ssoOnly ? { fields: { break_glass: 'true' } } : {}) });
      setSessionCookie(req, res, signed.secret, signed.session!.expiresAtMs);
      answerSignedIn(res, 201, signed.user!, signed.session!, signed.secret);
    },
  }),
  // A reloaded page asks who it is and gets its CSRF token back (script cannot read the cookie).
  operation({
    method: 'get',
    path: '/api/sessions/current',
    operationId: 'getCurrentSession',
    tag: 'Sessions',
    summary: 'Who the session cookie is, with its CSRF token (for a reloaded page)',
    scopes: null,
    params: {},
    responses: { '200': ok('The session', ref('SignedIn')), ...errors(401, 503) },
    openApi: { security: SESSION_ONLY },
    async handle({ clients, req, res }) {
      const session = await requireSession(clients, req);
      answerSignedIn(res, 200, currentUser(req), session.record, session.secret);
    },
  }),
  operation({
    method: 'delete',
    path: '/api/sessions/current',
    operationId: 'signOut',
    tag: 'Sessions',
    summary: 'Sign out: ends this session and clears the cookie',
    scopes: null,
    params: {},
    responses: { '200': DELETED_RESPONSE, ...errors(401, 403, 503) },
    openApi: { security: SESSION_ONLY },
    async handle({ clients, req, res }) {
      const session = await requireSession(clients, req);
      await clients.users.revokeSession({ actor: actorOf(req), sessionId: session.record.id });
      clearSessionCookie(req, res);
      res.json(DELETED_ANSWER);
    },
  }),
  // "Sign out everywhere else": every session of the caller but the one the request came with.
  // The cookie's own operation (a token has no "here" to keep), before /api/sessions/{id}.
  operation({
    method: 'delete',
    path: '/api/sessions/others',
    operationId: 'revokeOtherSessions',
    tag: 'Sessions',
    summary: 'Sign out everywhere else: ends every session of the caller but this one (each at once); this session stays signed in',
    scopes: null,
    params: {},
    responses: { '200': ok('Ended', ref('OtherSessionsEnded')), ...errors(401, 403, 503) },
    openApi: { security: SESSION_ONLY },
    async handle({ clients, req, res }) {
      const session = await requireSession(clients, req);
      const { sessions } = await clients.users.listSessions({ actor: actorOf(req) });
      const others = sessions.filter((s) => s.id !== session.record.id);
      for (const other of others) await clients.users.revokeSession({ actor: actorOf(req), sessionId: other.id });
      res.json({ ...DELETED_ANSWER, ended: others.length });
    },
  }),
  operation({
    method: 'delete',
    path: '/api/sessions/{id}',
    operationId: 'revokeSession',
    tag: 'Sessions',
    summary: "End one of the caller's sessions (takes effect at once)",
    scopes: ADMIN,
    account: 'never',
    params: { id: idParam('Session id') },
    responses: { '200': DELETED_RESPONSE, ...errors(...READ_WITH_TOKEN) },
    async handle({ params, clients, req, res }) {
      await clients.users.revokeSession({ actor: actorOf(req), sessionId: params.id });
      if (params.id === req.session?.record.id) clearSessionCookie(req, res);
      res.json(DELETED_ANSWER);
    },
  }),
  operation({
    method: 'put',
    path: '/api/users/me/password',
    operationId: 'changePassword',
    tag: 'Users',
    summary: "Change one's own password; every other session of the caller ends",
    scopes: ADMIN,
    account: 'never',
    params: {},
    body: { fields: { current_password: Type.String(), password: Type.String({ description: 'The new password' }) }, required: ['current_password', 'password'] },
    responses: { '200': ok('Changed', ref('PasswordChanged')), ...errors(...WRITE_WITH_TOKEN) },
    async handle({ body, clients, req, res }) {
      await clients.users.changePassword({ actor: actorOf(req), currentPassword: body.current_password ?? '', newPassword: body.password ?? '', keepSessionId: req.session?.record.id ?? 0 });
      res.json({ ...DELETED_ANSWER, sessions_ended: sessionsEnded(req, currentUser(req).id) });
    },
  }),
];
