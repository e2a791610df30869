import path from 'node:path';

/**
 * The gateway's package folder (services/gateway), for the files it serves from there. Computed
 * here, at the top of dist/, because the one-file bundle (dist/main.bundle.js) sits at the same
 * depth: a `__dirname` deeper in dist/ would point elsewhere once bundled.
 */
export const GATEWAY_PACKAGE_DIR = path.resolve(__dirname, '..');
