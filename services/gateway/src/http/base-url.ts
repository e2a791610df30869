import type { Request } from 'express';

/**
 * The public origin clients see: a configured base URL wins; behind a proxy,
 * X-Forwarded-Proto/Host; else the request's own Host.
 */
export function publicBaseUrl(req: Request, configured?: string): string {
  if (configured) return configured.replace(/\/+$/, '');
  const forwardedProto = String(req.headers['x-forwarded-proto'] ?? '').split(',')[0]?.trim();
  const forwardedHost = String(req.headers['x-forwarded-host'] ?? '').split(',')[0]?.trim();
  const proto = forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : req.protocol;
  const host = forwardedHost || req.headers.host || 'localhost';
  return `${proto}://${host}`;
}
