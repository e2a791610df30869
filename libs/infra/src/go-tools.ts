import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SetupError } from './setup-error';

/** The repository root: libs/infra/{src,dist}/ is two levels below it. */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

export const TOOLS_BIN_DIR = path.join(REPO_ROOT, '.hangar', 'bin');

export const VERSITYGW_MODULE = 'github.com/versity/versitygw/cmd/versitygw@v1.7.0';

/** Built only where Debian's nats-server is not installed. */
export const NATS_SERVER_MODULE = 'github.com/nats-io/nats-server/v2@v2.10.29';

/**
 * Builds a Go program once with the machine's Go (through the module proxy)
 * and caches the binary in `binDir`; a stamp of the inputs decides when to
 * rebuild. A binary whose stamp matches is returned without running Go at
 * all, so a machine that built once starts without Go and without network.
 */
export function buildCached(binDir: string, name: string, stampInput: string, build: (binary: string) => void, why: string): string {
  const binary = path.join(binDir, name);
  const stampFile = `${binary}.stamp`;
  const stamp = crypto.createHash('sha256').update(stampInput).digest('hex');
  if (fs.existsSync(binary) && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stamp) {
    return binary;
  }
  requireGo(name, why);
  fs.mkdirSync(binDir, { recursive: true });
  const started = Date.now();
  process.stderr.write(`Building ${name} with Go (once; cached in ${path.relative(process.cwd(), binDir) || binDir})…\n`);
  try {
    build(binary);
  } catch (err) {
    // Go has already printed why (above); a stack would only bury it.
    throw new SetupError(
      `Building ${name} with Go failed (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); Go's output is above.\n` +
        `A first build downloads modules through the Go module proxy (go env GOPROXY): check that it is reachable, or ${why.replace(/^.*; or /, '')}.`,
    );
  }
  fs.writeFileSync(stampFile, stamp);
  process.stderr.write(`Built ${name} in ${Math.round((Date.now() - started) / 1000)} s\n`);
  return binary;
}

/** Stops with what is missing and what to do, instead of a spawn ENOENT from deep inside. */
function requireGo(name: string, why: string): void {
  const probe = spawnSync('go', ['version'], { stdio: 'ignore', env: process.env });
  if (probe.error || probe.status !== 0) {
    throw new SetupError(
      `Go is needed to build ${name} (${why}) into .hangar/bin, once; it is not on PATH.\n` +
        `Install Go 1.24 or newer (https://go.dev/dl/, or \`apt-get install golang-go\` where Debian's is new enough) and run again.`,
    );
  }
}

function go(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): void {
  execFileSync('go', args, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
}

/** FerretDB 1.24 embedded in tools/ferretdb (see that folder for why). */
export function ferretdbBinary(): string {
  const dir = path.join(REPO_ROOT, 'tools', 'ferretdb');
  const inputs = ['go.mod', 'go.sum', 'main.go'].map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\0');
  return buildCached(TOOLS_BIN_DIR, 'ferretdb', inputs, (binary) => go(['build', '-o', binary, '.'], { cwd: dir }), 'the local MongoDB-wire server; or set MONGO_URL');
}

export function versitygwBinary(): string {
  return buildCached(
    TOOLS_BIN_DIR,
    'versitygw',
    VERSITYGW_MODULE,
    () => go(['install', VERSITYGW_MODULE], { env: { ...process.env, GOBIN: TOOLS_BIN_DIR } }),
    'the local S3 server; or set S3_ENDPOINT, S3_ACCESS_KEY and S3_SECRET_KEY',
  );
}

/**
 * Debian's nats-server when installed (on PATH or in /usr/sbin), else one
 * built with Go like the other two, so `npm run up` needs no Debian package.
 */
export function natsServerBinary(): string {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), '/usr/sbin', '/usr/local/sbin'];
  for (const dir of dirs) {
    const candidate = path.join(dir, 'nats-server');
    if (fs.existsSync(candidate)) return candidate;
  }
  return builtNatsServerBinary();
}

/**
 * nats-server at NATS_SERVER_MODULE, built with Go (once; cached), whatever else is installed:
 * the 2.10 line the image's compose file runs. The tests that kill and pause nodes of a cluster
 * use it. On Debian's 2.9.10, a KV bucket raised from one copy to three lost its quorum when its
 * first node was killed: no leader and no value read for 30 s and more, in 2 of 6 runs on a busy
 * machine; on 2.10 no run lost its bucket (docs/performance.md, 2026-12-01).
 */
export function builtNatsServerBinary(): string {
  return buildCached(
    TOOLS_BIN_DIR,
    'nats-server',
    NATS_SERVER_MODULE,
    () => go(['install', NATS_SERVER_MODULE], { env: { ...process.env, GOBIN: TOOLS_BIN_DIR } }),
    'NATS with JetStream; or set NATS_URL',
  );
}
