#!/usr/bin/env node
'use strict';
// The `hangar` command. From a clone, `npm install` links it and the first run
// builds the CLI if `npm run build` has not yet; the image ships it built.
const fs = require('node:fs');
const path = require('node:path');

const main = path.join(__dirname, '..', 'dist', 'main.js');
if (!fs.existsSync(main)) {
  const { spawnSync } = require('node:child_process');
  const root = path.join(__dirname, '..');
  process.stderr.write('hangar: building the CLI once (npm run build builds everything)…\n');
  const built = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', root], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
require(main);
