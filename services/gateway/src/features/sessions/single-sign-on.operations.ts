import type { Request, Response } from 'express';
import { DomainError, InvalidArgument, NotFound, httpStatusOf, isDomainError } from '@hangar/errors';
import { noteForAudit } from '../../audit/audit-note';
import { publicBaseUrl } from '../../http/base-url';
import { sendError } from '../../http/error-handler';
import { readTextFields } from '../../http/input';
import { setSessionCookie } from '../../http/session-cookie';
import { escapeHtml, layout } from '../../install/html';
import type { CliRequest } from '../../oidc/sign-in-states';
import type { SingleSignOn } from '../../oidc/single-sign-on';
import { admittedEmail } from '../../oidc/identity-policy';
import { NO_TOKEN, errors, formBody, json, ok, query, ref, str } from '../../openapi/openapi-parts';
import { type CallContext, operation } from '../../operations/declare';
import { presentToken } from '../../presenters/user.presenter';

const OIDC_START_PATH = '/api/sessions/oidc/start';
const OIDC_CALLBACK_PATH = '/api/sessions/oidc/callback';
/** Holds the browser secret of a started sign-in; sent back only to the callback. */
const BROWSER_COOKIE = 'hangar_sso';
const TAG = 'Sessions';
const ERROR_OR_PAGE = (description: string) => ({ description, content: { ...json(ref('Error')), 'text/html': {} } });

/** The identity provider's settings, or a 404: single sign-on is not configured. */
function configured({ singleSignOn }: CallContext): SingleSignOn {
  if (!singleSignOn) throw new NotFound('Single sign-on is not configured on this Hangar');
  return singleSignOn;
}

const redirectUri = (call: CallContext, sso: SingleSignOn) => `${publicBaseUrl(call.req, sso.redirectBaseUrl ?? call.publicBaseUrl)}${OIDC_CALLBACK_PATH}`;

/** `cli_port` and `cli_challenge` of a start from `hangar login --web`: both or neither. */
function cliRequestOf(req: Request): CliRequest | undefined {
  const port = typeof req.query.cli_port === 'string' ? req.query.cli_port : undefined;
  const challenge = typeof req.query.cli_challenge === 'string' ? req.query.cli_challenge : undefined;
  if (port === undefined && challenge === undefined) return undefined;
  const entry: Record<string, string[]> = {};
  if (!port || !/^\d{1,5}$/.test(port) || Number(port) < 1024 || Number(port) > 65535) entry.cli_port = ['must be a port from 1024 to 65535'];
  if (!challenge || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) entry.cli_challenge = ["must be the base64url SHA-256 of the CLI's verifier (43 characters)"];
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

/**
 * OpenID Connect sign-in for the console: the public options the sign-in page reads, the start (a
 * redirect to the provider) and the callback (the provider's answer verified, the user found by
 * subject, else by verified email, or created, a session exactly like a password sign-in's), and
 * `hangar login --web`'s token for the code it was sent.
 */
export const singleSignOnOperations = [
  operation({
    method: 'get',
    path: '/api/sessions/options',
    operationId: 'getSignInOptions',
    tag: TAG,
    summary: 'How the console may sign in: passwords, and the identity provider when one is configured',
    scopes: null,
    params: {},
    responses: { '200': ok('The options', ref('SignInOptions')) },
    openApi: { security: NO_TOKEN },
    async handle({ singleSignOn: sso, res }) {
      res.json({
        password_sign_in: sso?.ssoOnly ? 'admins_only' : 'everyone',
        single_sign_on: sso ? { provider_name: sso.providerName, start_url: OIDC_START_PATH } : null,
      });
    },
  }),
  operation({
    method: 'get',
    path: OIDC_START_PATH,
    operationId: 'startSingleSignOn',
    tag: TAG,
    summary: 'Single sign-on (OpenID Connect): redirects the browser to the identity provider, with PKCE, state and nonce',
    scopes: null,
    params: {},
    responses: {
      '302': {
        description: "To the provider's authorization endpoint; sets the short-lived HttpOnly `hangar_sso` cookie the callback needs",
        headers: { Location: { required: true, schema: { type: 'string', format: 'uri' } } },
      },
      ...errors(404, 422, 503),
    },
    openApi: {
      security: NO_TOKEN,
      parameters: [
        query('cli_port', '`hangar login --web`: the loopback port the CLI waits on (with cli_challenge); the callback then sends the browser there with a one-time code instead of starting a session'),
        query('cli_challenge', "`hangar login --web`: base64url SHA-256 of the CLI's verifier (43 characters)"),
      ],
    },
    async handle(call) {
      const { req, res } = call;
      const sso = configured(call);
      const started = await sso.states.begin(cliRequestOf(req));
      const url = await sso.provider.authorizationUrl(redirectUri(call, sso), started.checks);
      // SameSite=Lax: the provider's redirect back is a top-level GET, which Lax lets through.
      res.cookie(BROWSER_COOKIE, started.browserSecret, { httpOnly: true, sameSite: 'lax', secure: req.secure, path: OIDC_CALLBACK_PATH, maxAge: sso.stateTtlMs });
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(302, url.href);
    },
  }),
  operation({
    method: 'post',
    path: '/api/sessions/oidc/cli-token',
    operationId: 'redeemCliSignIn',
    tag: TAG,
    summary: '`hangar login --web`: the one-time code the CLI received on its loopback port, and its verifier, for a new personal access token of the signed-in user',
    scopes: null,
    params: {},
    responses: { '201': ok('The token, shown this once', ref('CreatedToken')), ...errors(400, 404, 422, 503) },
    openApi: {
      security: NO_TOKEN,
      requestBody: formBody({ code: str('From the redirect to http://127.0.0.1:<cli_port>/callback'), verifier: str('The secret whose SHA-256 was cli_challenge'), name: str("The token's name (default: hangar login --web)") }, ['code', 'verifier']),
    },
    async handle(call) {
      const { clients, req, res } = call;
      const sso = configured(call);
      const { code, verifier, name } = readTextFields(req.body, ['code', 'verifier', 'name'] as const);
      const user = await sso.cliGrants.redeem(code ?? '', verifier ?? '');
      noteForAudit(res, { userId: user.userId });
      const created = await clients.users.createToken({ actor: { userId: user.userId, role: user.role }, userId: user.userId, name: (name ?? '').trim() || 'hangar login --web' });
      res.status(201).json({ ...presentToken(created.token!), token: created.secret });
    },
  }),
  operation({
    method: 'get',
    path: OIDC_CALLBACK_PATH,
    operationId: 'finishSingleSignOn',
    tag: TAG,
    summary:
      "Where the identity provider sends the browser back: the answer verified (ID token signature, issuer, audience, nonce, expiry), the user found by the provider's issuer and subject, else matched by verified email (and bound to that subject; an email bound to another subject of the provider is a 403) or created with the default role, and a session cookie set as by `POST /api/sessions`",
    scopes: null,
    params: {},
    responses: {
      '303': {
        description: 'Signed in: the `hangar_session` cookie is set; on to the console. Started by `hangar login --web`: no cookie, on to `http://127.0.0.1:<cli_port>/callback?code=…` instead',
        headers: { Location: { required: true, schema: { type: 'string' } }, 'Set-Cookie': { schema: { type: 'string' } } },
      },
      '400': ERROR_OR_PAGE('No valid state, or one unknown, expired, already used, or started in another browser'),
      '401': ERROR_OR_PAGE('The provider refused, or its answer failed verification (forged or expired ID token, another audience, a replayed nonce)'),
      '403': ERROR_OR_PAGE('An email the provider has not verified, or of a domain not allowed, or whose Hangar account is bound to another person (subject) at the provider'),
      ...errors(404, 503),
    },
    openApi: {
      security: NO_TOKEN,
      description: 'A browser (Accept: text/html) is answered a page that says why a sign-in was refused; other clients the JSON error. Recorded in the audit log, refused or not.',
      parameters: [
        query('code', "The provider's authorization code"),
        query('state', 'The state of the sign-in started at /api/sessions/oidc/start'),
        query('iss', "The provider's issuer (RFC 9207)"),
        query('error', "The provider's refusal"),
        query('error_description', 'Its reason'),
      ],
    },
    async handle(call) {
      const { clients, req, res } = call;
      res.setHeader('Cache-Control', 'no-store');
      const sso = configured(call);
      try {
        const state = typeof req.query.state === 'string' ? req.query.state : undefined;
        const { checks, cli } = await sso.states.claim(state, readCookie(req, BROWSER_COOKIE));
        res.clearCookie(BROWSER_COOKIE, { httpOnly: true, sameSite: 'lax', secure: req.secure, path: OIDC_CALLBACK_PATH });
        const callbackUrl = new URL(redirectUri(call, sso));
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
    },
  }),
];
