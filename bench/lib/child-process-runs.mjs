// What the parse benches share: measuring in a fresh child process of the bench itself (so its
// peak RSS is the work's, not what building the input left behind), and the S3 settings that
// child reads from the environment the bench's servers put there.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository: benches load Hangar's libraries from their builds (`npm run build`). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
/** A workspace's build, e.g. `built('libs/parsers')`. */
export const built = (workspace) => require(path.join(ROOT, workspace, 'dist'));

/** The S3 server the bench resolved (bench-infrastructure.mjs) or was given. */
export const s3Settings = () => ({ endpoint: process.env.S3_ENDPOINT, accessKey: process.env.S3_ACCESS_KEY, secretKey: process.env.S3_SECRET_KEY });

/** Runs `script --child ...args` in a new Node process and parses the JSON it prints. */
export function runChild(script, args) {
  const out = execFileSync(process.execPath, [script, '--child', ...args], { env: process.env, stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out.toString('utf8'));
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The bench's entry: the measuring child when started with `--child`, else the driver. Fails with exit code 1. */
export function mainOrChild(main, child) {
  (process.argv[2] === '--child' ? child(process.argv.slice(3)) : main()).catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
