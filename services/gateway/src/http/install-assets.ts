import path from 'node:path';
import express, { Router } from 'express';
import { GATEWAY_PACKAGE_DIR } from '../package-dir';

/** The install and tester pages' own styles, icon font and images: cached, no index pages. */
export function installAssets(): Router {
  const router = Router();
  router.use('/assets/fontawesome', express.static(path.dirname(require.resolve('@fortawesome/fontawesome-free/package.json')), { maxAge: '7d', index: false }));
  router.use('/assets', express.static(path.join(GATEWAY_PACKAGE_DIR, 'assets'), { maxAge: '1h', index: false }));
  return router;
}
