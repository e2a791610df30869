import type { Response } from 'express';

/** Install and tester pages: own styles, fonts and images, no script, forms to self, never framed. */
const INSTALL_PAGE_CSP = "default-src 'none'; style-src 'self'; font-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/**
 * Sends a page of the install or tester pages: never cached (they depend on who asks), loading only
 * their own styles, icons and images, running no script, posting only to themselves, framed by
 * nobody (no clickjacking of the Install button).
 */
export function sendInstallPage(res: Response, status: number, html: string): void {
  res.status(status).type('html').setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Security-Policy', INSTALL_PAGE_CSP);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.send(html);
}
