import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';

/** The console's session cookie: its value is the session's secret. */
export const SESSION_COOKIE = 'hangar_session';
export const CSRF_HEADER = 'x-csrf-token';

/** Methods that change nothing, so a cross-site request gains nothing by them: no CSRF token needed. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const needsCsrfToken = (req: Request): boolean => !SAFE_METHODS.has(req.method);

export function readSessionCookie(req: Pick<Request, 'headers'> | Pick<IncomingMessage, 'headers'>): string | undefined {
  return readSecretCookie(req, SESSION_COOKIE);
}

/** A cookie whose value is one of our base62 secrets (a console or a tester session); anything else is none of ours. */
export function readSecretCookie(req: Pick<Request, 'headers'> | Pick<IncomingMessage, 'headers'>, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) {
      const value = part.slice(at + 1).trim();
      return /^[A-Za-z0-9]{20,200}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/**
 * The CSRF token is derived from the session's secret, so no replica has to
 * store it: a page on another site can send the cookie but cannot read it, so
 * it cannot compute this. A leaked session digest (SHA-256 of the secret, the
 * stored form) does not give it either.
 */
export function csrfTokenFor(sessionSecret: string): string {
  return createHash('sha256').update(`hangar-csrf:${sessionSecret}`).digest('base64url');
}

export function csrfTokenMatches(req: Request, sessionSecret: string): boolean {
  const sent = req.headers[CSRF_HEADER];
  if (typeof sent !== 'string' || !sent) return false;
  const expected = Buffer.from(csrfTokenFor(sessionSecret));
  const given = Buffer.from(sent);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** HttpOnly (no script reads it), SameSite=Lax, Secure when the request came over HTTPS (X-Forwarded-Proto counts: trust proxy is on). */
export function setSessionCookie(req: Request, res: Response, secret: string, expiresAtMs: number): void {
  res.cookie(SESSION_COOKIE, secret, { httpOnly: true, sameSite: 'lax', path: '/', secure: req.secure, expires: new Date(expiresAtMs) });
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure: req.secure });
}
