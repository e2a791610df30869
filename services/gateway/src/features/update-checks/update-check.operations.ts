import type { releases } from '@hangar/proto';
import { READ } from '../../auth/token-scopes';
import { publicBaseUrl } from '../../http/base-url';
import { queryText, requiredQuery } from '../../http/input';
import { sendRevalidated, sendRevalidatedBody } from '../../http/revalidated';
import { NOT_MODIFIED, OPTIONAL_TOKEN, READ_WITH_KEY, errors, ok, param, query, ref } from '../../openapi/openapi-parts';
import { operation } from '../../operations/declare';
import { presentUpdateCheck } from '../../presenters/release.presenter';

/**
 * In-app update checks: what every installed build polls. Mounted ahead of every other router
 * (operations/catalogue.ts, FIRST_MOUNTED): express tries each router's layers in turn, and
 * walking the ten before it cost a fifth of an update check's CPU. A held answer with no token is
 * served before express altogether (update-check.fast-path.ts).
 */
export const updateCheckOperations = [
  operation({
    method: 'get',
    path: '/api/apps/update_check',
    operationId: 'updateCheck',
    tag: 'Releases',
    summary: 'In-app update check: is there a newer build, and must it be installed?',
    scopes: READ,
    caller: 'optional',
    params: {},
    responses: {
      '200': ok('The answer; `ETag` and `Cache-Control: no-cache` (revalidate each time: a 304 costs no database read)', ref('UpdateCheck'), {
        ETag: { schema: { type: 'string' } },
        'Cache-Control': { schema: { type: 'string' } },
      }),
      '304': NOT_MODIFIED,
      ...errors(...READ_WITH_KEY),
    },
    openApi: {
      security: OPTIONAL_TOKEN,
      description: 'Newer means what `latest` means: a higher release version, or the same release version and a higher build version.',
      parameters: [
        param('channel_key'),
        query('bundle_id', 'Package id of the installed app', true),
        query('release_version', 'Installed release version', true),
        query('build_version', 'Installed build version', true),
        query('release_hash', 'SHA-256 (64 hex digits) of the installed package; anything else is 422', false, { type: 'string' }),
      ],
    },
    async handle({ clients, files, publicBaseUrl: base, req, res }) {
      const checked = {
        channelKey: requiredQuery(req, 'channel_key'),
        bundleId: queryText(req, 'bundle_id') ?? '',
        releaseVersion: queryText(req, 'release_version') ?? '',
        buildVersion: queryText(req, 'build_version') ?? '',
        releaseHash: queryText(req, 'release_hash') ?? '',
      };
      const view = { baseUrl: publicBaseUrl(req, base), timeZone: req.user?.timezone };
      const present = (answer: releases.UpdateCheck) => presentUpdateCheck(answer, view.baseUrl, view.timeZone);
      if (files.updateChecks && !files.refused?.has(req.ip ?? '')) sendRevalidatedBody(req, res, await files.updateChecks.answer(checked, { ...view, present }));
      else sendRevalidated(req, res, present(await clients.releases.checkForUpdate(checked)));
    },
  }),
];
