import type { Request } from 'express';
import { Type } from '@sinclair/typebox';
import type { users } from '@hangar/proto';
import { ADMIN, READ } from '../../auth/token-scopes';
import { actorOf, currentUser } from '../../http/authenticate.middleware';
import { publicBaseUrl } from '../../http/base-url';
import { queryText, requireFields } from '../../http/input';
import { parsePage, setPageHeaders } from '../../http/pagination';
import { DELETED as DELETED_RESPONSE, PAGE_HEADERS, READ_WITH_TOKEN, WRITE_WITH_TOKEN, arrayOf, errors, ok, param, query, ref } from '../../openapi/openapi-parts';
import { DELETED_ANSWER } from '../../operations/answers';
import { CallContext, operation, userParam } from '../../operations/declare';
import { presentMe, presentUser } from '../../presenters/user.presenter';

/** A user's fields, all text: the users service judges the values (an e-mail's form, a role). */
const USER_FIELDS = {
  username: Type.String(),
  email: Type.String({ format: 'email' }),
  password: Type.String({ minLength: 8 }),
  locale: Type.String({ enum: ['zh-CN', 'en'] }),
  appearance: Type.String({ enum: ['light', 'dark', 'auto'] }),
  timezone: Type.String(),
  role: Type.String({ enum: ['admin', 'developer', 'member', 'user'], description: '`user` is stored as `member`.' }),
};
/** Required on update as on create (the seed). */
const REQUIRED = ['username', 'email', 'password'] as const;

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

/** The fields given, changed; the session making the change stays signed in if the password changes. */
async function saveUser({ clients, req, res }: Pick<CallContext, 'clients' | 'req' | 'res'>, id: number, fields: Partial<Record<keyof typeof USER_FIELDS, string>>): Promise<void> {
  const user = await clients.users.updateUser({ actor: actorOf(req), id, ...fields, keepSessionId: req.session?.record.id ?? 0 });
  res.json(presentUpdated(req, id, user));
}

const zone = (req: Request) => currentUser(req).timezone;
const userId = { id: userParam('A user id, or `me`') };

export const userOperations = [
  operation({
    method: 'get',
    path: '/api/users',
    operationId: 'listUsers',
    tag: 'Users',
    summary: 'List users (admin)',
    scopes: READ,
    account: 'never',
    params: {},
    responses: { '200': ok('Users', arrayOf(ref('User')), PAGE_HEADERS), ...errors(401, 403, 422, 503) },
    openApi: { parameters: [param('page'), param('per_page')] },
    async handle({ clients, publicBaseUrl: base, req, res }) {
      const page = parsePage(req);
      const result = await clients.users.listUsers({ actor: actorOf(req), page });
      setPageHeaders(req, res, page, result.total, publicBaseUrl(req, base));
      res.json(result.users.map((u) => presentUser(u, zone(req))));
    },
  }),
  // PRODUCT §2: the right before the values. The users service checks that the caller is an
  // admin, then the fields (the required ones included), so a member gets 403 whatever the body;
  // blank text is sent as blank.
  operation({
    method: 'post',
    path: '/api/users',
    operationId: 'createUser',
    tag: 'Users',
    summary: 'Create a user (admin)',
    scopes: ADMIN,
    account: 'never',
    params: {},
    body: { fields: USER_FIELDS, required: [...REQUIRED] },
    responses: { '201': ok('Created', ref('User')), ...errors(...WRITE_WITH_TOKEN) },
    async handle({ body, clients, req, res }) {
      const text = (value?: string) => (value?.trim() ? value : '');
      const user = await clients.users.createUser({ actor: actorOf(req), ...body, username: text(body.username), email: text(body.email), password: text(body.password) });
      res.status(201).json(presentUser(user, zone(req)));
    },
  }),
  operation({
    method: 'get',
    path: '/api/users/me',
    operationId: 'getMe',
    tag: 'Users',
    summary: "The token's user",
    scopes: READ,
    params: {},
    responses: { '200': ok('The user', ref('Me')), ...errors(401, 503) },
    async handle({ req, res }) {
      res.json(presentMe(currentUser(req)));
    },
  }),
  operation({
    method: 'get',
    path: '/api/users/search',
    operationId: 'searchUsers',
    tag: 'Users',
    summary: 'Find users by email (admin)',
    scopes: READ,
    account: 'never',
    params: {},
    responses: { '200': ok('Matching users', arrayOf(ref('User'))), ...errors(401, 403, 422, 503) },
    openApi: { parameters: [query('email', 'Email to look for', true)] },
    async handle({ clients, req, res }) {
      // A blank email is refused by the service, after its admin check.
      const result = await clients.users.searchUsers({ actor: actorOf(req), email: queryText(req, 'email') ?? '' });
      res.json(result.users.map((u) => presentUser(u, zone(req))));
    },
  }),
  operation({
    method: 'get',
    path: '/api/users/{id}',
    operationId: 'getUser',
    tag: 'Users',
    summary: 'Get a user (admin, or oneself)',
    scopes: READ,
    account: 'own',
    params: userId,
    responses: { '200': ok('The user', ref('User')), ...errors(...READ_WITH_TOKEN) },
    async handle({ params, clients, req, res }) {
      res.json(presentUser(await clients.users.getUser({ actor: actorOf(req), id: params.id }), zone(req)));
    },
  }),
  // The seed requires username, email and password on update as on create; the service updates
  // only what it is given, so the rule is kept here. It comes after the right (PRODUCT §2): with a
  // field missing, the service is first asked for the user as the caller, which answers 404 or
  // 403 exactly as the update would.
  operation({
    method: 'put',
    path: '/api/users/{id}',
    operationId: 'updateUser',
    tag: 'Users',
    summary: "Update a user (admin, or oneself without raising the role); a changed password ends the user's sessions",
    scopes: ADMIN,
    account: 'never',
    params: userId,
    body: { fields: USER_FIELDS, required: [...REQUIRED] },
    responses: { '200': ok('Updated', ref('UpdatedUser')), ...errors(...WRITE_WITH_TOKEN) },
    async handle({ params, body, clients, req, res }) {
      if (REQUIRED.some((name) => !body[name]?.trim())) {
        await clients.users.getUser({ actor: actorOf(req), id: params.id });
        requireFields(body, REQUIRED);
      }
      await saveUser({ clients, req, res }, params.id, body);
    },
  }),
  // What the console sends: only the fields that change (a profile's time zone, a role), so no
  // one has to send a password to change something else. Same rights as PUT.
  operation({
    method: 'patch',
    path: '/api/users/{id}',
    operationId: 'patchUser',
    tag: 'Users',
    summary: "Change some fields of a user (admin, or oneself without raising the role); fields left out keep their values; a changed password ends the user's sessions",
    scopes: ADMIN,
    account: 'never',
    params: userId,
    body: { fields: USER_FIELDS },
    responses: { '200': ok('Updated', ref('UpdatedUser')), ...errors(...WRITE_WITH_TOKEN) },
    async handle({ params, body, clients, req, res }) {
      await saveUser({ clients, req, res }, params.id, body);
    },
  }),
  operation({
    method: 'delete',
    path: '/api/users/{id}',
    operationId: 'deleteUser',
    tag: 'Users',
    summary: 'Delete a user (admin)',
    scopes: ADMIN,
    account: 'never',
    params: userId,
    responses: { '200': DELETED_RESPONSE, ...errors(...READ_WITH_TOKEN, 409) },
    async handle({ params, clients, req, res }) {
      await clients.users.deleteUser({ actor: actorOf(req), id: params.id });
      res.json(DELETED_ANSWER);
    },
  }),
];
