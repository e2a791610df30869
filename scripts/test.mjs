#!/usr/bin/env node
// `npm test`: the whole suite. Checks for the programs the tests start
// (libs/testing/system-tools.json): installs the missing ones as root, else
// stops at once with one message naming them all and the command that
// installs them. Then installs npm dependencies when stale, builds (the
// end-to-end suite runs the built system; the Go servers the suites start are
// built beside it, scripts/go-tools-in-background.mjs), type-checks the sources and the tests (beside the build),
// checks the generated proto code is current,
// then runs jest's unit, component and end-to-end projects with every query
// recorded, then the plan check (tests/plans) in a run of its own; jest's global
// setup starts the MongoDB-wire, NATS and S3 servers it needs.
// Extra arguments go to jest (e.g. `npm test -- --selectProjects unit`).
// HANGAR_TEST_TIERS=unit,component runs only those tiers (CI's first run, .ci/run);
// HANGAR_TEST_CONTINUES=1 keeps the query log of the run before it, so that
// CI's second run (the end-to-end tier) ends with the plan check of every tier,
// and skips the type and proto checks that run made of the same sources.
// The environment reaches jest and the processes the tests start unchanged:
// HANGAR_E2E_REPLICAS=2 makes every Hangar the end-to-end suite starts run two
// replicas of each process (the shared ones run two already).
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildGoToolsInBackground } from './go-tools-in-background.mjs';
import { figures } from './test-figures.mjs';
import { installDependenciesIfStale } from './install-dependencies.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Each step's time, printed as it ends and again with the figures: what a run costs before jest starts.
const stepTimes = [];
const recordTime = (title, started, ended = Date.now()) => {
  stepTimes.push({ title, ms: ended - started });
  console.log(`(${title}: ${((ended - started) / 1000).toFixed(1)} s)`);
};
// Asynchronous, so that a step running beside it (besideTheBuild) is seen ending when it ends.
const step = async (title, cmd, args) => {
  console.log(`\n▶ ${title}`);
  const started = Date.now();
  const status = await new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit' });
    child.on('error', () => resolve(1));
    child.on('exit', (code) => resolve(code));
  });
  if (status !== 0) {
    console.error(`✖ ${title} failed`);
    process.exit(status ?? 1);
  }
  recordTime(title, started);
};

/** A step run in the background; `wait()` prints its output and its own time, and stops the run if it failed. */
function besideTheBuild(title, cmd, args) {
  const started = Date.now();
  const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  // A run that stops before waiting for it (a failed build) stops it too.
  const stop = () => child.kill();
  process.once('exit', stop);
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const ended = new Promise((resolve) => {
    child.on('error', (err) => resolve({ code: 1, err, at: Date.now() }));
    child.on('exit', (code) => resolve({ code, at: Date.now() }));
  });
  return {
    async wait() {
      const { code, err, at } = await ended;
      process.off('exit', stop);
      const labelled = `${title} (beside the build)`;
      console.log(`\n▶ ${labelled}`);
      if (output) process.stdout.write(output);
      if (code !== 0) {
        console.error(`✖ ${title} failed${err ? `: ${err.message}` : ''}`);
        process.exit(code ?? 1);
      }
      recordTime(labelled, started, at);
    },
  };
}

console.log('▶ programs the tests start');
const { ensureSystemTools } = createRequire(import.meta.url)(path.join(root, 'libs', 'testing', 'system-tools.js'));
const missing = ensureSystemTools();
if (missing) {
  console.error(`\n${missing}`);
  process.exit(1);
}
console.log('all present');
// For the test of this check (libs/testing/src/system-tools.test.ts), and for
// a machine being set up: stop here.
if (process.env.HANGAR_CHECK_TOOLS_ONLY === '1') process.exit(0);

const installStarted = Date.now();
installDependenciesIfStale(root);
recordTime('npm dependencies', installStarted);

// Every Node process of the suite (jest's workers, each Hangar's processes, the CLIs the tests run)
// keeps V8's compiled code of what it loads here, so the next one loading the same modules skips
// compiling them (Node 22.1+, so the end-to-end tier on Node 24; Node 20 ignores it). A Hangar
// start took 5.8 s and 9 s of CPU without it, 4.3 s and 6.8 s with it.
process.env.NODE_COMPILE_CACHE ||= path.join(root, '.hangar', 'compile-cache');

// tsc emits here without type-checking (--noCheck, `npm run build:unchecked`): the type-check
// below reads every source of every workspace (tsconfig.test.json includes them all, the console's
// aside, which its own build checks), so checking them again in each project's build was the same
// work twice — on a slow host 77 of tsc -b's 167 s of CPU. `npm run build` (the image) checks as it emits.
await step('build the infrastructure library', 'npx', ['tsc', '-b', '--noCheck', 'libs/infra']);
const goTools = buildGoToolsInBackground(root);
// A run that continues another (CI's second, on Node 24) checks the same sources the first did.
const checks = process.env.HANGAR_TEST_CONTINUES !== '1';
// The one type-check of the run: every workspace's sources and the tests (tsconfig.test.json), read
// from the sources, not the build's output. tsc uses one core: it runs beside the build, its output
// printed once it ends, and jest starts only if it passed.
const typeCheck = checks ? besideTheBuild('type-check sources and tests', 'npx', ['tsc', '-p', 'tsconfig.test.json']) : undefined;
await step('build', 'npm', ['run', '--silent', 'build:unchecked']);
await typeCheck?.wait();
if (checks) await step('generated proto code is current', 'bash', ['scripts/gen-proto.sh', '--check']);
const goWaitStarted = Date.now();
await goTools.wait();
recordTime('waiting for the Go servers', goWaitStarted);

// Every service the suites start records the queries it sends; the plan check
// (tests/plans) then explains each one, in a jest run of its own once the
// suites are done. A run narrowed by arguments skips it: it would see only
// part of the queries and report the rest as never run.
const queryLogDir = path.join(root, '.hangar', 'query-log');
// Which tiers' queries the log holds: a continued run adds its own to those of the run before.
const loggedTiersFile = path.join(queryLogDir, 'tiers.json');
const continues = process.env.HANGAR_TEST_CONTINUES === '1';
if (!continues) fs.rmSync(queryLogDir, { recursive: true, force: true });
const loggedBefore = continues && fs.existsSync(loggedTiersFile) ? JSON.parse(fs.readFileSync(loggedTiersFile, 'utf8')) : [];
const extraArgs = process.argv.slice(2);
// Each Hangar the end-to-end files start, with its start time (libs/testing startHangar), for the figures.
const startLog = path.join(root, '.hangar', 'hangar-starts.tsv');
fs.rmSync(startLog, { force: true });

// jest's workers: three on the two cores the suite is sized for. With two, both cores were only 87 %
// busy over a CI run — each worker waits on the Hangar it drives — and a third took CI from 21 to 19
// minutes on one host (docs/performance.md, 2026-12-01). The NATS cluster test's failures beside it were
// the NATS servers' (2.9's raft, 2.10's cluster bootstrap: libs/testing nats-cluster.ts), since dealt
// with. HANGAR_TEST_WORKERS sets another count.
const workers = process.env.HANGAR_TEST_WORKERS || '3';

const runJest = (title, args, env) => {
  const started = Date.now();
  const resultsFile = path.join(root, '.hangar', `jest-results-${title}.json`);
  fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
  fs.rmSync(resultsFile, { force: true });
  console.log(`\n▶ jest (${title})`);
  const run = spawnSync('npx', ['jest', '--ci', `--maxWorkers=${workers}`, '--json', `--outputFile=${resultsFile}`, ...args], {
    cwd: root,
    stdio: 'inherit',
    // HANGAR_TEST_BUILT: built above, so the end-to-end setup does not build again.
    env: { ...process.env, HANGAR_QUERY_LOG_DIR: queryLogDir, HANGAR_START_LOG: startLog, HANGAR_TEST_BUILT: '1', ...env },
  });
  const counts = fs.existsSync(resultsFile) ? JSON.parse(fs.readFileSync(resultsFile, 'utf8')) : { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0 };
  return { title, status: run.status ?? 1, counts, wallMs: Date.now() - started };
};

const ALL_TIERS = ['unit', 'component', 'e2e'];
const tiers = (process.env.HANGAR_TEST_TIERS ?? ALL_TIERS.join(',')).split(',').map((t) => t.trim());
const unknownTier = tiers.find((t) => !ALL_TIERS.includes(t));
if (unknownTier) {
  console.error(`HANGAR_TEST_TIERS: '${unknownTier}' is not one of ${ALL_TIERS.join(', ')}`);
  process.exit(1);
}
const runs = [runJest('suites', extraArgs.length ? extraArgs : ['--selectProjects', ...tiers])];
// The plan check needs every query of every tier: a run narrowed by arguments skips it, and a run
// of some tiers only leaves it to the run that continues it with the others.
const logged = extraArgs.length ? [] : [...new Set([...loggedBefore, ...tiers])];
if (!extraArgs.length) {
  fs.mkdirSync(queryLogDir, { recursive: true });
  fs.writeFileSync(loggedTiersFile, JSON.stringify(logged));
}
if (ALL_TIERS.every((t) => logged.includes(t))) runs.push(runJest('plan check', ['--selectProjects', 'plans'], { HANGAR_PLAN_CHECK: '1' }));

// Per tier: files, tests, failures, time; then the slowest files.
const starts = fs.existsSync(startLog) ? fs.readFileSync(startLog, 'utf8') : '';
const figureLines = [
  ...figures(root, runs.map((r) => ({ title: r.title, wallMs: r.wallMs, results: r.counts })), starts),
  '',
  `before jest: ${stepTimes.map(({ title, ms }) => `${title} ${(ms / 1000).toFixed(1)} s`).join(', ')}`,
];
console.log(figureLines.join('\n'));
fs.writeFileSync(path.join(root, '.hangar', `test-figures-node${process.versions.node.split('.')[0]}.txt`), `${figureLines.join('\n')}\n`);

// One plain closing line that any reader of the log understands.
const total = (field) => runs.reduce((sum, r) => sum + r.counts[field], 0);
console.log(`\n${total('numPassedTests')} passed, ${total('numFailedTests')} failed, ${total('numPendingTests')} skipped`);
process.exit(runs.every((r) => r.status === 0) ? 0 : 1);
