#!/usr/bin/env node
'use strict';
// The `hangar` command. From a clone, `npm install` links it and the first run
// builds the CLI if `npm run build` has not yet; the image ships it built.
const fs = require('node:fs');
const path = require('node:path');

const dist = path.join(__dirname, '..', 'dist');
const main = path.join(dist, 'main.js');
if (!fs.existsSync(main)) {
  const { spawnSync } = require('node:child_process');
  const root = path.join(__dirname, '..');
  process.stderr.write('hangar: building the CLI once (npm run build builds everything)…\n');
  const built = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', root], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
require(bundled() ?? main);

/**
 * dist/ joined into one file (bin/bundle.js: a fifth of the CLI's start-up CPU was loading ~40
 * files), rebuilt when a build of dist/ is newer than it (tsc -b rewrites tsconfig.tsbuildinfo
 * whenever it writes dist/). Where it cannot be written, dist/ is run as it is.
 */
function bundled() {
  const bundle = path.join(dist, 'hangar.bundle.js');
  const mtime = (file) => fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs;
  const bundleTime = mtime(bundle);
  const buildTime = mtime(path.join(__dirname, '..', 'tsconfig.tsbuildinfo')) ?? mtime(main);
  if (bundleTime !== undefined && buildTime !== undefined && bundleTime >= buildTime) return bundle;
  try {
    require('./bundle.js').writeBundle(main, bundle);
    return bundle;
  } catch {
    return undefined;
  }
}
