import * as openid from 'openid-client';
import { DomainError, Unauthenticated, Unavailable } from '@hangar/errors';

export interface IdentityProviderSettings {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  /** Space-separated scopes; `openid` among them. */
  scopes: string;
  allowHttpIssuer: boolean;
  /** Each call to the provider (discovery, token, userinfo, keys). */
  timeoutMs: number;
}

/** What Hangar keeps of a verified sign-in: the claims it decides on. */
export interface ProvidedIdentity {
  /** The ID token's `iss` (checked against the discovered issuer) and `sub`: who the person is at the provider. */
  issuer: string;
  subject: string;
  email?: string;
  emailVerified: boolean;
  preferredUsername: string;
}

/** The per-sign-in secrets the callback must prove again (PKCE verifier, nonce) and the state naming the sign-in. */
export interface SignInChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/**
 * The identity provider through openid-client (v6): its metadata discovered
 * once (again after a failure), the authorization URL with PKCE (S256), state
 * and nonce, and the code exchanged for tokens whose ID token openid-client
 * verifies — signature against the provider's published keys (non-repudiation
 * checks on), issuer, audience (our client id), nonce, expiry and issue time.
 */
export class IdentityProvider {
  private configuration?: Promise<openid.Configuration>;

  constructor(private readonly settings: IdentityProviderSettings) {}

  async authorizationUrl(redirectUri: string, checks: SignInChecks): Promise<URL> {
    const config = await this.discovered();
    return openid.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: this.settings.scopes,
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await openid.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
    });
  }

  /**
   * The provider's answer at the callback, verified. The email comes from the
   * ID token, or from the userinfo endpoint (for the token's subject) when
   * the provider keeps it there.
   */
  async verifiedIdentity(callbackUrl: URL, checks: SignInChecks): Promise<ProvidedIdentity> {
    const config = await this.discovered();
    try {
      const tokens = await openid.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Unauthenticated('The identity provider answered without an ID token');
      let fields: Record<string, unknown> = claims;
      // openid-client checks the userinfo answer is about the ID token's subject.
      if (typeof claims.email !== 'string') fields = { ...claims, ...(await openid.fetchUserInfo(config, tokens.access_token, claims.sub)) };
      const email = typeof fields.email === 'string' ? fields.email : undefined;
      return {
        issuer: claims.iss,
        subject: claims.sub,
        ...(email ? { email } : {}),
        // Some providers send the boolean as a string.
        emailVerified: fields.email_verified === true || fields.email_verified === 'true',
        preferredUsername: [fields.preferred_username, fields.name].find((v): v is string => typeof v === 'string' && v.trim() !== '') ?? '',
      };
    } catch (err) {
      throw refusalOf(err);
    }
  }

  private discovered(): Promise<openid.Configuration> {
    this.configuration ??= openid
      .discovery(new URL(this.settings.issuerUrl), this.settings.clientId, undefined, openid.ClientSecretBasic(this.settings.clientSecret), {
        timeout: Math.ceil(this.settings.timeoutMs / 1000),
        // Signatures too: openid-client skips them by default for a token fetched over TLS
        // (OIDC Core 3.1.3.7), but the issue asks for forged tokens to be refused whatever
        // the transport, and an http:// issuer has no TLS to lean on.
        execute: [openid.enableNonRepudiationChecks, ...(this.settings.allowHttpIssuer ? [openid.allowInsecureRequests] : [])],
      })
      .then((config) => {
        config.timeout = Math.ceil(this.settings.timeoutMs / 1000);
        return config;
      })
      .catch((err: unknown) => {
        // Tried again by the next sign-in: a provider down at our start is not down for ever.
        this.configuration = undefined;
        throw new Unavailable(`The identity provider cannot be reached: ${messageOf(err)}`);
      });
    return this.configuration;
  }
}

/**
 * openid-client's errors as the API's: the provider refusing (an error in the
 * callback, or at the token endpoint — a code used twice, say) and an answer
 * that fails verification are 401; a provider out of reach is 503.
 */
function refusalOf(err: unknown): DomainError {
  if (err instanceof DomainError) return err;
  if (err instanceof openid.AuthorizationResponseError || err instanceof openid.ResponseBodyError) {
    return new Unauthenticated(`The identity provider refused the sign-in: ${err.error}${err.error_description ? ` (${err.error_description})` : ''}`);
  }
  const cause = (err as { cause?: unknown })?.cause;
  if (err instanceof TypeError || (err as { name?: string })?.name === 'TimeoutError' || (err as { name?: string })?.name === 'AbortError') {
    return new Unavailable(`The identity provider cannot be reached: ${messageOf(cause ?? err)}`);
  }
  // openid-client's own message is generic ("unexpected JWT claim value encountered"); its cause names the claim.
  return new Unauthenticated(`The identity provider's answer could not be verified: ${messageOf(cause instanceof Error ? cause : err)}`);
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
