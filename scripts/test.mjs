#!/usr/bin/env node
// `npm test`: the whole suite. Builds (the end-to-end suite runs the built
// system), type-checks the tests, checks the generated proto code is current,
// then runs jest's unit, component and end-to-end projects; jest's global
// setup starts the MongoDB-wire, NATS and S3 servers it needs.
// Extra arguments go to jest (e.g. `npm test -- --selectProjects unit`).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const step = (title, cmd, args) => {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`✖ ${title} failed`);
    process.exit(result.status ?? 1);
  }
};

step('build', 'npm', ['run', '--silent', 'build']);
step('type-check tests', 'npx', ['tsc', '-p', 'tsconfig.test.json']);
step('generated proto code is current', 'bash', ['scripts/gen-proto.sh', '--check']);

const resultsFile = path.join(root, '.hangar', 'jest-results.json');
fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
fs.rmSync(resultsFile, { force: true });
console.log('\n▶ jest');
const jest = spawnSync('npx', ['jest', '--ci', '--maxWorkers=2', '--json', `--outputFile=${resultsFile}`, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});

// One plain closing line that any reader of the log understands.
if (fs.existsSync(resultsFile)) {
  const r = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
  console.log(`\n${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped`);
}
process.exit(jest.status ?? 1);
