import { createHash } from 'node:crypto';
import path from 'node:path';
import express, { Request, Response, Router } from 'express';
import { InvalidArgument, NotFound, Unauthenticated, isDomainError } from '@hangar/errors';
import type { apps, releases } from '@hangar/proto';
import { debugFileUrl } from '@hangar/release-shape';
import { debugFilesOfReleases, linksIfAvailable } from '../clients/build-links';
import type { ServiceClients } from '../clients/service-clients';
import type { CountDownload } from '../downloads/download-counter';
import { publicBaseUrl } from '../http/base-url';
import { parseId, queryText } from '../http/input';
import { ImmutableBytes, answeredNotModified } from '../install/immutable-bytes';
import { iosManifest } from '../install/ios-manifest';
import { messagePage, channelPage, passwordPage, releasePage } from '../install/pages';
import type { AttemptCounter, AttemptRule } from '../limits/attempt-rule';
import { SignedTokens } from '../install/signed-tokens';
import { ReleasesRouteOptions, sendDownload } from './releases.routes';

export interface InstallRouteOptions extends Pick<ReleasesRouteOptions, 'downloadRedirect' | 'storage'> {
  publicBaseUrl?: string;
  /** Signs unlock cookies and download tokens; the same on every replica. */
  secret: string;
  unlockTtlSeconds: number;
  /** Counts a download or an iOS manifest fetch, off the request path (absent: DOWNLOAD_COUNTING=false). */
  countDownload?: CountDownload;
  /** Wrong visit passwords, counted per client address and channel (across replicas in production). */
  unlockAttempts: { counter: AttemptCounter; rule: AttemptRule };
}

const QR_SIZE = { min: 64, max: 1024, fallback: 256 };
const DOWNLOAD_TOKEN_TTL_SECONDS = 3600;
const unlockCookie = (channelId: number) => `hangar_unlock_${channelId}`;

function cookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      // A malformed escape (`%E0%A4%A`) made decodeURIComponent throw a URIError: a 500 on the
      // install pages of protected channels. An undecodable cookie is no unlock cookie.
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** A local path to go back to after unlocking; never another site. */
function safeNext(value: unknown, fallback: string): string {
  return typeof value === 'string' && /^\/(?!\/)[^\s\\]*$/.test(value) ? value : fallback;
}

/**
 * What testers open: release and channel pages, the QR code, the iOS
 * manifest and downloads — with the password gate of protected channels.
 * The API's own channel_key routes are not affected by the gate.
 */
export function installRoutes(clients: ServiceClients, options: InstallRouteOptions): Router {
  const router = Router();
  const tokens = new SignedTokens(options.secret);
  const { counter: attempts, rule: unlockRule } = options.unlockAttempts;
  const qrCodes = new ImmutableBytes(16 * 1024 * 1024);
  const base = (req: Request) => publicBaseUrl(req, options.publicBaseUrl);

  router.use('/assets/fontawesome', express.static(path.dirname(require.resolve('@fortawesome/fontawesome-free/package.json')), { maxAge: '7d', index: false }));
  router.use('/assets', express.static(path.join(__dirname, '..', '..', 'assets'), { maxAge: '1h', index: false }));

  /** Open channel, an unlock cookie for it, or a signed token for this release. */
  function mayOpen(req: Request, channel: apps.Channel, releaseId?: number): boolean {
    if (!channel.hasPassword) return true;
    if (tokens.verify(cookie(req, unlockCookie(channel.id)), `channel:${channel.id}`)) return true;
    return releaseId !== undefined && tokens.verify(queryText(req, 't'), `release:${releaseId}`);
  }

  async function loadRelease(req: Request): Promise<releases.Release> {
    return clients.releases.getRelease({ id: parseId(req.params.id) });
  }

  function sendPage(res: Response, status: number, html: string) {
    res.status(status).type('html').setHeader('Cache-Control', 'no-store').send(html);
  }

  async function pageErrors(res: Response, work: () => Promise<void>) {
    try {
      await work();
    } catch (err) {
      if (isDomainError(err) && (err.code === 'not_found' || err.code === 'invalid_argument')) {
        return sendPage(res, 404, messagePage('Not found', 'This build or channel does not exist (any more).'));
      }
      throw err;
    }
  }

  router.get('/releases/:id', (req, res) =>
    pageErrors(res, async () => {
      const release = await loadRelease(req);
      const channel = release.context!.channel!;
      if (!mayOpen(req, channel, release.id)) {
        return sendPage(res, 401, passwordPage(channel.name, `/channels/${encodeURIComponent(channel.slug)}/unlock`, req.originalUrl));
      }
      const api = `${base(req)}/api/releases/${release.id}`;
      // The page is for installing: with the debug-files service down it shows no symbols section.
      const files = (await linksIfAvailable(debugFilesOfReleases(clients, [release])))?.get(release.id) ?? [];
      const t = encodeURIComponent(tokens.sign(`release:${release.id}`, DOWNLOAD_TOKEN_TTL_SECONDS));
      const install = release.platform === 'iOS' ? `itms-services://?action=download-manifest&url=${encodeURIComponent(`${api}/manifest.plist?t=${t}`)}` : `${api}/download?t=${t}`;
      sendPage(
        res,
        200,
        releasePage(release, files, {
          icon: `${api}/icon`,
          qrcode: `${api}/qrcode?size=384`,
          install,
          channelPage: `${base(req)}/channels/${encodeURIComponent(channel.slug)}`,
          debugFile: (id) => debugFileUrl(base(req), id, channel.slug),
        }),
      );
    }),
  );

  router.get('/channels/:slug', (req, res) =>
    pageErrors(res, async () => {
      const perPage = 20;
      // `?page=1e999` was Infinity, which the gRPC client cannot encode as int32 (a 500):
      // only a plain page number counts, anything else shows the first page.
      const rawPage = queryText(req, 'page');
      const page = rawPage && /^\d{1,9}$/.test(rawPage) ? Math.max(1, Number(rawPage)) : 1;
      const list = await clients.releases.listVersions({ channelKey: req.params.slug!, page: { page, perPage } });
      const channel = list.context!.channel!;
      if (!mayOpen(req, channel)) {
        return sendPage(res, 401, passwordPage(channel.name, `/channels/${encodeURIComponent(channel.slug)}/unlock`, req.originalUrl));
      }
      const self = `/channels/${encodeURIComponent(channel.slug)}`;
      sendPage(res, 200, channelPage(list, page, perPage, (id) => `/releases/${id}`, (n) => `${self}?page=${n}`));
    }),
  );

  router.post('/channels/:slug/unlock', express.urlencoded({ extended: false, limit: '16kb' }), (req, res) =>
    pageErrors(res, async () => {
      const slug = req.params.slug!;
      const client = req.ip ?? 'unknown';
      const next = safeNext(req.body?.next, `/channels/${encodeURIComponent(slug)}`);
      const subject = `${client}|${slug}`;
      const waitMs = await attempts.retryAfterMs(unlockRule, subject);
      const context = await clients.apps.resolveChannel({ channelKey: slug, channelId: 0 });
      const channel = context.channel!;
      const action = `/channels/${encodeURIComponent(slug)}/unlock`;
      if (waitMs > 0) {
        res.setHeader('Retry-After', String(Math.ceil(waitMs / 1000)));
        return sendPage(res, 429, passwordPage(channel.name, action, next, 'Too many wrong passwords. Try again later.'));
      }
      const password = typeof req.body?.password === 'string' ? req.body.password : '';
      const { ok } = await clients.apps.verifyChannelPassword({ channelKey: slug, password });
      if (!ok) {
        await attempts.recordFailure(unlockRule, subject);
        return sendPage(res, 401, passwordPage(channel.name, action, next, 'That password is not right.'));
      }
      await attempts.recordSuccess(unlockRule, subject);
      res.cookie(unlockCookie(channel.id), tokens.sign(`channel:${channel.id}`, options.unlockTtlSeconds), {
        httpOnly: true,
        sameSite: 'lax',
        secure: base(req).startsWith('https://'),
        maxAge: options.unlockTtlSeconds * 1000,
        path: '/',
      });
      res.redirect(303, next);
    }),
  );

  router.get('/api/releases/:id/qrcode', async (req, res) => {
    const id = parseId(req.params.id);
    const raw = queryText(req, 'size');
    const size = raw === undefined || raw === '' ? QR_SIZE.fallback : Number(raw);
    if (!Number.isInteger(size) || size < QR_SIZE.min || size > QR_SIZE.max || !/^\d+$/.test(raw ?? String(size))) {
      throw InvalidArgument.field('size', `must be an integer from ${QR_SIZE.min} to ${QR_SIZE.max}`);
    }
    const release = await clients.releases.getRelease({ id });
    // A pure function of the page URL and the size: the same bytes at this URL for as long as it exists.
    const pageUrl = `${base(req)}/releases/${release.id}`;
    const key = `${pageUrl}|${size}`;
    if (answeredNotModified(req, res, `"qr-${createHash('sha256').update(key).digest('base64url').slice(0, 27)}"`)) return;
    const png = await qrCodes.get(key, () => qrCodeLibrary().toBuffer(pageUrl, { type: 'png', width: size, margin: 2, errorCorrectionLevel: 'M' }));
    res.type('png').send(png);
  });

  router.get('/api/releases/:id/manifest.plist', async (req, res) => {
    const release = await loadRelease(req);
    if (release.platform !== 'iOS') throw new NotFound('Only iOS builds have an install manifest');
    if (!mayOpen(req, release.context!.channel!, release.id)) throw new Unauthenticated('This channel is protected by a password: open the release page to unlock it');
    const api = `${base(req)}/api/releases/${release.id}`;
    const t = encodeURIComponent(tokens.sign(`release:${release.id}`, DOWNLOAD_TOKEN_TTL_SECONDS));
    res.type('application/xml').setHeader('Cache-Control', 'no-store');
    options.countDownload?.(release.id, req);
    res.send(iosManifest({ packageUrl: `${api}/download?t=${t}`, iconUrl: `${api}/icon`, bundleId: release.bundleId, bundleVersion: release.releaseVersion, title: release.appName }));
  });

  router.get('/api/releases/:id/download', async (req, res) => {
    const release = await loadRelease(req);
    if (!mayOpen(req, release.context!.channel!, release.id)) throw new Unauthenticated('This channel is protected by a password: open the release page to unlock it');
    const download = await clients.releases.getDownload({ releaseId: release.id, kind: 'package', expiresInSeconds: 300 });
    options.countDownload?.(release.id, req);
    await sendDownload(req, res, download, options);
  });

  return router;
}

/** Loaded at the first QR code asked for, not at start: most gateways draw few or none. */
function qrCodeLibrary(): typeof import('qrcode') {
  return require('qrcode') as typeof import('qrcode');
}
