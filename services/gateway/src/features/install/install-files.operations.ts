import { createHash } from 'node:crypto';
import { InvalidArgument, NotFound, Unauthenticated } from '@hangar/errors';
import type { releases } from '@hangar/proto';
import { publicBaseUrl } from '../../http/base-url';
import { queryText } from '../../http/input';
import { answeredNotModified } from '../../install/immutable-bytes';
import { iosManifest } from '../../install/ios-manifest';
import { DEFAULT_ICON_SVG } from '../../presenters/default-icon';
import { NOT_MODIFIED, NO_TOKEN, downloadResponses, errors, query } from '../../openapi/openapi-parts';
import { idParam, operation } from '../../operations/declare';
import { sendStoredFile } from '../releases/stored-files';

const QR_SIZE = { min: 64, max: 1024, fallback: 256 };
const RELEASE_ID = idParam('Release id');
const SIGNED_TOKEN = query('t', 'Signed download token from the release page');
const PROTECTED = 'This channel is protected by a password: open the release page to unlock it';


/** What a release's page links to (no token): its package, the iOS manifest, its icon and QR code — behind the channel's password where it has one. */
export const installFileOperations = [
  operation({
    method: 'get',
    path: '/api/releases/{id}/icon',
    operationId: 'getReleaseIcon',
    tag: 'Install',
    summary: "The release's icon (a default one when the package has none)",
    scopes: null,
    params: { id: RELEASE_ID },
    responses: {
      '200': { description: 'The icon (PNG), or the default icon (SVG). A stored icon never changes at this URL: ETag and `Cache-Control: immutable`', content: { 'image/png': {}, 'image/svg+xml': {} } },
      '304': NOT_MODIFIED,
      ...errors(404, 422, 503),
    },
    openApi: { security: NO_TOKEN },
    // The icon's bytes, not a redirect: its storage key is unique to the upload, so the
    // answer at this URL never changes and is cached for a year (ETag: the key).
    async handle({ clients, files, install, params, req, res }) {
      let download: releases.Download;
      try {
        download = await clients.releases.getDownload({ releaseId: params.id, kind: 'icon', expiresInSeconds: 60 });
      } catch (err) {
        if (!(err instanceof NotFound) || !/no icon/.test(err.message)) throw err;
        res.type('image/svg+xml').setHeader('Cache-Control', 'public, max-age=3600');
        res.send(DEFAULT_ICON_SVG);
        return;
      }
      if (answeredNotModified(req, res, `"${download.objectKey}"`)) return;
      const bytes = await install.icons.get(download.objectKey, async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of await files.storage.getStream(download.objectKey)) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      });
      res.type('png').send(bytes);
    },
  }),
  operation({
    method: 'get',
    path: '/api/releases/{id}/download',
    operationId: 'downloadRelease',
    tag: 'Install',
    summary: 'The package',
    scopes: null,
    params: { id: RELEASE_ID },
    responses: { ...downloadResponses('the package (media type of its format, e.g. application/vnd.android.package-archive, else application/octet-stream)', '*/*'), ...errors(401, 404, 422, 503) },
    openApi: {
      security: NO_TOKEN,
      description: 'A password-protected channel needs its unlock cookie or the signed `t` from the release page.',
      parameters: [SIGNED_TOKEN],
    },
    async handle({ clients, files, install, params, req, res }) {
      const release = await clients.releases.getRelease({ id: params.id });
      const { open, tester } = await install.access(req, release.context!.channel!, release.id);
      if (!open) throw new Unauthenticated(PROTECTED);
      const download = await clients.releases.getDownload({ releaseId: release.id, kind: 'package', expiresInSeconds: 300 });
      install.settings.countDownload?.(release.id, req);
      install.countTesterDownload(tester, release.context!.channel!.id, release.id);
      await sendStoredFile(res, download, files);
    },
  }),
  operation({
    method: 'get',
    path: '/api/releases/{id}/qrcode',
    operationId: 'getReleaseQrCode',
    tag: 'Install',
    summary: 'QR code of the release page URL',
    scopes: null,
    params: { id: RELEASE_ID },
    responses: { '200': { description: 'PNG; the same at this URL for as long as the release exists: ETag and `Cache-Control: immutable`', content: { 'image/png': {} } }, '304': NOT_MODIFIED, ...errors(404, 422, 503) },
    openApi: { security: NO_TOKEN, parameters: [query('size', 'Pixels, 64..1024 (default 256)', false, { type: 'string', pattern: '^[0-9]+$' })] },
    async handle({ clients, install, params, publicBaseUrl: base, req, res }) {
      const raw = queryText(req, 'size');
      const size = raw === undefined || raw === '' ? QR_SIZE.fallback : Number(raw);
      if (!Number.isInteger(size) || size < QR_SIZE.min || size > QR_SIZE.max || !/^\d+$/.test(raw ?? String(size))) {
        throw InvalidArgument.field('size', `must be an integer from ${QR_SIZE.min} to ${QR_SIZE.max}`);
      }
      const release = await clients.releases.getRelease({ id: params.id });
      // A pure function of the page URL and the size — and the page URL depends on the host the
      // request names (without PUBLIC_BASE_URL): so no shared cache keeps it for everyone, and a
      // browser's copy varies with the headers that chose the host. The ETag covers the URL.
      const pageUrl = `${publicBaseUrl(req, base)}/releases/${release.id}`;
      const key = `${pageUrl}|${size}`;
      res.setHeader('Vary', 'Host, X-Forwarded-Host, X-Forwarded-Proto');
      if (answeredNotModified(req, res, `"qr-${createHash('sha256').update(key).digest('base64url').slice(0, 27)}"`, 'private, max-age=3600')) return;
      const png = await install.qrCodes.get(key, () => qrCodeLibrary().toBuffer(pageUrl, { type: 'png', width: size, margin: 2, errorCorrectionLevel: 'M' }));
      res.type('png').send(png);
    },
  }),
  operation({
    method: 'get',
    path: '/api/releases/{id}/manifest.plist',
    operationId: 'getReleaseManifest',
    tag: 'Install',
    summary: 'iOS install manifest (itms-services)',
    scopes: null,
    params: { id: RELEASE_ID },
    responses: { '200': { description: 'The manifest plist', content: { 'application/xml': {} } }, ...errors(401, 404, 422, 503) },
    openApi: { security: NO_TOKEN, parameters: [SIGNED_TOKEN] },
    async handle({ clients, install, params, publicBaseUrl: base, req, res }) {
      const release = await clients.releases.getRelease({ id: params.id });
      if (release.platform !== 'iOS') throw new NotFound('Only iOS builds have an install manifest');
      const { open, tester } = await install.access(req, release.context!.channel!, release.id);
      if (!open) throw new Unauthenticated(PROTECTED);
      const api = `${publicBaseUrl(req, base)}/api/releases/${release.id}`;
      const t = install.downloadToken(release.id, tester);
      res.type('application/xml').setHeader('Cache-Control', 'no-store');
      install.settings.countDownload?.(release.id, req);
      res.send(iosManifest({ packageUrl: `${api}/download?t=${t}`, iconUrl: `${api}/icon`, bundleId: release.bundleId, bundleVersion: release.releaseVersion, title: release.appName }));
    },
  }),
];

/** Loaded at the first QR code asked for, not at start: most gateways draw few or none. */
function qrCodeLibrary(): typeof import('qrcode') {
  return require('qrcode') as typeof import('qrcode');
}
