// A real OpenID Provider (oidc-provider) for the single sign-on tests, run as
// a child process: oidc-provider is ESM-only and jest runs the suites as
// CommonJS. It prints one JSON line with its issuer once it listens.
//
// Accounts: any login is accepted by the provider's own login form and is the
// account's subject (`sub`, as typed) and its email (lowercased); a login whose
// local part starts with `unverified` has an unverified email. So `Sam@corp.test`
// and `sam@corp.test` are two people with one email, as when a provider gives a
// reused mailbox to someone new. POST /__test/email {"account": …, "email": …}
// changes one account's email from then on (a person renamed at the provider).
//
// Client `hangar` (secret from HANGAR_TEST_CLIENT_SECRET) is a native client with a loopback redirect URI, so any Hangar port matches
// (RFC 8252 §7.3). The consent prompt is skipped (a first-party client):
// the grant is made on first use, and native clients' forced prompt removed.
//
// POST /__test/mode {"mode": …} changes the ID token of the next token
// answers, each still a real token of this provider's flow:
//   normal          as issued;
//   forged          signed with another key under the same key id;
//   expired         expired an hour ago (issued two hours ago);
//   wrong-audience  issued for another client;
//   replayed-nonce  the ID token of an earlier sign-in (its nonce).
import http from 'node:http';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';
import Provider, { interactionPolicy } from 'oidc-provider';

const KID = 'hangar-test-key';
const clientSecret = process.env.HANGAR_TEST_CLIENT_SECRET ?? 'hangar-test-client-secret';

const signing = await generateKeyPair('RS256', { extractable: true });
const forger = await generateKeyPair('RS256', { extractable: true });
const signingJwk = { ...(await exportJWK(signing.privateKey)), kid: KID, alg: 'RS256', use: 'sig' };

let mode = 'normal';
/** Emails changed by /__test/email, by account id. */
const emails = new Map();
const issuedIdTokens = [];

let handler = (_req, res) => res.writeHead(503).end();
const server = http.createServer((req, res) => handler(req, res));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

// Native clients are asked for consent on every sign-in by default; this first-party one is not.
const policy = interactionPolicy.base();
policy.get('consent').checks.remove('native_client_prompt');

const provider = new Provider(issuer, {
  interactions: { policy },
  clients: [
    {
      client_id: 'hangar',
      client_secret: clientSecret,
      application_type: 'native',
      redirect_uris: ['http://127.0.0.1/api/sessions/oidc/callback'],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  jwks: { keys: [signingJwk] },
  cookies: { keys: ['hangar-test-cookie-key-one', 'hangar-test-cookie-key-two'] },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['preferred_username', 'name'] },
  features: { devInteractions: { enabled: true } },
  pkce: { required: () => true },
  async findAccount(_ctx, id) {
    const email = emails.get(String(id)) ?? String(id).toLowerCase();
    const local = email.split('@')[0];
    return {
      accountId: id,
      async claims() {
        return { sub: id, email, email_verified: !local.startsWith('unverified'), preferred_username: local, name: local };
      },
    };
  },
  async loadExistingGrant(ctx) {
    const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
    if (grantId) return ctx.oidc.provider.Grant.find(grantId);
    const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
    grant.addOIDCScope('openid email profile');
    await grant.save();
    return grant;
  },
});

// Its own failures on stderr, which the test shows when the provider misbehaves.
provider.on('server_error', (_ctx, err) => process.stderr.write(`provider server_error: ${err.stack}\n`));

async function resign(idToken, change, key = signing.privateKey) {
  const claims = { ...decodeJwt(idToken), ...change };
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'JWT' }).sign(key);
}

provider.use(async (ctx, next) => {
  await next();
  if (ctx.path !== '/token' || !ctx.body || typeof ctx.body.id_token !== 'string') return;
  const issued = ctx.body.id_token;
  const now = Math.floor(Date.now() / 1000);
  if (mode === 'forged') ctx.body.id_token = await resign(issued, {}, forger.privateKey);
  else if (mode === 'expired') ctx.body.id_token = await resign(issued, { iat: now - 7200, auth_time: now - 7200, exp: now - 3600 });
  else if (mode === 'wrong-audience') ctx.body.id_token = await resign(issued, { aud: 'another-client', azp: 'another-client' });
  else if (mode === 'replayed-nonce' && issuedIdTokens.length > 0) ctx.body.id_token = issuedIdTokens[issuedIdTokens.length - 1];
  if (mode === 'normal') issuedIdTokens.push(issued);
});

const providerHandler = provider.callback();
handler = (req, res) => {
  if (req.method === 'POST' && (req.url === '/__test/mode' || req.url === '/__test/email')) {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const asked = JSON.parse(body);
      if (req.url === '/__test/mode') mode = asked.mode;
      else emails.set(String(asked.account), String(asked.email).toLowerCase());
      res.writeHead(204).end();
    });
    return;
  }
  providerHandler(req, res);
};

process.stdout.write(`${JSON.stringify({ issuer })}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
