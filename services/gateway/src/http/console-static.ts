import fs from 'node:fs';
import path from 'node:path';
import express, { NextFunction, Request, Response, Router } from 'express';

/**
 * The console (clients/console's build) at `/`. Its hashed assets are cached
 * for good; index.html never is, so a new build is picked up on the next load.
 * Any other GET for a page — not the API, not an install page, which are
 * routed before this — answers index.html, and the console's router shows it.
 */
export function consoleRoutes(dir: string): Router {
  const router = Router();
  const indexFile = path.join(dir, 'index.html');
  // The console holds a session cookie: it must not be framed, and runs only its own scripts.
  const headers = (res: Response) => {
    res.setHeader('Content-Security-Policy', "default-src 'self'; img-src 'self' data: blob: https: http:; script-src 'self'; style-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'");
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
  };
  router.use(
    '/assets',
    express.static(path.join(dir, 'assets'), { immutable: true, maxAge: '365d', index: false, fallthrough: false }),
  );
  router.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path.startsWith('/api/') || req.path === '/api') return next();
    headers(res);
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(indexFile, (err) => err && next(err));
  });
  return router;
}

/** The build's folder, when it has been built (npm run build); otherwise the gateway serves the API alone. */
export function builtConsole(dir: string): string | undefined {
  return fs.existsSync(path.join(dir, 'index.html')) ? dir : undefined;
}
