import type { Request, Response } from 'express';
import type { apps, releases } from '@hangar/proto';
import type { ServiceClients } from '../../clients/service-clients';
import type { CountDownload } from '../../downloads/download-counter';
import { publicBaseUrl } from '../../http/base-url';
import { queryText } from '../../http/input';
import { localPath } from '../../http/local-path';
import { ImmutableBytes } from '../../install/immutable-bytes';
import { passwordPage } from '../../install/pages';
import { sendInstallPage } from '../../install/page-headers';
import { SignedTokens } from '../../install/signed-tokens';
import type { AttemptCounter, AttemptRule } from '../../limits/attempt-rule';
import { devicesLeftOut, listedProfile } from '../devices/device-fit';
import { testerBySessionId, testerOf } from '../testers/tester-session';

export interface InstallSettings {
  /** Signs unlock cookies and download tokens; the same on every replica. */
  secret: string;
  unlockTtlSeconds: number;
  /** Counts a download or an iOS manifest fetch, off the request path (absent: DOWNLOAD_COUNTING=false). */
  countDownload?: CountDownload;
  /** Wrong visit passwords, counted per client address and channel (across replicas in production). */
  unlockAttempts: { counter: AttemptCounter; rule: AttemptRule };
}

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

/**
 * Who may open a channel's builds, and the credentials that say so: unlock cookies, download
 * tokens signed for a release, a tester's session. Shared by the install pages and the files they
 * link to (install-pages.operations.ts, install-files.operations.ts), with the caches of their
 * images.
 */
export class InstallAccess {
  private readonly tokens: SignedTokens;
  /** QR codes drawn, by page URL and size. */
  readonly qrCodes = new ImmutableBytes(16 * 1024 * 1024);
  /** Icons read from storage, by storage key (unique to an upload: never stale). */
  readonly icons = new ImmutableBytes(32 * 1024 * 1024);

  constructor(
    private readonly clients: ServiceClients,
    readonly settings: InstallSettings,
  ) {
    this.tokens = new SignedTokens(settings.secret);
  }

  /**
   * Anyone when the channel has no password; else an unlock cookie, a download token signed for
   * this release, or a tester whose groups open the channel — by their cookie, or by the session
   * signed into their install link (`release:<id>:tester:<session>`), asked of the apps service
   * each time so a removed tester's links stop at once. `tester` names who, so a download counts
   * as theirs.
   */
  async access(req: Request, channel: apps.Channel, releaseId?: number): Promise<{ open: boolean; tester?: apps.TesterIdentity }> {
    const signed = releaseId !== undefined ? this.tokens.subjectOf(queryText(req, 't')) : undefined;
    const testerSession = signed?.startsWith(`release:${releaseId}:tester:`) ? Number(signed.slice(`release:${releaseId}:tester:`.length)) : 0;
    const tester = testerSession > 0 ? await testerBySessionId(this.clients, testerSession) : await testerOf(this.clients, req);
    if (tester?.channels.some((c) => c.channelId === channel.id)) return { open: true, tester };
    if (!channel.hasPassword) return { open: true };
    if (testerSession > 0) return { open: false };
    if (this.tokens.verify(cookie(req, unlockCookie(channel.id)), `channel:${channel.id}`)) return { open: true };
    return { open: releaseId !== undefined && signed === `release:${releaseId}` };
  }

  /** The `t` of a release's download and manifest links: a tester's carries their session, so it stops when they are removed. */
  downloadToken(releaseId: number, tester: apps.TesterIdentity | undefined): string {
    return encodeURIComponent(this.tokens.sign(tester ? `release:${releaseId}:tester:${tester.sessionId}` : `release:${releaseId}`, DOWNLOAD_TOKEN_TTL_SECONDS));
  }

  /** The names of the signed-in tester's devices an ad hoc or development build will not install on. */
  async testerDevicesLeftOut(tester: apps.TesterIdentity | undefined, release: releases.Release): Promise<string[]> {
    const profile = tester ? listedProfile(release) : null;
    if (!tester || !profile) return [];
    const { devices } = await this.clients.apps.listTesterDevices({ secret: '', sessionId: tester.sessionId });
    return devicesLeftOut(profile, devices).map((d) => d.name);
  }

  /** A download by a tester is theirs: the state an app's admins see (off the answer's path). */
  countTesterDownload(tester: apps.TesterIdentity | undefined, channelId: number, releaseId: number): void {
    if (tester) void this.clients.apps.recordTesterDownload({ email: tester.email, channelId, releaseId }).catch(() => undefined);
  }

  /**
   * Checks a visit password of `channel` and answers: the form again (401, 429 past the limit
   * of wrong passwords per address and channel, with Retry-After) or the unlock cookie and a
   * redirect to `next`. `action` is the form's own address, which shows no key the visitor
   * did not already have.
   */
  async unlock(req: Request, res: Response, channel: apps.Channel, action: string, fallbackNext: string, base?: string): Promise<void> {
    const { counter: attempts, rule } = this.settings.unlockAttempts;
    const next = localPath(req.body?.next) ?? fallbackNext;
    const subject = `${req.ip ?? 'unknown'}|channel:${channel.id}`;
    const waitMs = await attempts.retryAfterMs(rule, subject);
    if (waitMs > 0) {
      res.setHeader('Retry-After', String(Math.ceil(waitMs / 1000)));
      return sendInstallPage(res, 429, passwordPage(channel.name, action, next, 'Too many wrong passwords. Try again later.'));
    }
    const password = typeof req.body?.password === 'string' ? req.body.password : '';
    const { ok } = channel.hasPassword ? await this.clients.apps.verifyChannelPassword({ channelKey: channel.slug, password }) : { ok: true };
    if (!ok) {
      await attempts.recordFailure(rule, subject);
      return sendInstallPage(res, 401, passwordPage(channel.name, action, next, 'That password is not right.'));
    }
    await attempts.recordSuccess(rule, subject);
    const ttl = this.settings.unlockTtlSeconds;
    res.cookie(unlockCookie(channel.id), this.tokens.sign(`channel:${channel.id}`, ttl), {
      httpOnly: true,
      sameSite: 'lax',
      secure: publicBaseUrl(req, base).startsWith('https://'),
      maxAge: ttl * 1000,
      path: '/',
    });
    res.redirect(303, next);
  }
}
