import { createHash } from 'node:crypto';
import path from 'node:path';
import express, { Request, Response, Router } from 'express';
import { InvalidArgument, NotFound, Unauthenticated, isDomainError } from '@hangar/errors';
import type { apps, releases } from '@hangar/proto';
import type { ServiceClients } from '../clients/service-clients';
import type { CountDownload } from '../downloads/download-counter';
import { publicBaseUrl } from '../http/base-url';
import { parseId, queryText } from '../http/input';
import { localPath } from '../http/local-path';
import { ImmutableBytes, answeredNotModified } from '../install/immutable-bytes';
import { iosManifest } from '../install/ios-manifest';
import { messagePage, channelPage, passwordPage, releasePage } from '../install/pages';
import type { AttemptCounter, AttemptRule } from '../limits/attempt-rule';
import { TooManyAttempts } from '../limits/too-many-attempts';
import { SignedTokens } from '../install/signed-tokens';
import { sendInstallPage } from '../install/page-headers';
import { testerBySessionId, testerOf } from '../features/testers/tester-session';
import { devicesLeftOut, listedProfile } from '../features/devices/device-fit';
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
const releaseUnlockPath = (releaseId: number) => `/releases/${releaseId}/unlock`;

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

  /**
   * Who may open a channel's builds: anyone when it has no password; else an unlock cookie, a
   * download token signed for this release, or a tester whose groups open the channel — by their
   * cookie, or by the session signed into their install link (`release:<id>:tester:<session>`),
   * asked of the apps service each time so a removed tester's links stop at once.
   * `tester` names who, so a download counts as theirs.
   */
  async function access(req: Request, channel: apps.Channel, releaseId?: number): Promise<{ open: boolean; tester?: apps.TesterIdentity }> {
    const signed = releaseId !== undefined ? tokens.subjectOf(queryText(req, 't')) : undefined;
    const testerSession = signed?.startsWith(`release:${releaseId}:tester:`) ? Number(signed.slice(`release:${releaseId}:tester:`.length)) : 0;
    const tester = testerSession > 0 ? await testerBySessionId(clients, testerSession) : await testerOf(clients, req);
    if (tester?.channels.some((c) => c.channelId === channel.id)) return { open: true, tester };
    if (!channel.hasPassword) return { open: true };
    if (testerSession > 0) return { open: false };
    if (tokens.verify(cookie(req, unlockCookie(channel.id)), `channel:${channel.id}`)) return { open: true };
    return { open: releaseId !== undefined && signed === `release:${releaseId}` };
  }

  /** The names of the signed-in tester's devices an ad hoc or development build will not install on. */
  async function testerDevicesLeftOut(tester: apps.TesterIdentity | undefined, release: releases.Release): Promise<string[]> {
    const profile = tester ? listedProfile(release) : null;
    if (!tester || !profile) return [];
    const { devices } = await clients.apps.listTesterDevices({ secret: '', sessionId: tester.sessionId });
    return devicesLeftOut(profile, devices).map((d) => d.name);
  }

  /** A download by a tester is theirs: the state an app's admins see (off the answer's path). */
  function countTesterDownload(tester: apps.TesterIdentity | undefined, channelId: number, releaseId: number): void {
    if (tester) void clients.apps.recordTesterDownload({ email: tester.email, channelId, releaseId }).catch(() => undefined);
  }

  async function loadRelease(req: Request): Promise<releases.Release> {
    return clients.releases.getRelease({ id: parseId(req.params.id) });
  }

  const sendPage = sendInstallPage;

  async function pageErrors(res: Response, work: () => Promise<void>) {
    try {
      await work();
    } catch (err) {
      // Too many unknown channel keys from this address (limits/failed-channel-key-limit.ts): a page, not JSON.
      if (err instanceof TooManyAttempts) {
        res.setHeader('Retry-After', String(err.retryAfterSeconds));
        return sendPage(res, 429, messagePage('Too many tries', 'Too many unknown links from this address. Try again later.'));
      }
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
      // The form posts to the release, not the channel: its key is the credential of the
      // channel's API, and this page is open to anyone who counts release ids.
      const { open, tester } = await access(req, channel, release.id);
      if (!open) return sendPage(res, 401, passwordPage(channel.name, releaseUnlockPath(release.id), req.originalUrl));
      const api = `${base(req)}/api/releases/${release.id}`;
      // A tester's install link carries their session: it stops working when they are removed.
      const t = encodeURIComponent(tokens.sign(tester ? `release:${release.id}:tester:${tester.sessionId}` : `release:${release.id}`, DOWNLOAD_TOKEN_TTL_SECONDS));
      const install = release.platform === 'iOS' ? `itms-services://?action=download-manifest&url=${encodeURIComponent(`${api}/manifest.plist?t=${t}`)}` : `${api}/download?t=${t}`;
      sendPage(
        res,
        200,
        // No debug files here: a mapping de-obfuscates the app for anyone with the link;
        // collaborators find them in the console and the API.
        releasePage(
          release,
          {
            icon: `${api}/icon`,
            qrcode: `${api}/qrcode?size=384`,
            install,
            channelPage: `${base(req)}/channels/${encodeURIComponent(channel.slug)}`,
          },
          await testerDevicesLeftOut(tester, release),
        ),
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
      if (!(await access(req, channel)).open) {
        return sendPage(res, 401, passwordPage(channel.name, `/channels/${encodeURIComponent(channel.slug)}/unlock`, req.originalUrl));
      }
      const self = `/channels/${encodeURIComponent(channel.slug)}`;
      sendPage(res, 200, channelPage(list, page, perPage, (id) => `/releases/${id}`, (n) => `${self}?page=${n}`));
    }),
  );

  /**
   * Checks a visit password of `channel` and answers: the form again (401, 429 past the limit
   * of wrong passwords per address and channel, with Retry-After) or the unlock cookie and a
   * redirect to `next`. `action` is the form's own address, which shows no key the visitor
   * did not already have.
   */
  async function unlock(req: Request, res: Response, channel: apps.Channel, action: string, fallbackNext: string) {
    const next = localPath(req.body?.next) ?? fallbackNext;
    const subject = `${req.ip ?? 'unknown'}|channel:${channel.id}`;
    const waitMs = await attempts.retryAfterMs(unlockRule, subject);
    if (waitMs > 0) {
      res.setHeader('Retry-After', String(Math.ceil(waitMs / 1000)));
      return sendPage(res, 429, passwordPage(channel.name, action, next, 'Too many wrong passwords. Try again later.'));
    }
    const password = typeof req.body?.password === 'string' ? req.body.password : '';
    const { ok } = channel.hasPassword ? await clients.apps.verifyChannelPassword({ channelKey: channel.slug, password }) : { ok: true };
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
  }

  // For who has the channel's key (its channel page).
  router.post('/channels/:slug/unlock', express.urlencoded({ extended: false, limit: '16kb' }), (req, res) =>
    pageErrors(res, async () => {
      const slug = req.params.slug!;
      const { channel } = await clients.apps.resolveChannel({ channelKey: slug, channelId: 0 });
      await unlock(req, res, channel!, `/channels/${encodeURIComponent(slug)}/unlock`, `/channels/${encodeURIComponent(slug)}`);
    }),
  );

  // The release page's form: by release id, so no page a visitor without the password sees names the key.
  router.post('/releases/:id/unlock', express.urlencoded({ extended: false, limit: '16kb' }), (req, res) =>
    pageErrors(res, async () => {
      const release = await loadRelease(req);
      await unlock(req, res, release.context!.channel!, releaseUnlockPath(release.id), `/releases/${release.id}`);
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
    // A pure function of the page URL and the size — and the page URL depends on the host the
    // request names (without PUBLIC_BASE_URL): so no shared cache keeps it for everyone, and a
    // browser's copy varies with the headers that chose the host. The ETag covers the URL.
    const pageUrl = `${base(req)}/releases/${release.id}`;
    const key = `${pageUrl}|${size}`;
    res.setHeader('Vary', 'Host, X-Forwarded-Host, X-Forwarded-Proto');
    if (answeredNotModified(req, res, `"qr-${createHash('sha256').update(key).digest('base64url').slice(0, 27)}"`, 'private, max-age=3600')) return;
    const png = await qrCodes.get(key, () => qrCodeLibrary().toBuffer(pageUrl, { type: 'png', width: size, margin: 2, errorCorrectionLevel: 'M' }));
    res.type('png').send(png);
  });

  router.get('/api/releases/:id/manifest.plist', async (req, res) => {
    const release = await loadRelease(req);
    if (release.platform !== 'iOS') throw new NotFound('Only iOS builds have an install manifest');
    const { open, tester } = await access(req, release.context!.channel!, release.id);
    if (!open) throw new Unauthenticated('This channel is protected by a password: open the release page to unlock it');
    const api = `${base(req)}/api/releases/${release.id}`;
    const t = encodeURIComponent(tokens.sign(tester ? `release:${release.id}:tester:${tester.sessionId}` : `release:${release.id}`, DOWNLOAD_TOKEN_TTL_SECONDS));
    res.type('application/xml').setHeader('Cache-Control', 'no-store');
    options.countDownload?.(release.id, req);
    res.send(iosManifest({ packageUrl: `${api}/download?t=${t}`, iconUrl: `${api}/icon`, bundleId: release.bundleId, bundleVersion: release.releaseVersion, title: release.appName }));
  });

  router.get('/api/releases/:id/download', async (req, res) => {
    const release = await loadRelease(req);
    const { open, tester } = await access(req, release.context!.channel!, release.id);
    if (!open) throw new Unauthenticated('This channel is protected by a password: open the release page to unlock it');
    const download = await clients.releases.getDownload({ releaseId: release.id, kind: 'package', expiresInSeconds: 300 });
    options.countDownload?.(release.id, req);
    countTesterDownload(tester, release.context!.channel!.id, release.id);
    await sendDownload(req, res, download, options);
  });

  return router;
}

/** Loaded at the first QR code asked for, not at start: most gateways draw few or none. */
function qrCodeLibrary(): typeof import('qrcode') {
  return require('qrcode') as typeof import('qrcode');
}
