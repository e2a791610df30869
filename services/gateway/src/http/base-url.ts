import type { IncomingMessage } from 'node:http';

/**
 * The public origin clients see: a configured base URL wins; behind a proxy,
 * X-Forwarded-Proto/Host; else the request's own Host. Takes a plain request:
 * update checks are answered before express (routes/update-check.fast-path.ts).
 */
export function publicBaseUrl(req: IncomingMessage, configured?: string): string {
  if (configured) return configured.replace(/\/+$/, '');
  const forwardedProto = String(req.headers['x-forwarded-proto'] ?? '').split(',')[0]?.trim();
  const forwardedHost = String(req.headers['x-forwarded-host'] ?? '').split(',')[0]?.trim();
  const proto = forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  const host = forwardedHost || req.headers.host || 'localhost';
  return `${proto}://${host}`;
}
