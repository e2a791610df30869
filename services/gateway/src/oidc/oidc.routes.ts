import { Request, Response, Router } from 'express';
import { DomainError, NotFound, httpStatusOf, isDomainError } from '@hangar/errors';
import type { ServiceClients } from '../clients/service-clients';
import { noteForAudit } from '../audit/audit-note';
import { publicBaseUrl } from '../http/base-url';
import { sendError } from '../http/error-handler';
import { setSessionCookie } from '../http/session-cookie';
import { escapeHtml, layout } from '../install/html';
import { admittedEmail } from './identity-policy';
import type { IdentityProvider } from './identity-provider';
import type { SignInStates } from './sign-in-states';

export const OIDC_START_PATH = '/api/sessions/oidc/start';
export const OIDC_CALLBACK_PATH = '/api/sessions/oidc/callback';
/** Holds the browser secret of a started sign-in; sent back only to the callback. */
const BROWSER_COOKIE = 'hangar_sso';

export interface SingleSignOn {
  provider: IdentityProvider;
  states: SignInStates;
  providerName: string;
  /** The origin the provider sends browsers back to (else PUBLIC_BASE_URL, else the request's). */
  redirectBaseUrl?: string;
  defaultRole: string;
  allowedDomains: string[];
  ssoOnly: boolean;
  stateTtlMs: number;
}

/**
 * OpenID Connect sign-in for the console (issue 16): the public options the
 * sign-in page reads, the start (a redirect to the provider) and the callback
 * (the provider's answer verified, the user matched by verified email or
 * created, a session exactly like a password sign-in's).
 */
export function oidcRoutes(clients: ServiceClients, sso: SingleSignOn | undefined, options: { publicBaseUrl?: string }): Router {
  const router = Router();

  router.get('/api/sessions/options', (_req, res) => {
    res.json({
      password_sign_in: sso?.ssoOnly ? 'admins_only' : 'everyone',
      single_sign_on: sso ? { provider_name: sso.providerName, start_url: OIDC_START_PATH } : null,
    });
  });

  const notConfigured = new NotFound('Single sign-on is not configured on this Hangar');
  const redirectUri = (req: Request, on: SingleSignOn) => `${publicBaseUrl(req, on.redirectBaseUrl ?? options.publicBaseUrl)}${OIDC_CALLBACK_PATH}`;

  router.get(OIDC_START_PATH, async (req, res) => {
    if (!sso) return sendError(res, notConfigured);
    const started = await sso.states.begin();
    const url = await sso.provider.authorizationUrl(redirectUri(req, sso), started.checks);
    // SameSite=Lax: the provider's redirect back is a top-level GET, which Lax lets through.
    res.cookie(BROWSER_COOKIE, started.browserSecret, { httpOnly: true, sameSite: 'lax', secure: req.secure, path: OIDC_CALLBACK_PATH, maxAge: sso.stateTtlMs });
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(302, url.href);
  });

  router.get(OIDC_CALLBACK_PATH, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (!sso) return sendError(res, notConfigured);
    try {
      const state = typeof req.query.state === 'string' ? req.query.state : undefined;
      const checks = await sso.states.claim(state, readCookie(req, BROWSER_COOKIE));
      res.clearCookie(BROWSER_COOKIE, { httpOnly: true, sameSite: 'lax', secure: req.secure, path: OIDC_CALLBACK_PATH });
      const callbackUrl = new URL(redirectUri(req, sso));
      callbackUrl.search = new URL(req.originalUrl, 'http://callback.invalid').search;
      const identity = await sso.provider.verifiedIdentity(callbackUrl, checks);
      const email = admittedEmail(identity, sso.allowedDomains);
      const { signedIn, created } = await clients.users.signInWithIdentity({
        email,
        preferredUsername: identity.preferredUsername,
        defaultRole: sso.defaultRole,
        userAgent: req.get('user-agent') ?? '',
      });
      noteForAudit(res, { userId: signedIn!.user!.id, fields: { sign_in: 'single_sign_on', ...(created ? { created_user: 'true', role: signedIn!.user!.role } : {}) } });
      setSessionCookie(req, res, signedIn!.secret, signedIn!.session!.expiresAtMs);
      res.redirect(303, '/');
    } catch (err) {
      if (!isDomainError(err)) throw err;
      noteForAudit(res, { fields: { sign_in: 'single_sign_on', refused: err.message } });
      refuse(req, res, err);
    }
  });

  return router;
}

/** A browser (Accept: text/html) reads a page that says what happened and links back; anything else the contract's JSON. */
function refuse(req: Request, res: Response, err: DomainError): void {
  if (req.accepts(['json', 'html']) !== 'html') return sendError(res, err);
  res
    .status(httpStatusOf(err))
    .type('html')
    .send(layout('Sign-in refused', `<h1>Sign-in refused</h1>\n<p role="alert">${escapeHtml(err.message)}</p>\n<p><a href="/">Back to the sign-in page</a></p>`));
}

function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) {
      const value = part.slice(at + 1).trim();
      return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}
