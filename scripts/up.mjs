#!/usr/bin/env node
// `npm run up`: install what is missing, build, then hand over to the
// launcher (libs/infra/src/launcher.ts), which resolves MongoDB-wire, NATS and
// S3, starts every service and the gateway, and stops them on Ctrl-C.
// Plain JavaScript on purpose: it must run before anything is installed.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installDependenciesIfStale } from './install-dependencies.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });
// Each long step says when it starts and how long it took: a first run on an
// empty cache spends minutes here and should not look stuck.
const timed = (title, fn) => {
  const started = Date.now();
  console.log(`${title}…`);
  fn();
  console.log(`${title}: done in ${Math.round((Date.now() - started) / 1000)} s`);
};

installDependenciesIfStale(root);

// Incremental: only what changed since the last build is compiled again.
// The end-to-end suite builds once up front and sets HANGAR_SKIP_BUILD, so
// parallel test files do not compile the same outputs at the same time.
// Without type-checking (build:unchecked): starting is what is asked for here, and `npm test` and
// the image's `npm run build` check the types. A checked build took 167 s of CPU on a slow host
// where this one takes 90, and after `npm test` (which emits unchecked too) it checked everything again.
if (process.env.HANGAR_SKIP_BUILD !== '1') {
  timed('Building (tsc -b)', () => run(npm, ['run', '--silent', 'build:unchecked']));
}

const require = createRequire(import.meta.url);
const { runSystem } = require(path.join(root, 'libs', 'infra', 'dist', 'index.js'));
try {
  await runSystem(process.env);
} catch (err) {
  // What the machine lacks (e.g. Go) is told in one message; a stack is for bugs.
  if (err?.name !== 'SetupError') throw err;
  console.error(`\n${err.message}`);
  process.exit(1);
}
