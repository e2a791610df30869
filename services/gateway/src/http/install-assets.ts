import path from 'node:path';
import express, { Router } from 'express';

/** The install and tester pages' own styles, icon font and images: cached, no index pages. */
export function installAssets(): Router {
  const router = Router();
  router.use('/assets/fontawesome', express.static(path.dirname(require.resolve('@fortawesome/fontawesome-free/package.json')), { maxAge: '7d', index: false }));
  router.use('/assets', express.static(path.join(__dirname, '..', '..', 'assets'), { maxAge: '1h', index: false }));
  return router;
}
