import { Type } from '@sinclair/typebox';
import type { releases } from '@hangar/proto';
import { MANAGE, READ } from '../../auth/token-scopes';
import { debugFilesOfReleases, linksIfAvailable } from '../../clients/build-links';
import { actorOf, currentUser } from '../../http/authenticate.middleware';
import { publicBaseUrl } from '../../http/base-url';
import { DELETED as DELETED_RESPONSE, READ_WITH_TOKEN, WRITE_WITH_TOKEN, errors, ok, ref } from '../../openapi/openapi-parts';
import { DELETED_ANSWER } from '../../operations/answers';
import { REFUSAL } from '../../operations/body-check';
import { CallContext, idParam, operation } from '../../operations/declare';
import { presentRelease, presentReleaseStats } from '../../presenters/release.presenter';

/** What an edit may change: text, and `mandatory` as a JSON boolean or form text (the releases service judges the values). */
const RELEASE_EDIT_FIELDS = {
  changelog: Type.String(),
  custom_fields: Type.String(),
  release_version: Type.String(),
  build_version: Type.String(),
  branch: Type.String(),
  git_commit: Type.String(),
  ci_url: Type.String(),
  release_type: Type.String(),
  mandatory: Type.Unsafe<boolean | string>({ type: ['boolean', 'string'], description: 'true/false: installs of older builds must update to this one.', [REFUSAL]: 'must be true or false' }),
};

const releaseId = { id: idParam('Release id') };

/** A release with the links of its debug files (when the debug-files service answers), in the caller's time zone. */
async function answerRelease({ clients, publicBaseUrl: base, req, res }: Pick<CallContext, 'clients' | 'publicBaseUrl' | 'req' | 'res'>, release: releases.Release): Promise<void> {
  const files = await linksIfAvailable(debugFilesOfReleases(clients, [release]));
  res.json(presentRelease(release, files?.get(release.id), publicBaseUrl(req, base), currentUser(req).timezone));
}

/** A release as a record: read, edited, deleted, and its counts (its files are the install pages' and uploads'). */
export const releaseRecordOperations = [
  // The console's build page. The app's right is checked before anything of the release is answered.
  operation({
    method: 'get',
    path: '/api/releases/{id}',
    operationId: 'getRelease',
    tag: 'Releases',
    summary: 'A release with every field (app member+)',
    scopes: READ,
    params: releaseId,
    responses: { '200': ok('The release', ref('Release')), ...errors(...READ_WITH_TOKEN) },
    async handle({ params, clients, publicBaseUrl: base, req, res }) {
      const release = await clients.releases.getRelease({ id: params.id });
      await clients.apps.checkPermission({ actor: actorOf(req), appId: release.appId, action: 'releases.read' });
      await answerRelease({ clients, publicBaseUrl: base, req, res }, release);
    },
  }),
  operation({
    method: 'put',
    path: '/api/releases/{id}',
    operationId: 'updateRelease',
    tag: 'Releases',
    summary: 'Edit a release (fields left out keep their values)',
    scopes: MANAGE,
    params: releaseId,
    body: { fields: RELEASE_EDIT_FIELDS },
    responses: { '200': ok('Updated', ref('Release')), ...errors(...WRITE_WITH_TOKEN) },
    async handle({ params, body, clients, publicBaseUrl: base, req, res }) {
      const release = await clients.releases.updateRelease({
        actor: actorOf(req),
        id: params.id,
        changelog: body.changelog,
        customFields: body.custom_fields,
        releaseVersion: body.release_version,
        buildVersion: body.build_version,
        branch: body.branch,
        gitCommit: body.git_commit,
        ciUrl: body.ci_url,
        releaseType: body.release_type,
        mandatory: body.mandatory === undefined ? undefined : String(body.mandatory),
      });
      await answerRelease({ clients, publicBaseUrl: base, req, res }, release);
    },
  }),
  operation({
    method: 'delete',
    path: '/api/releases/{id}',
    operationId: 'deleteRelease',
    tag: 'Releases',
    summary: 'Delete a release and its files',
    scopes: MANAGE,
    params: releaseId,
    responses: { '200': DELETED_RESPONSE, ...errors(...READ_WITH_TOKEN) },
    async handle({ params, clients, req, res }) {
      await clients.releases.deleteRelease({ actor: actorOf(req), id: params.id });
      res.json(DELETED_ANSWER);
    },
  }),
  operation({
    method: 'get',
    path: '/api/releases/{id}/stats',
    operationId: 'getReleaseStats',
    tag: 'Releases',
    summary: 'Downloads and installs of a release, per UTC day',
    scopes: READ,
    params: releaseId,
    responses: { '200': ok('Totals and days', ref('ReleaseStats')), ...errors(...READ_WITH_TOKEN) },
    openApi: { description: 'For collaborators of the app (member and up). Counted off the request path: a download shows here within seconds.' },
    async handle({ params, clients, req, res }) {
      res.json(presentReleaseStats(await clients.releases.getReleaseStats({ actor: actorOf(req), releaseId: params.id })));
    },
  }),
];
