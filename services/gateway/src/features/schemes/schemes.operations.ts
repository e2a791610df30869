import { Type } from '@sinclair/typebox';
import { MANAGE, READ } from '../../auth/token-scopes';
import { noteAppOf } from '../../audit/audit-note';
import { actorOf } from '../../http/authenticate.middleware';
import { DELETED as DELETED_RESPONSE, READ_WITH_TOKEN, WRITE_WITH_TOKEN, arrayOf, errors, ok, ref } from '../../openapi/openapi-parts';
import { REFUSAL } from '../../operations/body-check';
import { idParam, operation } from '../../operations/declare';
import { presentScheme } from '../../presenters/app.presenter';
import { DELETED_ANSWER } from '../../operations/answers';

/**
 * A scheme's fields. The flags arrive as form text or as JSON booleans and numbers; either is
 * handed to the apps service as text, which judges the value after its permission check.
 */
const SCHEME_FIELDS = {
  name: Type.String(),
  new_build_callout: Type.Unsafe<boolean | string>({ type: ['boolean', 'string'], description: 'true/false (default true)', [REFUSAL]: 'must be true or false' }),
  retained_builds: Type.Unsafe<number | string>({ type: ['integer', 'string'], description: 'integer >= 0 (default 0)', [REFUSAL]: 'must be an integer >= 0' }),
};

type SchemeFlags = { new_build_callout?: boolean | string; retained_builds?: number | string };

function flagsText(body: SchemeFlags): { newBuildCalloutText?: string; retainedBuildsText?: string } {
  return {
    newBuildCalloutText: body.new_build_callout === undefined ? undefined : String(body.new_build_callout),
    retainedBuildsText: body.retained_builds === undefined ? undefined : String(body.retained_builds),
  };
}

const appId = { app_id: idParam('App id') };
const schemeId = { id: idParam('Scheme id') };

export const schemeOperations = [
  operation({
    method: 'get',
    path: '/api/apps/{app_id}/schemes',
    operationId: 'listSchemes',
    tag: 'Schemes',
    summary: "An app's schemes",
    scopes: READ,
    params: appId,
    responses: { '200': ok('Schemes with their channels', arrayOf(ref('Scheme'))), ...errors(...READ_WITH_TOKEN) },
    async handle({ params, clients, req, res }) {
      const result = await clients.apps.listSchemes({ actor: actorOf(req), appId: params.app_id });
      res.json(result.schemes.map(presentScheme));
    },
  }),
  operation({
    method: 'post',
    path: '/api/apps/{app_id}/schemes',
    operationId: 'createScheme',
    tag: 'Schemes',
    summary: 'Create a scheme',
    scopes: MANAGE,
    params: appId,
    body: { fields: SCHEME_FIELDS, required: ['name'] },
    responses: { '201': ok('Created', ref('Scheme')), ...errors(...WRITE_WITH_TOKEN) },
    async handle({ params, body, clients, req, res }) {
      const scheme = await clients.apps.createScheme({ actor: actorOf(req), appId: params.app_id, name: body.name ?? '', ...flagsText(body) });
      res.status(201).json(presentScheme(scheme));
    },
  }),
  operation({
    method: 'get',
    path: '/api/schemes/{id}',
    operationId: 'getScheme',
    tag: 'Schemes',
    summary: 'Get a scheme',
    scopes: READ,
    params: schemeId,
    responses: { '200': ok('The scheme', ref('Scheme')), ...errors(...READ_WITH_TOKEN) },
    async handle({ params, clients, req, res }) {
      res.json(presentScheme(await clients.apps.getScheme({ actor: actorOf(req), id: params.id })));
    },
  }),
  operation({
    method: 'put',
    path: '/api/schemes/{id}',
    operationId: 'updateScheme',
    tag: 'Schemes',
    summary: 'Update a scheme (fields left out keep their values)',
    scopes: MANAGE,
    params: schemeId,
    body: { fields: SCHEME_FIELDS },
    responses: { '200': ok('Updated', ref('Scheme')), ...errors(...WRITE_WITH_TOKEN) },
    async handle({ params, body, clients, req, res }) {
      await noteAppOf(res, async () => (await clients.apps.getScheme({ actor: actorOf(req), id: params.id })).appId);
      const scheme = await clients.apps.updateScheme({ actor: actorOf(req), id: params.id, name: body.name, ...flagsText(body) });
      res.json(presentScheme(scheme));
    },
  }),
  operation({
    method: 'delete',
    path: '/api/schemes/{id}',
    operationId: 'deleteScheme',
    tag: 'Schemes',
    summary: 'Delete a scheme with its channels and releases',
    scopes: MANAGE,
    params: schemeId,
    responses: { '200': DELETED_RESPONSE, ...errors(...READ_WITH_TOKEN) },
    async handle({ params, clients, req, res }) {
      await noteAppOf(res, async () => (await clients.apps.getScheme({ actor: actorOf(req), id: params.id })).appId);
      await clients.apps.deleteScheme({ actor: actorOf(req), id: params.id });
      res.json(DELETED_ANSWER);
    },
  }),
];
