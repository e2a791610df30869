import { Type } from '@sinclair/typebox';
import { requireNoBroaderThan } from '../../auth/narrower-token';
import { ADMIN, READ, TOKEN_SCOPES } from '../../auth/token-scopes';
import { actorOf, currentUser } from '../../http/authenticate.middleware';
import { DELETED as DELETED_RESPONSE, READ_WITH_TOKEN, WRITE_WITH_TOKEN, arrayOf, errors, ok, ref } from '../../openapi/openapi-parts';
import { DELETED_ANSWER } from '../../operations/answers';
import { idParam, operation, userParam } from '../../operations/declare';
import { presentToken } from '../../presenters/user.presenter';
import { readTokenLimits } from './token-limits-input';

/** A new token: its name and limits, all text, judged by the users service after the caller's right. */
const TOKEN_FIELDS = {
  name: Type.String(),
  scopes: Type.String({ description: `Comma-separated, any of ${TOKEN_SCOPES.join(', ')}; empty: every right of the user. An unknown scope is 422.` }),
  app_ids: Type.String({ description: 'Comma-separated app ids the token is limited to; empty: every app of the user.' }),
  expires_at: Type.String({ description: 'ISO 8601 date and time after which the token is refused; empty: never. A past or unreadable one is 422.' }),
};

const owner = { id: userParam('A user id, or `me`') };

/** Personal access tokens of a user: the user themselves or an admin. */
export const tokenOperations = [
  operation({
    method: 'get',
    path: '/api/users/{id}/tokens',
    operationId: 'listTokens',
    tag: 'Tokens',
    summary: "A user's tokens (oneself or admin)",
    scopes: READ,
    account: 'own',
    params: owner,
    responses: { '200': ok('Tokens, without their values', arrayOf(ref('Token'))), ...errors(...READ_WITH_TOKEN) },
    async handle({ params, clients, req, res }) {
      const result = await clients.users.listTokens({ actor: actorOf(req), userId: params.id });
      res.json(result.tokens.map((t) => presentToken(t, currentUser(req).timezone)));
    },
  }),
  operation({
    method: 'post',
    path: '/api/users/{id}/tokens',
    operationId: 'createToken',
    tag: 'Tokens',
    summary: 'Create a token',
    scopes: ADMIN,
    account: 'never',
    params: owner,
    body: { fields: TOKEN_FIELDS, required: ['name'] },
    responses: { '201': ok('The token, with its value this once', ref('CreatedToken')), ...errors(...WRITE_WITH_TOKEN) },
    async handle({ params, body, clients, req, res }) {
      const limits = readTokenLimits(body);
      requireNoBroaderThan(currentUser(req).grant, limits);
      const created = await clients.users.createToken({ actor: actorOf(req), userId: params.id, name: body.name ?? '', ...(limits ? { limits } : {}) });
      // The only response that ever carries the token itself.
      res.status(201).json({ ...presentToken(created.token!, currentUser(req).timezone), token: created.secret });
    },
  }),
  operation({
    method: 'delete',
    path: '/api/users/{id}/tokens/{token_id}',
    operationId: 'revokeToken',
    tag: 'Tokens',
    summary: 'Revoke a token (takes effect at once)',
    scopes: ADMIN,
    account: 'never',
    params: { ...owner, token_id: idParam('Token id') },
    responses: { '200': DELETED_RESPONSE, ...errors(...READ_WITH_TOKEN) },
    async handle({ params, clients, req, res }) {
      await clients.users.revokeToken({ actor: actorOf(req), userId: params.id, tokenId: params.token_id });
      res.json(DELETED_ANSWER);
    },
  }),
];
