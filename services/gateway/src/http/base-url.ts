import type { IncomingMessage } from 'node:http';
import { TRUST_NOBODY, TrustProxy, fromTrustedProxy } from './trusted-proxies';

/**
 * The public base URL of this request — the one answer to "what is the public origin"
 * (absolute URLs of install pages, manifests, QR codes, Link headers, update checks):
 * `PUBLIC_BASE_URL` when configured; else, when the peer is a trusted proxy
 * (`TRUSTED_PROXIES`), its X-Forwarded-Proto / -Host; else the request's own Host.
 * X-Forwarded-* from anyone else are ignored. Takes a plain request: update checks are
 * answered before express (features/update-checks/update-check.fast-path.ts), which pass `trust`;
 * express requests carry the app's own `trust proxy` setting.
 */
export function publicBaseUrl(req: IncomingMessage, configured?: string, trust?: TrustProxy): string {
  if (configured) return configured.replace(/\/+$/, '');
  const trusted = fromTrustedProxy(req, trust ?? trustOfApp(req));
  const forwardedProto = trusted ? String(req.headers['x-forwarded-proto'] ?? '').split(',')[0]?.trim() : '';
  const forwardedHost = trusted ? String(req.headers['x-forwarded-host'] ?? '').split(',')[0]?.trim() : '';
  const proto = forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  const host = forwardedHost || req.headers.host || 'localhost';
  return `${proto}://${host}`;
}

/** An express request's app holds the compiled `trust proxy` setting. */
function trustOfApp(req: IncomingMessage): TrustProxy {
  const app = (req as { app?: { get(name: string): unknown } }).app;
  const fn = app?.get('trust proxy fn');
  return typeof fn === 'function' ? (fn as TrustProxy) : TRUST_NOBODY;
}
