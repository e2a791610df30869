import type { Response } from 'express';
import { isDomainError } from '@hangar/errors';
import { publicBaseUrl } from '../../http/base-url';
import { parseId, queryText } from '../../http/input';
import { channelPage, messagePage, passwordPage, releasePage } from '../../install/pages';
import { sendInstallPage } from '../../install/page-headers';
import { TooManyAttempts } from '../../limits/too-many-attempts';
import { NO_TOKEN, htmlPage, query, str } from '../../openapi/openapi-parts';
import type { Operation, RequestBody } from '../../openapi/schema-types';
import { operation, textParam } from '../../operations/declare';

const releaseUnlockPath = (releaseId: number) => `/releases/${releaseId}/unlock`;

/** The visit-password form both unlock operations take (by release id, and by channel key), and the pages they answer a refusal with. */
const UNLOCK_FORM: RequestBody = { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { password: str(), next: str('A local path') } } } } };
const UNLOCK_PAGES: Operation['responses'] = { '401': htmlPage('Wrong password: the form again'), '404': htmlPage('Not found page') };
const RETRY_AFTER = { 'Retry-After': { required: true, schema: { type: 'string' as const } } };
const REDIRECTED = (description: string) => ({ description, headers: { Location: { required: true, schema: { type: 'string' as const } } } });

/**
 * A page's refusals as pages: too many unknown channel keys from this address
 * (limits/failed-channel-key-limit.ts) a 429, an unknown or malformed build or channel a 404.
 */
async function pageErrors(res: Response, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (err instanceof TooManyAttempts) {
      res.setHeader('Retry-After', String(err.retryAfterSeconds));
      return sendInstallPage(res, 429, messagePage('Too many tries', 'Too many unknown links from this address. Try again later.'));
    }
    if (isDomainError(err) && (err.code === 'not_found' || err.code === 'invalid_argument')) {
      return sendInstallPage(res, 404, messagePage('Not found', 'This build or channel does not exist (any more).'));
    }
    throw err;
  }
}

/**
 * What testers open (HTML, no token): a release's page and a channel's, with the password gate of
 * protected channels and its forms. The API's own channel_key operations are not gated.
 */
export const installPageOperations = [
  operation({
    method: 'get',
    path: '/releases/{id}',
    operationId: 'releasePage',
    tag: 'Install',
    summary: 'Release page',
    scopes: null,
    // Not a number is a "not found" page, not a 422.
    params: { id: textParam('Release id') },
    responses: { '200': htmlPage('The page'), '401': htmlPage('The password form (protected channel)'), '404': htmlPage('Not found page') },
    openApi: { security: NO_TOKEN },
    handle: ({ clients, install, params, publicBaseUrl: base, req, res }) =>
      pageErrors(res, async () => {
        const release = await clients.releases.getRelease({ id: parseId(params.id) });
        const channel = release.context!.channel!;
        // The form posts to the release, not the channel: its key is the credential of the
        // channel's API, and this page is open to anyone who counts release ids.
        const { open, tester } = await install.access(req, channel, release.id);
        if (!open) return sendInstallPage(res, 401, passwordPage(channel.name, releaseUnlockPath(release.id), req.originalUrl));
        const origin = publicBaseUrl(req, base);
        const api = `${origin}/api/releases/${release.id}`;
        // A tester's install link carries their session: it stops working when they are removed.
        const t = install.downloadToken(release.id, tester);
        const installUrl = release.platform === 'iOS' ? `itms-services://?action=download-manifest&url=${encodeURIComponent(`${api}/manifest.plist?t=${t}`)}` : `${api}/download?t=${t}`;
        sendInstallPage(
          res,
          200,
          // No debug files here: a mapping de-obfuscates the app for anyone with the link;
          // collaborators find them in the console and the API.
          releasePage(
            release,
            { icon: `${api}/icon`, qrcode: `${api}/qrcode?size=384`, install: installUrl, channelPage: `${origin}/channels/${encodeURIComponent(channel.slug)}` },
            await install.testerDevicesLeftOut(tester, release),
          ),
        );
      }),
  }),
  operation({
    method: 'post',
    path: '/releases/{id}/unlock',
    operationId: 'unlockRelease',
    tag: 'Install',
    summary: "Unlock the pages of a release's channel with its password (the release page's form: it names no channel key)",
    scopes: null,
    params: { id: textParam('Release id') },
    page: true,
    responses: {
      '303': REDIRECTED('Unlocked (or the channel has no password): a signed cookie is set; back to `next`'),
      ...UNLOCK_PAGES,
      '429': { ...htmlPage('Too many wrong passwords'), headers: RETRY_AFTER },
    },
    openApi: { security: NO_TOKEN, requestBody: UNLOCK_FORM },
    // The release page's form: by release id, so no page a visitor without the password sees names the key.
    handle: ({ clients, install, params, publicBaseUrl: base, req, res }) =>
      pageErrors(res, async () => {
        const release = await clients.releases.getRelease({ id: parseId(params.id) });
        await install.unlock(req, res, release.context!.channel!, releaseUnlockPath(release.id), `/releases/${release.id}`, base);
      }),
  }),
  operation({
    method: 'get',
    path: '/channels/{slug}',
    operationId: 'channelPage',
    tag: 'Install',
    summary: "A channel's releases",
    scopes: null,
    params: { slug: textParam('Channel key') },
    responses: {
      '200': htmlPage('The page'),
      '401': htmlPage('The password form (protected channel)'),
      '404': htmlPage('Not found page'),
      '429': { ...htmlPage('Too many unknown channel keys from this address'), headers: RETRY_AFTER },
    },
    openApi: { security: NO_TOKEN, parameters: [query('page', 'Page number')] },
    handle: ({ clients, install, params, req, res }) =>
      pageErrors(res, async () => {
        const perPage = 20;
        // `?page=1e999` was Infinity, which the gRPC client cannot encode as int32 (a 500):
        // only a plain page number counts, anything else shows the first page.
        const rawPage = queryText(req, 'page');
        const page = rawPage && /^\d{1,9}$/.test(rawPage) ? Math.max(1, Number(rawPage)) : 1;
        const list = await clients.releases.listVersions({ channelKey: params.slug, page: { page, perPage } });
        const channel = list.context!.channel!;
        if (!(await install.access(req, channel)).open) {
          return sendInstallPage(res, 401, passwordPage(channel.name, `/channels/${encodeURIComponent(channel.slug)}/unlock`, req.originalUrl));
        }
        const self = `/channels/${encodeURIComponent(channel.slug)}`;
        sendInstallPage(res, 200, channelPage(list, page, perPage, (id) => `/releases/${id}`, (n) => `${self}?page=${n}`));
      }),
  }),
  operation({
    method: 'post',
    path: '/channels/{slug}/unlock',
    operationId: 'unlockChannel',
    tag: 'Install',
    summary: "Unlock a channel's pages with its password",
    scopes: null,
    params: { slug: textParam('Channel key') },
    page: true,
    responses: {
      '303': REDIRECTED('Unlocked: a signed cookie is set; back to `next`'),
      ...UNLOCK_PAGES,
      '429': { ...htmlPage('Too many wrong passwords, or unknown channel keys from this address'), headers: RETRY_AFTER },
    },
    openApi: { security: NO_TOKEN, requestBody: UNLOCK_FORM },
    // For who has the channel's key (its channel page).
    handle: ({ clients, install, params, publicBaseUrl: base, req, res }) =>
      pageErrors(res, async () => {
        const { channel } = await clients.apps.resolveChannel({ channelKey: params.slug, channelId: 0 });
        const self = `/channels/${encodeURIComponent(params.slug)}`;
        await install.unlock(req, res, channel!, `${self}/unlock`, self, base);
      }),
  }),
];
