import { Type } from '@sinclair/typebox';
import { InvalidArgument } from '@hangar/errors';
import { MANAGE, READ } from '../../auth/token-scopes';
import { actorOf } from '../../http/authenticate.middleware';
import { parseId } from '../../http/input';
import { DELETED as DELETED_RESPONSE, READ_WITH_TOKEN, USER_ROLES, WRITE_WITH_TOKEN, arrayOf, errors, ok, ref } from '../../openapi/openapi-parts';
import { CallContext, idParam, operation } from '../../operations/declare';
import { presentCollaborator } from '../../presenters/app.presenter';
import { DELETED_ANSWER } from '../../operations/answers';

/** The role, which the apps service judges after its permission check. */
const ROLE = { role: Type.String({ enum: USER_ROLES }) };
/** Zealot clients name the user in the body: a number, or its text. */
const USER_IN_BODY = { user_id: Type.Unsafe<number | string>({ type: ['integer', 'string'] }), ...ROLE };

/**
 * The user id a body names; 0 when absent, which the service reports as a blank `user_id` after
 * its permission check.
 */
function userIdIn(value: number | string | undefined): number {
  if (value === undefined || value === '') return 0;
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value) && value > 0) return value;
    throw InvalidArgument.field('user_id', 'must be a positive integer');
  }
  return parseId(value, 'user_id');
}

async function add({ clients, req, res }: CallContext, appId: number, userId: number, role: string | undefined): Promise<void> {
  const collaborator = await clients.apps.addCollaborator({ actor: actorOf(req), appId, userId, role: role ?? '' });
  res.status(201).json(presentCollaborator(collaborator));
}

const appId = { app_id: idParam('App id') };
const appAndUser = { app_id: idParam('App id'), user_id: idParam('User id') };

export const collaboratorOperations = [
  operation({
    method: 'get',
    path: '/api/apps/{app_id}/collaborators',
    operationId: 'listCollaborators',
    tag: 'Collaborators',
    summary: "An app's collaborators",
    scopes: READ,
    params: appId,
    responses: { '200': ok('Collaborators', arrayOf(ref('Collaborator'))), ...errors(...READ_WITH_TOKEN) },
    async handle({ params, clients, req, res }) {
      const result = await clients.apps.listCollaborators({ actor: actorOf(req), appId: params.app_id });
      res.json(result.collaborators.map(presentCollaborator));
    },
  }),
  operation({
    method: 'post',
    path: '/api/apps/{app_id}/collaborators',
    operationId: 'addCollaboratorFromBody',
    tag: 'Collaborators',
    summary: 'Add a collaborator, user_id in the body (Zealot clients)',
    scopes: MANAGE,
    params: appId,
    body: { fields: USER_IN_BODY, required: ['user_id', 'role'] },
    responses: { '201': ok('Added', ref('Collaborator')), ...errors(...WRITE_WITH_TOKEN) },
    handle: (call) => add(call, call.params.app_id, userIdIn(call.body.user_id), call.body.role),
  }),
  operation({
    method: 'get',
    path: '/api/apps/{app_id}/collaborators/{user_id}',
    operationId: 'getCollaborator',
    tag: 'Collaborators',
    summary: 'Get a collaborator',
    scopes: READ,
    params: appAndUser,
    responses: { '200': ok('The collaborator', ref('Collaborator')), ...errors(...READ_WITH_TOKEN) },
    async handle({ params, clients, req, res }) {
      res.json(presentCollaborator(await clients.apps.getCollaborator({ actor: actorOf(req), appId: params.app_id, userId: params.user_id })));
    },
  }),
  operation({
    method: 'post',
    path: '/api/apps/{app_id}/collaborators/{user_id}',
    operationId: 'addCollaborator',
    tag: 'Collaborators',
    summary: 'Add a collaborator',
    scopes: MANAGE,
    params: appAndUser,
    body: { fields: ROLE, required: ['role'] },
    responses: { '201': ok('Added', ref('Collaborator')), ...errors(...WRITE_WITH_TOKEN) },
    handle: (call) => add(call, call.params.app_id, call.params.user_id, call.body.role),
  }),
  operation({
    method: 'put',
    path: '/api/apps/{app_id}/collaborators/{user_id}',
    operationId: 'updateCollaborator',
    tag: 'Collaborators',
    summary: "Change a collaborator's role",
    scopes: MANAGE,
    params: appAndUser,
    body: { fields: ROLE, required: ['role'] },
    responses: { '200': ok('Updated', ref('Collaborator')), ...errors(...WRITE_WITH_TOKEN) },
    async handle({ params, body, clients, req, res }) {
      const collaborator = await clients.apps.updateCollaborator({ actor: actorOf(req), appId: params.app_id, userId: params.user_id, role: body.role ?? '' });
      res.json(presentCollaborator(collaborator));
    },
  }),
  operation({
    method: 'delete',
    path: '/api/apps/{app_id}/collaborators/{user_id}',
    operationId: 'removeCollaborator',
    tag: 'Collaborators',
    summary: 'Remove a collaborator',
    scopes: MANAGE,
    params: appAndUser,
    responses: { '200': DELETED_RESPONSE, ...errors(...READ_WITH_TOKEN, 409) },
    async handle({ params, clients, req, res }) {
      await clients.apps.removeCollaborator({ actor: actorOf(req), appId: params.app_id, userId: params.user_id });
      res.json(DELETED_ANSWER);
    },
  }),
];
