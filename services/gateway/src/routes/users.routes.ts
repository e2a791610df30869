import { Request, Router } from 'express';
import type { users } from '@hangar/proto';
import type { ServiceClients } from '../clients/service-clients';
import { actorOf, currentUser } from '../http/authenticate.middleware';
import { parseId, queryText, readTextFields, requireFields } from '../http/input';
import { parsePage, setPageHeaders } from '../http/pagination';
import { publicBaseUrl } from '../http/base-url';
import { presentMe, presentUser } from '../presenters/user.presenter';

const USER_FIELDS = ['username', 'email', 'password', 'locale', 'appearance', 'timezone', 'role'] as const;
/** Required on update as on create (the seed). */
const REQUIRED = ['username', 'email', 'password'] as const;
const DELETED = { mesage: 'OK' };

/**
 * Which sessions a password change ended: `others` when the user changed
 * their own password from a console session (that one stays signed in),
 * else `all`.
 */
export function sessionsEnded(req: Request, userId: number): 'all' | 'others' {
  return userId === currentUser(req).id && req.session ? 'others' : 'all';
}

/** An updated user; `sessions_ended` when the update changed the password. */
function presentUpdated(req: Request, id: number, user: users.User) {
  const presented = presentUser(user, id === currentUser(req).id ? user.timezone : currentUser(req).timezone);
  return user.passwordChanged ? { ...presented, sessions_ended: sessionsEnded(req, id) } : presented;
}

/** `me` or a numeric id. */
export function userIdParam(req: Request): number {
  const id = req.params.id;
  return id === 'me' ? currentUser(req).id : parseId(id);
}

export function usersRoutes(clients: ServiceClients, options: { publicBaseUrl?: string }): Router {
  const router = Router();
  const zone = (req: Request) => currentUser(req).timezone;

  router.get('/api/users', async (req, res) => {
    const page = parsePage(req);
    const result = await clients.users.listUsers({ actor: actorOf(req), page });
    setPageHeaders(req, res, page, result.total, publicBaseUrl(req, options.publicBaseUrl));
    res.json(result.users.map((u) => presentUser(u, zone(req))));
  });

  // PRODUCT §2: the right before the values. The users service checks that
  // the caller is an admin, then the fields (the required ones included), so
  // a member gets 403 whatever the body; blank text is sent as blank.
  router.post('/api/users', async (req, res) => {
    const fields = readTextFields(req.body, USER_FIELDS);
    const text = (value?: string) => (value?.trim() ? value : '');
    const user = await clients.users.createUser({ actor: actorOf(req), ...fields, username: text(fields.username), email: text(fields.email), password: text(fields.password) });
    res.status(201).json(presentUser(user, zone(req)));
  });

  router.get('/api/users/me', (req, res) => {
    res.json(presentMe(currentUser(req)));
  });

  router.get('/api/users/search', async (req, res) => {
    // A blank email is refused by the service, after its admin check.
    const result = await clients.users.searchUsers({ actor: actorOf(req), email: queryText(req, 'email') ?? '' });
    res.json(result.users.map((u) => presentUser(u, zone(req))));
  });

  router.get('/api/users/:id', async (req, res) => {
    const user = await clients.users.getUser({ actor: actorOf(req), id: userIdParam(req) });
    res.json(presentUser(user, zone(req)));
  });

  // The seed requires username, email and password on update as on create;
  // the service updates only what it is given, so the rule is kept here. It
  // comes after the right (PRODUCT §2): with a field missing, the service is
  // first asked for the user as the caller, which answers 404 or 403 exactly
  // as the update would.
  router.put('/api/users/:id', async (req, res) => {
    const id = userIdParam(req);
    const fields = readTextFields(req.body, USER_FIELDS);
    if (REQUIRED.some((name) => !fields[name]?.trim())) {
      await clients.users.getUser({ actor: actorOf(req), id });
      requireFields(fields, REQUIRED);
    }
    const user = await clients.users.updateUser({ actor: actorOf(req), id, ...fields, keepSessionId: req.session?.record.id ?? 0 });
    res.json(presentUpdated(req, id, user));
  });

  // What the console sends: only the fields that change (a profile's time zone, a role), so
  // no one has to send a password to change something else. Same rights as PUT.
  router.patch('/api/users/:id', async (req, res) => {
    const id = userIdParam(req);
    const fields = readTextFields(req.body, USER_FIELDS);
    const user = await clients.users.updateUser({ actor: actorOf(req), id, ...fields, keepSessionId: req.session?.record.id ?? 0 });
    res.json(presentUpdated(req, id, user));
  });

  router.delete('/api/users/:id', async (req, res) => {
    await clients.users.deleteUser({ actor: actorOf(req), id: userIdParam(req) });
    res.json(DELETED);
  });

  return router;
}
