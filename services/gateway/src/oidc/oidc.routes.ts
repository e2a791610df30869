import { Request, Response, Router } from 'express';
import { DomainError, InvalidArgument, NotFound, httpStatusOf, isDomainError } from '@hangar/errors';
import type { ServiceClients } from '../clients/service-clients';
import { noteForAudit } from '../audit/audit-note';
import { publicBaseUrl } from '../http/base-url';
import { sendError } from '../http/error-handler';
import { setSessionCookie } from '../http/session-cookie';
import { escapeHtml, layout } from '../install/html';
import { readTextFields } from '../http/input';
import { presentToken } from '../presenters/user.presenter';
import type { CliGrants } from './cli-grants';
import { admittedEmail } from './identity-policy';
import type { IdentityProvider } from './identity-provider';
import type { CliRequest, SignInStates } from './sign-in-states';

export const OIDC_START_PATH = '/api/sessions/oidc/start';
export const OIDC_CALLBACK_PATH = '/api/sessions/oidc/callback';
export const OIDC_CLI_TOKEN_PATH = '/api/sessions/oidc/cli-token';
/** Holds the browser secret of a started sign-in; sent back only to the callback. */
const BROWSER_COOKIE = 'hangar_sso';

export interface SingleSignOn {
  provider: IdentityProvider;
  states: SignInStates;
  cliGrants: CliGrants;
  providerName: string;
  /** The origin the provider sends browsers back to (else PUBLIC_BASE_URL, else the request's). */
  redirectBaseUrl?: string;
  defaultRole: string;
  allowedDomains: string[];
  ssoOnly: boolean;
  stateTtlMs: number;
}

/**
 * OpenID Connect sign-in for the console: the public options the
 * sign-in page reads, the start (a redirect to the provider) and the callback
 * (the provider's answer verified, the user found by subject, else by verified email, or
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
    const started = await sso.states.begin(cliRequestOf(req));
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
      const { checks, cli } = await sso.states.claim(state, readCookie(req, BROWSER_COOKIE));
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
        address: req.ip ?? '',
        withoutSession: cli !== undefined,
        issuer: identity.issuer,
        subject: identity.subject,
      });
      const user = signedIn!.user!;
      noteForAudit(res, { userId: user.id, fields: { sign_in: cli ? 'single_sign_on_cli' : 'single_sign_on', ...(created ? { created_user: 'true', role: user.role } : {}) } });
      if (cli) {
        // Only to the loopback address: the code goes to a CLI on this very machine, nowhere else.
        const code = await sso.cliGrants.issue(user, cli.challenge);
        return res.redirect(303, `http://127.0.0.1:${cli.port}/callback?code=${code}`);
      }
      setSessionCookie(req, res, signedIn!.secret, signedIn!.session!.expiresAtMs);
      res.redirect(303, '/');
    } catch (err) {
      if (!isDomainError(err)) throw err;
      noteForAudit(res, { fields: { sign_in: 'single_sign_on', refused: err.message } });
      refuse(req, res, err);
    }
  });

  // `hangar login --web`: the one-time code from the loopback redirect, and the CLI's verifier, for a token.
  router.post(OIDC_CLI_TOKEN_PATH, async (req, res) => {
    if (!sso) return sendError(res, notConfigured);
    const { code, verifier, name } = readTextFields(req.body, ['code', 'verifier', 'name'] as const);
    const user = await sso.cliGrants.redeem(code ?? '', verifier ?? '');
    noteForAudit(res, { userId: user.userId });
    const created = await clients.users.createToken({ actor: { userId: user.userId, role: user.role }, userId: user.userId, name: (name ?? '').trim() || 'hangar login --web' });
    res.status(201).json({ ...presentToken(created.token!), token: created.secret });
  });

  return router;
}

/** `cli_port` and `cli_challenge` of a start from `hangar login --web`: both or neither. */
function cliRequestOf(req: Request): CliRequest | undefined {
  const port = typeof req.query.cli_port === 'string' ? req.query.cli_port : undefined;
  const challenge = typeof req.query.cli_challenge === 'string' ? req.query.cli_challenge : undefined;
  if (port === undefined && challenge === undefined) return undefined;
  const entry: Record<string, string[]> = {};
  if (!port || !/^\d{1,5}$/.test(port) || Number(port) < 1024 || Number(port) > 65535) entry.cli_port = ['must be a port from 1024 to 65535'];
  if (!challenge || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) entry.cli_challenge = ['must be the base64url SHA-256 of the CLI\'s verifier (43 characters)'];
  if (Object.keys(entry).length > 0) throw new InvalidArgument(`Invalid CLI sign-in: ${Object.keys(entry).join(', ')}`, entry);
  return { port: Number(port), challenge: challenge! };
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
