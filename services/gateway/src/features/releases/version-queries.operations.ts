import { VERSION_CHECK } from '../../auth/token-scopes';
import { debugFilesOfReleases, linksIfAvailable } from '../../clients/build-links';
import { publicBaseUrl } from '../../http/base-url';
import { queryText, requiredQuery } from '../../http/input';
import { parsePage, setPageHeaders } from '../../http/pagination';
import { OPTIONAL_TOKEN, PAGE_HEADERS, READ_WITH_KEY, errors, ok, param, query, ref } from '../../openapi/openapi-parts';
import { type CallContext, operation } from '../../operations/declare';
import { presentRelease, presentVersionList } from '../../presenters/release.presenter';

/** A page of a channel's releases: its paging headers, and each release with its debug files' links when that service answers. */
async function answerList({ clients, publicBaseUrl: base, req, res }: CallContext, page: ReturnType<typeof parsePage>, list: Parameters<typeof presentVersionList>[0]): Promise<void> {
  const baseUrl = publicBaseUrl(req, base);
  setPageHeaders(req, res, page, list.total, baseUrl);
  res.json(presentVersionList(list, await linksIfAvailable(debugFilesOfReleases(clients, list.releases)), baseUrl, req.user?.timezone));
}

/**
 * What CI scripts and apps ask of a channel by its key (PRODUCT §4): its releases, those newer than
 * a version, whether a build exists. Open to anyone with the key; a token, when sent, is checked
 * and sets the time zone of the answer.
 */
export const versionQueryOperations = [
  operation({
    method: 'get',
    path: '/api/apps/versions',
    operationId: 'listVersions',
    tag: 'Releases',
    summary: "A channel's releases, newest upload first",
    scopes: VERSION_CHECK,
    caller: 'optional',
    params: {},
    responses: { '200': ok('The channel and a page of its releases', ref('VersionList'), PAGE_HEADERS), ...errors(...READ_WITH_KEY) },
    openApi: {
      security: OPTIONAL_TOKEN,
      description: 'The optional filters (an addition to Zealot) narrow the list and its `X-Total-Count`; empty ones match everything, and a value over 200 characters is 422.',
      parameters: [
        param('channel_key'),
        query('release_version', 'Only this release version or its dotted extensions (`1.2` matches `1.2` and `1.2.3`, not `1.20`)'),
        query('branch', 'Only builds of this git branch'),
        query('git_commit', 'Only builds whose commit starts with this (any case)'),
        param('page'),
        param('per_page'),
      ],
    },
    async handle(call) {
      const { clients, req } = call;
      const page = parsePage(req);
      const list = await clients.releases.listVersions({
        channelKey: requiredQuery(req, 'channel_key'),
        page,
        filter: { releaseVersion: queryText(req, 'release_version') ?? '', branch: queryText(req, 'branch') ?? '', gitCommit: queryText(req, 'git_commit') ?? '' },
      });
      await answerList(call, page, list);
    },
  }),
  operation({
    method: 'get',
    path: '/api/apps/latest',
    operationId: 'latestReleases',
    tag: 'Releases',
    summary: 'Releases newer than the given version',
    scopes: VERSION_CHECK,
    caller: 'optional',
    params: {},
    responses: { '200': ok('The channel and the newer releases, newest version first', ref('VersionList'), PAGE_HEADERS), ...errors(...READ_WITH_KEY) },
    openApi: {
      security: OPTIONAL_TOKEN,
      parameters: [
        param('channel_key'),
        query('release_version', 'The version the client has'),
        query('build_version', 'The build the client has'),
        query('bundle_id', 'Only this package id'),
        param('page'),
        param('per_page'),
      ],
    },
    async handle(call) {
      const { clients, req } = call;
      const page = parsePage(req);
      const list = await clients.releases.latestReleases({
        channelKey: requiredQuery(req, 'channel_key'),
        releaseVersion: queryText(req, 'release_version') ?? '',
        buildVersion: queryText(req, 'build_version') ?? '',
        bundleId: queryText(req, 'bundle_id') ?? '',
        page,
      });
      await answerList(call, page, list);
    },
  }),
  operation({
    method: 'get',
    path: '/api/apps/version_exist',
    operationId: 'versionExists',
    tag: 'Releases',
    summary: 'Whether a build exists',
    scopes: VERSION_CHECK,
    caller: 'optional',
    params: {},
    responses: { '200': ok('The release', ref('Release')), ...errors(...READ_WITH_KEY) },
    openApi: {
      security: OPTIONAL_TOKEN,
      description: 'Valid combinations: bundle_id with release_version and build_version, or bundle_id with git_commit; others are 422.',
      parameters: [
        param('channel_key'),
        query('bundle_id', 'Package id', true),
        query('release_version', 'Release version'),
        query('build_version', 'Build version'),
        query('git_commit', 'Commit'),
      ],
    },
    async handle({ clients, publicBaseUrl: base, req, res }) {
      const release = await clients.releases.versionExists({
        channelKey: requiredQuery(req, 'channel_key'),
        bundleId: queryText(req, 'bundle_id') ?? '',
        releaseVersion: queryText(req, 'release_version') ?? '',
        buildVersion: queryText(req, 'build_version') ?? '',
        gitCommit: queryText(req, 'git_commit') ?? '',
      });
      const files = await linksIfAvailable(debugFilesOfReleases(clients, [release]));
      res.json(presentRelease(release, files?.get(release.id), publicBaseUrl(req, base), req.user?.timezone));
    },
  }),
];
