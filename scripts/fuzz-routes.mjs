#!/usr/bin/env node
// The hostile sweep over every documented route (tests/e2e/hostile-routes.test.ts) with a longer
// budget than `npm test` gives it: `npm run fuzz` (300 s), `npm run fuzz -- 1800`, or replay a
// failure with HANGAR_FUZZ_SEED=<seed> HANGAR_FUZZ_PATH=<path> as the failure printed them.
// Runs the BUILT system (dist/): build first (`npm run build`).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const seconds = process.argv[2] ?? process.env.HANGAR_FUZZ_SECONDS ?? '300';
if (!/^\d+$/.test(seconds)) {
  console.error(`fuzz-routes: the budget is a number of seconds, not ${JSON.stringify(seconds)}`);
  process.exit(2);
}
const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const run = spawnSync(process.execPath, [jest, '--selectProjects', 'e2e', '-t', 'every documented operation', '--', 'tests/e2e/hostile-routes.test.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, HANGAR_FUZZ_SECONDS: seconds },
});
process.exit(run.status ?? 1);
