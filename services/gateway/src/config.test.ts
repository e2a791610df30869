import { loadGatewayConfig } from './config';

// What every gateway needs; the rest takes its defaults.
const REQUIRED = { S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY: 'access', S3_SECRET_KEY: 'secret', NATS_URL: 'nats://127.0.0.1:4222' };

describe('gateway config: connection timeouts', () => {
  it('when nothing is set, then a 4 GiB upload at 10 MB/s fits in the request timeout (Node’s own 5 minutes cut it off)', () => {
    const config = loadGatewayConfig(REQUIRED);
    const secondsFor4GiBAt10MBps = config.MAX_UPLOAD_BYTES / 10_000_000;
    expect(config.HTTP_REQUEST_TIMEOUT_MS).toBeGreaterThan(secondsFor4GiBAt10MBps * 1000);
    expect(config.HTTP_IDLE_TIMEOUT_MS).toBeGreaterThan(config.UPLOAD_DEADLINE_MS);
  });

  it('when the idle timeout is not longer than the upload deadline, then the config is refused with the reason', () => {
    expect(() => loadGatewayConfig({ ...REQUIRED, HTTP_IDLE_TIMEOUT_MS: '60000', UPLOAD_DEADLINE_MS: '180000' })).toThrow(/HTTP_IDLE_TIMEOUT_MS: must be longer than UPLOAD_DEADLINE_MS/);
    expect(loadGatewayConfig({ ...REQUIRED, HTTP_IDLE_TIMEOUT_MS: '0' }).HTTP_IDLE_TIMEOUT_MS).toBe(0);
  });
});

describe('gateway config: download counting', () => {
  it('when nothing is set, then downloads are counted; DOWNLOAD_COUNTING=false turns it off; a typo is refused', () => {
    expect(loadGatewayConfig(REQUIRED).DOWNLOAD_COUNTING).toBe(true);
    expect(loadGatewayConfig({ ...REQUIRED, DOWNLOAD_COUNTING: 'false' }).DOWNLOAD_COUNTING).toBe(false);
    expect(() => loadGatewayConfig({ ...REQUIRED, DOWNLOAD_COUNTING: 'sometimes' })).toThrow(/DOWNLOAD_COUNTING/);
  });
});

describe('gateway config: single sign-on', () => {
  const OIDC = { OIDC_ISSUER_URL: 'https://id.example.com', OIDC_CLIENT_ID: 'hangar', OIDC_CLIENT_SECRET: 'a-client-secret' };

  it('when nothing is set, then OpenID Connect is off and passwords work for everyone', () => {
    const config = loadGatewayConfig(REQUIRED);
    expect(config.OIDC_ISSUER_URL).toBeUndefined();
    expect(config.OIDC_SSO_ONLY).toBe(false);
    expect(config.OIDC_ALLOWED_DOMAINS).toEqual([]);
  });

  it('when the provider is set, then domains are a lowercased list and the role `user` means member', () => {
    const config = loadGatewayConfig({ ...REQUIRED, ...OIDC, OIDC_ALLOWED_DOMAINS: ' Example.com, corp.example.org ', OIDC_DEFAULT_ROLE: 'user' });
    expect(config.OIDC_ALLOWED_DOMAINS).toEqual(['example.com', 'corp.example.org']);
    expect(config.OIDC_DEFAULT_ROLE).toBe('member');
  });

  it('when only part of the provider is set, SSO-only has no provider, or the issuer is plain http, then the start is refused with the reason', () => {
    expect(() => loadGatewayConfig({ ...REQUIRED, OIDC_ISSUER_URL: OIDC.OIDC_ISSUER_URL })).toThrow(/set all three or none/);
    expect(() => loadGatewayConfig({ ...REQUIRED, OIDC_SSO_ONLY: 'true' })).toThrow(/OIDC_SSO_ONLY: needs an identity provider/);
    expect(() => loadGatewayConfig({ ...REQUIRED, ...OIDC, OIDC_ISSUER_URL: 'http://id.example.com' })).toThrow(/must be https/);
    expect(loadGatewayConfig({ ...REQUIRED, ...OIDC, OIDC_ISSUER_URL: 'http://id.example.com', OIDC_ALLOW_HTTP_ISSUER: 'true' }).OIDC_ISSUER_URL).toBe('http://id.example.com');
    expect(() => loadGatewayConfig({ ...REQUIRED, ...OIDC, OIDC_ALLOWED_DOMAINS: 'example.com, not a domain' })).toThrow(/OIDC_ALLOWED_DOMAINS/);
    expect(() => loadGatewayConfig({ ...REQUIRED, ...OIDC, OIDC_SCOPES: 'email profile' })).toThrow(/must include openid/);
  });
});
