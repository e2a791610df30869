// The Go servers the suites start (FerretDB, versitygw, and nats-server 2.10:
// the NATS cluster tests run the image's version, and every other test runs it
// too where Debian's 2.9 is missing) take two to three minutes to build on a fresh clone,
// and jest's global setup would build them one after the other before any
// test runs. TypeScript's build and type-check use one core; this builds the
// Go servers on the other meanwhile, through the same cached build
// (libs/infra go-tools.ts), so jest's setup finds them ready.
//
// Only a head start: a failure here is not reported as one. Jest's setup
// builds whatever is still missing and says why if it cannot (no Go, no module
// proxy), or needs none of it (MONGO_URL, S3_ENDPOINT and NATS_URL set).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const BUILD = `
const tools = require('./libs/infra/dist/go-tools');
tools.ferretdbBinary();
tools.versitygwBinary();
tools.builtNatsServerBinary();
`;

/** Starts the build when Go is on PATH; `wait()` resolves once it has ended, however it ended. */
export function buildGoToolsInBackground(root) {
  if (spawnSync('go', ['version'], { stdio: 'ignore' }).status !== 0) return { wait: async () => {} };
  const logFile = path.join(root, '.hangar', 'logs', 'go-tools-build.log');
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.openSync(logFile, 'w');
  const started = Date.now();
  console.log(`(building the Go servers beside it; output in ${path.relative(root, logFile)})`);
  // Its own process group, so a run that stops early (a failed type-check) stops Go's compilers too.
  const child = spawn(process.execPath, ['-e', BUILD], { cwd: root, stdio: ['ignore', log, log], detached: true });
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already ended.
    }
  };
  process.once('exit', stop);
  const ended = new Promise((resolve) => {
    child.on('error', () => resolve(null));
    child.on('exit', (code) => resolve(code));
  });
  return {
    async wait() {
      const code = await ended;
      process.off('exit', stop);
      fs.closeSync(log);
      const seconds = Math.round((Date.now() - started) / 1000);
      console.log(code === 0 ? `\nGo servers ready (${seconds} s)` : `\nGo servers not built beside TypeScript (exit ${code}); jest's setup will try`);
    },
  };
}
