import type { NatsConnection } from '@nats-io/transport-node';
import type { GatewayConfig } from '../config';
import { SignInStates } from './sign-in-states';
import { CliGrants } from './cli-grants';
import type { IdentityProvider } from './identity-provider';

/** OpenID Connect sign-in, when an identity provider is configured: what its operations need (features/sessions/single-sign-on.operations.ts). */
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

/** OpenID Connect sign-in from the config: undefined unless issuer, client id and secret are set (the schema wants all three or none). */
export async function singleSignOnOf(config: GatewayConfig, nc: NatsConnection): Promise<SingleSignOn | undefined> {
  if (!config.OIDC_ISSUER_URL || !config.OIDC_CLIENT_ID || !config.OIDC_CLIENT_SECRET) return undefined;
  // Loaded only when single sign-on is configured: openid-client and oauth4webapi stay out of
  // every other gateway's memory.
  const { IdentityProvider } = require('./identity-provider') as typeof import('./identity-provider');
  return {
    provider: new IdentityProvider({
      issuerUrl: config.OIDC_ISSUER_URL,
      clientId: config.OIDC_CLIENT_ID,
      clientSecret: config.OIDC_CLIENT_SECRET,
      scopes: config.OIDC_SCOPES,
      allowHttpIssuer: config.OIDC_ALLOW_HTTP_ISSUER,
      timeoutMs: config.GRPC_DEADLINE_MS,
    }),
    states: await SignInStates.open(nc, config.NATS_SUBJECT_PREFIX, config.OIDC_STATE_TTL_MS),
    cliGrants: await CliGrants.open(nc, config.NATS_SUBJECT_PREFIX),
    providerName: config.OIDC_PROVIDER_NAME,
    ...(config.OIDC_REDIRECT_BASE_URL ? { redirectBaseUrl: config.OIDC_REDIRECT_BASE_URL } : {}),
    defaultRole: config.OIDC_DEFAULT_ROLE,
    allowedDomains: config.OIDC_ALLOWED_DOMAINS,
    ssoOnly: config.OIDC_SSO_ONLY,
    stateTtlMs: config.OIDC_STATE_TTL_MS,
  };
}
