#!/usr/bin/env node
// `npm run up`: install what is missing, build, then hand over to the
// launcher (libs/infra/src/launcher.ts), which resolves MongoDB-wire, NATS and
// S3, starts every service and the gateway, and stops them on Ctrl-C.
// Plain JavaScript on purpose: it must run before anything is installed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });

// Install when node_modules is missing or older than the lock file.
const installedMarker = path.join(root, 'node_modules', '.package-lock.json');
const lock = path.join(root, 'package-lock.json');
if (!fs.existsSync(installedMarker) || fs.statSync(installedMarker).mtimeMs < fs.statSync(lock).mtimeMs) {
  console.log('Installing dependencies…');
  // Not `npm ci`: see .ci/run for the npm 11 lock-file bug it trips over.
  run(npm, ['install', '--no-audit', '--no-fund']);
}

// Incremental: only what changed since the last build is compiled again.
// The end-to-end suite builds once up front and sets HANGAR_SKIP_BUILD, so
// parallel test files do not compile the same outputs at the same time.
if (process.env.HANGAR_SKIP_BUILD !== '1') {
  console.log('Building…');
  run(npm, ['run', '--silent', 'build']);
}

const require = createRequire(import.meta.url);
const { runSystem } = require(path.join(root, 'libs', 'infra', 'dist', 'index.js'));
await runSystem(process.env);
