// npm install when node_modules is missing or older than the lock file; shared
// by `npm run up` and `npm test`, so either can be the first command on a clone.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export function installDependenciesIfStale(root) {
  const installedMarker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (fs.existsSync(installedMarker) && fs.statSync(installedMarker).mtimeMs >= fs.statSync(lock).mtimeMs) return;
  const started = Date.now();
  console.log('Installing dependencies (npm install)…');
  // npm install, not npm ci: npm 11 leaves other platforms' optional packages
  // (@swc/core-*) out of the lock file when it talks to a mirror registry, and
  // npm ci then refuses the lock (npm/cli#9342). install honours the lock for
  // everything it records.
  execFileSync(npm, ['install', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  console.log(`Installing dependencies (npm install): done in ${Math.round((Date.now() - started) / 1000)} s`);
}
